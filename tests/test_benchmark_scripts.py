"""The benchmark scripts keep working: each runs for a moment and prints what ``make bench``
reads. (The figures themselves are measured by ``make bench``, never asserted here.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))


def run_json(*args: str, timeout: float = 300) -> object:
    out = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert out.stdout.strip(), out.stderr[-2000:]
    return json.loads(out.stdout)


def test_compact_view_reports_each_form():
    found = run_json(str(BENCH / "compact_view.py"), "--json", "--repeat", "1")
    forms = {row["form"]: row for row in found["rows"]}
    assert found["legal_moves"] > 1000
    assert forms["compact"]["kb"] < forms["whole legal list"]["kb"] / 100


def test_adapters_reports_steps_and_observations_per_second():
    rows = run_json(str(BENCH / "adapters.py"), "--json", "--seconds", "0.05", "--game", "comune")
    assert [row["game"] for row in rows] == ["comune"]
    for field in ("openspiel_steps_per_s", "openspiel_rl_steps_per_s", "pettingzoo_steps_per_s",
                  "observations_per_s", "openspiel_observation_tensor_per_s"):  # fmt: skip
        assert rows[0][field] > 0


def test_protocol_cpu_reports_cpu_time_a_move():
    rows = run_json(str(BENCH / "protocol_cpu.py"), "--json", "--game", "comune", "--games", "3")
    assert rows[0]["game"] == "comune" and rows[0]["moves"] > 3
    assert rows[0]["cpu_us_per_move"] > 0


def test_bot_burst_reports_each_rounds_slowest_reply():
    found = run_json(str(BENCH / "bot_burst.py"), "--json", "--burst", "3", "--rounds", "2",
                     "--workers", "2")  # fmt: skip
    assert isinstance(found, dict) and found["burst"] == 3 and found["workers"] == 2
    assert len(found["slowest_s"]) == 2 and found["worst_s"] == max(found["slowest_s"])
    assert 0 < found["reply_p50_s"] <= found["worst_s"] and found["illegal"] == []
    assert found["met"] == (found["worst_s"] <= found["bound_s"])


def test_pages_renders_every_page_for_a_visitor_and_a_member():
    rows = run_json(str(BENCH / "pages.py"), "--json", "--renders", "3")
    pages = {(row["page"], row["who"]) for row in rows}
    expected = {"/", "/rules", "/leaderboard", *(f"/rules/{g}" for g in ("comune", "kuniumi"))}
    assert {(page, who) for page in expected for who in ("visitor", "member")} <= pages
    assert sum(page.startswith("/games/") for page, _ in pages) == 8  # four games, two readers
    assert all(row["p50_ms"] > 0 and row["bytes"] > 0 for row in rows)


def test_sqlite_commits_measures_both_ways_of_checkpointing():
    found = run_json(str(BENCH / "sqlite_commits.py"), "--json", "--commits", "300")
    assert isinstance(found, dict) and found["commits"] == 300
    ways = found["checkpoints"]
    assert set(ways) == {"in commits", "background thread"}
    for f in ways.values():
        assert 0 < f["p50_ms"] <= f["p99_ms"] <= f["p999_ms"] <= f["max_ms"]
        assert 0 <= f["over_5ms"] <= 300


def test_the_summary_reads_each_benchmark_and_judges_its_targets():
    import run_all

    results = {
        "engines": [
            {"game": "comune", "games_per_s": 900.0, "api_games_per_s": 10.0,
             "ratio_to_c_limit": 1.1, "api_ratio_to_c_limit": 0.011},
            {"game": "kuniumi", "games_per_s": 5000.0, "api_games_per_s": 10.0,
             "ratio_to_c_limit": 2.0, "api_ratio_to_c_limit": 0.009},
        ],
        "hexagone": {"legal_moves": {"max_ms": 12.5}},
        "startup": {"target": 0.5, "rows": [{"command": "play", "median": 0.3,
                                             "meets_target": True}]},
        "pages": [{"page": "/", "who": "visitor", "p50_ms": 0.8, "p99_ms": 6.0}],
        "browser": [{"game": "comune", "dcl_p50_ms": 90.0}],
        "load": {"concurrent_games": 200, "moves_per_s": 99.0, "p99_ms": 80.0,
                 "verify": {"ok": True}},
        "load_http": {"concurrent_games": 200, "moves_per_s": 80.0, "p99_ms": 900.0,
                      "verify": {"ok": True}},
        "adapters": [{"game": "kuniumi", "openspiel_steps_per_s": 61234.0,
                      "openspiel_rl_steps_per_s": 12345.0,
                      "pettingzoo_steps_per_s": 20000.0, "pettingzoo_env_steps_per_s": 50000.0,
                      "observations_per_s": 90000.0}],
        "load_api": {"concurrent_games": 200, "moves_per_s": 90.0, "p99_ms": 60.0,
                     "verify": {"ok": True}},
        "http_path": [{"request": "GET view", "statements_mean": 1.3, "p50_ms": 1.1}],
        "first_visits": [{"page": "/", "ms": 30.0, "kb_gzip": 2.0},
                         {"page": "/stats", "ms": 250.0, "kb_gzip": 5.0}],
        "tournament": {"players": 500, "wait_p99": 1.2, "target_p99": 1.0},
        "bot_burst": {"burst": 12, "level": "medium", "rounds": 5, "worst_s": 0.31,
                      "bound_s": 0.305, "met": False, "illegal": []},
    }  # fmt: skip
    met = {row["figure"]: row["met"] for row in run_all.figures(results)}
    assert met["comune: protocol / C"] is True and met["kuniumi: protocol / C"] is False
    assert met["comune: games/s (fastest; protocol)"] is False  # 900 < 1,000
    assert met["hexagone: reform listing, worst of corpus"] is False
    assert met["pages as visitor: worst p50 (/)"] is True
    assert met["pages as visitor: worst p99 (/)"] is False
    assert met["game page DOMContentLoaded p50, worst (comune)"] is True
    assert met["load, 200 games, moves over sockets: moves/s; p99"] is True
    assert met["load, 200 games, moves over HTTP: moves/s; p99"] is False
    assert met["load, 200 games, API clients: moves/s; p99"] is False  # 90 < 95 moves/s
    assert met["first visit after start, slowest (/stats)"] is False
    assert met["page HTML compressed, largest (/stats)"] is True
    assert "1.30; 1.10 ms" in run_all.table(run_all.figures(results))
    assert met["arena, 500 players: next game after one ends, p99"] is False  # 1.2 s > 1 s
    assert met["12 medium turns at once: slowest reply of 5"] is False  # 310 ms > 305 ms
    assert "1/111" in run_all.table(run_all.figures(results))
    assert "61,234; 12,345; 20,000; 50,000; 90,000" in run_all.table(run_all.figures(results))


def test_adapter_split_reports_the_engine_and_the_rest():
    row = run_json(str(BENCH / "adapter_split.py"), "--json", "--game", "comino", "--games", "2")
    assert row["game"] == "comino" and row["moves_per_game"] == 43
    assert 0 < row["engine_us"] < row["engine_and_listing_us"]
    assert row["openspiel_loop_us"] > 0


def test_adapter_split_times_a_decision_inside_the_loop_and_on_its_own():
    row = run_json(
        str(BENCH / "adapter_split.py"), "--json", "--game", "comino", "--games", "3", "--in-loop"
    )
    assert row["decisions_per_game"] == 22  # one a turn: the deal's draws are chance nodes
    assert row["decision_in_loop_us"] > 0 and row["decision_repeated_us"] > 0


def test_adapter_split_replays_hexagones_games_from_the_blocks_they_were_played_on():
    row = run_json(str(BENCH / "adapter_split.py"), "--json", "--game", "hexagone", "--games", "2")
    assert row["game"] == "hexagone" and row["moves_per_game"] > 10
    assert 0 < row["engine_us"] < row["engine_and_listing_us"]


def test_adapter_floor_replays_the_real_steps_through_openspiels_loop():
    import random

    import pyspiel

    import adapter_floor
    from adapters import random_game

    game = pyspiel.load_game("ludoteca_hexagone", {"players": 2})
    tape = adapter_floor.tapes(game, 1)[0]
    kinds = {player for player, _ in tape}
    assert adapter_floor._CHANCE in kinds and {0, 1} <= kinds  # rolls and both players
    # the loop takes as many steps on the tape as the game had, each with its listing
    assert random_game(adapter_floor.TapeState(game, tape), random.Random(3)) == len(tape) - 1
    rows = run_json(str(BENCH / "adapter_floor.py"), "--json", "--game", "kuniumi",
                    "--seconds", "0.05", "--rounds", "1", "--games", "3")  # fmt: skip
    assert rows[0]["game"] == "kuniumi"
    assert rows[0]["floor_steps_per_s"] > rows[0]["adapter_steps_per_s"] > 0


def test_every_benchmark_option_says_what_it_is_in_help():
    """``python bench/X.py --help`` is how a person learns a script's options: an option
    without ``help=`` shows there as a bare name, with neither its meaning nor its default."""
    import ast

    bare = []
    for script in sorted(BENCH.glob("*.py")):
        for node in ast.walk(ast.parse(script.read_text(), filename=str(script))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"
                and not any(keyword.arg == "help" for keyword in node.keywords)
            ):
                bare.append(f"{script.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not bare, "options without help=:\n" + "\n".join(bare)
