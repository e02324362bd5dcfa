"""Time one arena on the local pool and on a Dask cluster, and check they agree.

    .venv/bin/python bench/cluster_arena.py            # kuniumi random greedy, 40 games, seed 1

starts a ``LocalCluster`` of ``--workers`` single-threaded worker processes (or uses the
scheduler given by ``--scheduler tcp://HOST:8786``), then runs the real command twice, each in
a process of its own, as a user would:

    ludoteca arena GAME BOT BOT --games N --seed S --json -q --jobs W
    ludoteca arena GAME BOT BOT --games N --seed S --json -q --cluster ADDRESS

and prints each wall time and whether the summaries agree game for game (everything but the
move timings). The cluster is started before the clock runs, as a standing cluster would
be, and its run is timed twice: first on fresh workers, which import ludoteca and compile
the game's playout kernel on their first game (the local pool's forked processes inherit
the imports), then again on the now warm workers. Each timed run includes its own
interpreter start, and the local run its pool. Exit status 1 if the results differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMING = ("mean_move_seconds", "max_move_seconds", "max_move_cpu_seconds")


def arena(argv: list[str]) -> tuple[float, dict]:
    """Run ``ludoteca arena ARGV`` in a new process: its wall time and its JSON summary."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli.main", "arena", *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"ludoteca arena {' '.join(argv)} failed:\n{done.stderr}")
    return seconds, json.loads(done.stdout)


def comparable(summary: dict) -> dict:
    """The summary without what the clock decides."""
    bots = [{k: v for k, v in b.items() if k not in TIMING} for b in summary["bots"]]
    return {**summary, "bots": bots}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kuniumi", help="the game played (default kuniumi)")
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["random", "greedy"],
        help="bot specs, as for ludoteca arena (default random greedy)",
    )
    parser.add_argument(
        "--games", type=int, default=40, help="games per pairing or table (default 40)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the arena's seed (default 1)")
    parser.add_argument(
        "--workers", type=int, default=2, help="local processes and cluster workers (2)"
    )
    parser.add_argument("--scheduler", help="use this running cluster instead of a local one")
    args = parser.parse_args()
    common = [args.game, *args.bots, "--games", str(args.games), "--seed", str(args.seed)]
    common += ["--json", "-q"]

    cluster = None
    address = args.scheduler
    if address is None:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=":0")
        address = cluster.scheduler_address
    try:
        local_s, local = arena([*common, "--jobs", str(args.workers)])
        fresh_s, remote = arena([*common, "--cluster", address])
        warm_s, again = arena([*common, "--cluster", address])
    finally:
        if cluster is not None:
            cluster.close()

    same = comparable(local) == comparable(remote) == comparable(again)
    games = local["total_games"]
    print(f"ludoteca arena {' '.join(common)}  ({games} games)")
    rows = [
        (f"local pool, --jobs {args.workers}", local_s, ""),
        ("cluster, fresh workers", fresh_s, f"  ({address})"),
        ("cluster, warm workers", warm_s, ""),
    ]
    for name, seconds, note in rows:
        print(f"  {name + ':':<24} {seconds:6.2f} s{note}")
    print(f"  same results: {'yes' if same else 'NO'}")
    for b in local["bots"]:
        print(f"    {b['label']}: {b['wins']} W {b['draws']} D {b['losses']} L")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
