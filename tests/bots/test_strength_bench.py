"""``bench/strength.py``: seats alternate, the summary has its figures, and the same seed
gives the same games from one run to the next."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ludoteca.core.registry import get

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(out.stdout)


def test_a_small_match_is_reproducible_and_summarised():
    common = [
        "kuniumi",
        "--games",
        "4",
        "--ours",
        "mcts:iterations=20",
        "--theirs-simulations",
        "20",
        "--seed",
        "5",
    ]
    one = run(*common, "--jobs", "1")
    two = run(*common, "--jobs", "1")
    parallel = run(*common, "--jobs", "2")
    assert sorted(r["index"] for r in parallel["results"]) == [0, 1, 2, 3]
    assert one["games"] == 4 == one["wins"] + one["draws"] + one["losses"]
    assert [r["ours_seat"] for r in one["results"]] == [0, 1, 0, 1]
    by_seat = one["by_seat"]
    assert {seat: v["games"] for seat, v in by_seat.items()} == {"0": 2, "1": 2}
    assert by_seat["0"]["score"] + by_seat["1"]["score"] == 2 * one["score"]
    low, high = one["interval95"]
    assert 0 <= low <= one["score"] <= high <= 1
    keep = ("index", "ours_seat", "score", "moves", "record")
    assert [{k: r[k] for k in keep} for r in one["results"]] == [
        {k: r[k] for k in keep} for r in two["results"]
    ]
    for r in one["results"]:  # each record replays, in the notation, to the game's end
        state = get("kuniumi").new_state()
        for text in r["record"]:
            state.play(text)
        assert state.is_over
        payoff = state.result.payoffs()[r["ours_seat"]]
        assert r["score"] == payoff


def test_a_bad_bot_spec_is_refused_in_one_line():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), "kuniumi", "--ours", "nobody"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "nobody" in out.stderr


def test_one_seat_plays_the_same_games_as_the_alternating_run():
    common = ["kuniumi", "--ours", "mcts:iterations=20", "--theirs-simulations", "20"]
    second = run(*common, "--games", "2", "--seat", "2", "--seed", "5")
    assert [r["index"] for r in second["results"]] == [1, 3]
    assert {r["ours_seat"] for r in second["results"]} == {1}
    both = run(*common, "--games", "4", "--seed", "5")
    keep = ("index", "score", "moves")
    assert [{k: r[k] for k in keep} for r in second["results"]] == [
        {k: r[k] for k in keep} for r in both["results"] if r["index"] in (1, 3)
    ]


def test_a_stopped_run_is_finished_with_the_games_it_had_left():
    common = ["kuniumi", "--ours", "mcts:iterations=20", "--theirs-simulations", "20"]
    rest = run(*common, "--first", "3", "--games", "2", "--seed", "5")
    assert [r["index"] for r in rest["results"]] == [2, 3]
    assert rest["first_game"] == 3
    whole = run(*common, "--games", "4", "--seed", "5")
    keep = ("index", "ours_seat", "score", "moves")
    assert [{k: r[k] for k in keep} for r in rest["results"]] == [
        {k: r[k] for k in keep} for r in whole["results"] if r["index"] >= 2
    ]
    second_seat = run(*common, "--first", "2", "--games", "1", "--seat", "2", "--seed", "5")
    assert [r["index"] for r in second_seat["results"]] == [3]


def test_equal_time_is_calibrated_over_a_whole_game(monkeypatch):
    """OpenSpiel's simulations are timed at positions spread over a game, not on the start
    position alone, where each costs several times what it costs later."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import strength
    finally:
        sys.path.remove(str(ROOT / "bench"))
    timed: list[int] = []
    real = strength._their_bot

    def counting(game, simulations, seed):
        bot = real(game, simulations, seed)

        class Timed:
            def step(self, state):
                timed.append(len(state.history()))
                return bot.step(state)

        return Timed()

    monkeypatch.setattr(strength, "_their_bot", counting)
    simulations = strength.calibrate("kuniumi", 1.0, probe=20, samples=4)
    assert simulations >= 1
    assert len(timed) == 4 and timed == sorted(timed)
    assert timed[0] < 2 and timed[-1] >= timed[0] + 6, timed
