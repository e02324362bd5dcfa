"""The arena and analyze on a real Dask cluster: a ``LocalCluster`` of two worker processes,
reached through its scheduler's TCP address exactly as a cluster of machines would be.

The games must come out as on the local pool (each is seeded by its index, not by where it
runs), the records must land on the caller's disk, and every way of getting the cluster
wrong must be one line on stderr with exit status 2.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from distributed import LocalCluster

import ludoteca
from ludoteca.bots import cluster as cluster_module
from ludoteca.bots.arena import run_jobs, schedule
from ludoteca.bots.cluster import ClusterError, cluster_executor
from ludoteca.cli.main import main
from ludoteca.core import get

ROOT = Path(__file__).resolve().parents[2]

ARENA = ["arena", "kuniumi", "random", "greedy", "--games", "40", "--seed", "1", "--json"]
"""The tournament the cluster must reproduce: 40 quick games of Kuniumi."""

TIMING = ("mean_move_seconds", "max_move_seconds", "max_move_cpu_seconds")


@pytest.fixture(scope="module")
def local_cluster():
    """A scheduler (in this process) with two single-threaded worker processes."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster


@pytest.fixture
def scheduler(local_cluster) -> str:
    """The scheduler's TCP address, as ``--cluster`` takes it."""
    return local_cluster.scheduler_address


def _games_played_on(cluster) -> int:
    """How many arena games the cluster's workers have finished so far."""
    prefix = cluster.scheduler.task_prefixes.get("play_game")
    return 0 if prefix is None else prefix.state_counts["memory"]


@pytest.fixture
def quick(monkeypatch):
    """Give up on a scheduler after one second, not ten."""
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1.0)


def _json_run(argv, capsys):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _without_times(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("started", "finished")}


def test_cluster_arena_matches_the_local_pool(local_cluster, scheduler, tmp_path, capsys):
    before = _games_played_on(local_cluster)
    local = _json_run([*ARENA, "--jobs", "2", "-q", "--out", str(tmp_path / "local")], capsys)
    assert _games_played_on(local_cluster) == before
    remote = _json_run(
        [*ARENA, "--cluster", scheduler, "-q", "--out", str(tmp_path / "remote")], capsys
    )
    assert _games_played_on(local_cluster) == before + 40  # every game on the workers
    strip = [{k: v for k, v in g.items() if k != "record"} for g in local["games"]]
    assert strip == [{k: v for k, v in g.items() if k != "record"} for g in remote["games"]]
    assert len(strip) == 40 and {g["reason"] for g in strip}  # games were really played
    assert local["pairings"] == remote["pairings"]
    assert local["first_seat"] == remote["first_seat"]
    for a, b in zip(local["bots"], remote["bots"], strict=True):
        assert {k: v for k, v in a.items() if k not in TIMING} == {
            k: v for k, v in b.items() if k not in TIMING
        }
    # the records were written here, by the caller, one per game, move for move the same
    for g in remote["games"]:
        path = Path(g["record"])
        assert path.parent == tmp_path / "remote" / "games"
        twin = tmp_path / "local" / "games" / path.name
        assert _without_times(json.loads(path.read_text())) == _without_times(
            json.loads(twin.read_text())
        )
    assert len(list((tmp_path / "remote" / "games").glob("game-*.json"))) == 40


def test_cluster_analyze_matches_the_local_pool(scheduler, capsys):
    """Comino, whose deals are drawn by the table: the same draws wherever a game runs."""
    argv = ["analyze", "comino", "--games", "12", "--level", "random", "--seed", "3", "--json"]
    local = _json_run([*argv, "--jobs", "2", "-q"], capsys)
    remote = _json_run([*argv, "--cluster", scheduler, "-q"], capsys)
    assert local == remote
    assert remote["games"] == 12


def test_the_progress_bar_counts_the_cluster_games(scheduler, capfd):
    assert main([*ARENA[:5], "6", "--cluster", scheduler]) == 0
    err = capfd.readouterr().err
    assert "kuniumi arena" in err and "6/6" in err


def test_outcomes_come_as_each_game_ends_and_in_order(scheduler):
    game = get("kuniumi")
    jobs = schedule(game, ["random", "greedy"], 6, seed=2)
    seen = []
    with cluster_executor(scheduler, game) as executor:
        outcomes = run_jobs(jobs, on_done=lambda o: seen.append(o.index), executor=executor)
    assert sorted(seen) == list(range(6))
    assert [o.index for o in outcomes] == list(range(6))
    assert [o.seed for o in outcomes] == [j.seed for j in jobs]


def test_workers_with_other_rules_are_refused(scheduler, monkeypatch):
    """Workers that run another ludoteca would play other games: refused before any game."""
    monkeypatch.setattr(ludoteca, "__version__", "0.0.0-elsewhere")
    with (
        pytest.raises(ClusterError, match=r"runs ludoteca .* here ludoteca 0\.0\.0-elsewhere"),
        cluster_executor(scheduler, get("kuniumi")),
    ):
        pytest.fail("no game may be sent")


def test_workers_without_the_game_are_refused(scheduler, capfd):
    """toy-nim is registered in this process only (tests/support/toygames/small.py), as a plug-in
    installed on this machine but not on the workers would be."""
    assert main(["arena", "toy-nim", "random", "greedy", "--cluster", scheduler, "-q"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "cannot play toy-nim" in err and "install this ludoteca on every worker" in err


def test_a_scheduler_without_workers_is_refused(quick, capfd):
    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", dashboard_address=":0"
    ) as empty:
        code = main(["arena", "kuniumi", "random", "greedy", "--cluster", empty.scheduler_address])
    assert code == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0 and "the scheduler has no workers" in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_refused_in_one_line():
    """In a process of its own, so that nothing Dask prints on the way out goes unseen."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    code = (
        "import sys; import ludoteca.bots.cluster as c; c.CONNECT_SECONDS = 1.0\n"
        "from ludoteca.cli.main import main\n"
        f"sys.exit(main(['arena', 'kuniumi', 'random', 'greedy', '--cluster', {address!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"ludoteca arena: cluster {address!r}: no Dask scheduler answered within 1 s\n"
    )
    assert done.stdout == ""


@pytest.mark.parametrize(
    "address",
    ["nonsense", "tcp://127.0.0.1:notaport", "http://127.0.0.1:8786", "", "tcp://:8786"],
)
def test_bad_addresses_are_refused(address, capfd):
    assert main(["analyze", "kuniumi", "--cluster", address, "-q"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith("ludoteca analyze: cluster") and "tcp://HOST:PORT" in err


def test_jobs_and_cluster_are_refused_together(capfd):
    argv = ["arena", "kuniumi", "random", "greedy", "--jobs", "2", "--cluster", "tcp://h:8786"]
    assert main(argv) == 2
    assert "--jobs is for local processes" in capfd.readouterr().err


def test_without_distributed_the_cluster_says_how_to_install_it(monkeypatch, capfd):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    assert main(["arena", "kuniumi", "random", "greedy", "--cluster", "tcp://h:8786"]) == 2
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install 'ludoteca[cluster]'" in err


def test_a_cluster_whose_workers_all_leave_is_given_up_in_one_line(quick, monkeypatch, capfd):
    """The workers leave once the games are sent: the arena says so and stops, where it
    waited for ever."""
    check = cluster_module._check_workers

    def check_then_lose_the_workers(client, address, game, timeout):
        check(client, address, game, timeout)
        client.retire_workers(close_workers=True)

    monkeypatch.setattr(cluster_module, "_check_workers", check_then_lose_the_workers)
    codes: list[int] = []
    with LocalCluster(
        n_workers=1, processes=False, protocol="tcp://", dashboard_address=":0"
    ) as lonely:
        argv = ["arena", "kuniumi", "random", "greedy", "-q", "--cluster", lonely.scheduler_address]
        runner = threading.Thread(target=lambda: codes.append(main(argv)), daemon=True)
        runner.start()
        runner.join(timeout=60)
    assert codes == [2]
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0 and "every worker left the cluster" in err
