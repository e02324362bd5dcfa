"""The analysis report (each side's expected result, the moves searched most, the best line,
a chance node's outcomes) and the review's marks and thresholds."""

from __future__ import annotations

import random

import pytest

from ludoteca.bots import position_analysis as analysis
from ludoteca.core.registry import get
from ludoteca.web.analysis.review import kind_of, marks_for


def played(game: str, plies: int, **options):
    state = get(game, **options).new_state(seed=3)
    rng = random.Random(1)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize(
    "game, options", [("kuniumi", {}), ("comune", {}), ("hexagone", {"players": 2})]
)
def test_a_report_names_values_moves_and_a_line(game, options):
    state = played(game, 9, **options)
    key = f"t-{game}"
    first = analysis.step(key, game, options, state.position(), 0.3)
    second = analysis.step(key, game, options, state.position(), 0.3)
    assert "error" not in second
    assert second["iterations"] > first["iterations"]  # one tree, grown
    assert abs(sum(second["values"]) - 1) < 0.05  # shares of one game
    assert second["top"] and second["pv"]
    mover_moves = {state.move_to_str(m) for m in state.legal_moves()}
    assert {m["text"] for m in second["top"]} <= mover_moves
    assert second["pv"][0] == second["top"][0]["text"] or second["top"][0]["proven"]
    analysis.forget(key)


def test_a_chance_node_lists_its_outcomes():
    state = get("comino").new_state(seed=1)  # the deal
    report = analysis.step("t-deal", "comino", {}, state.position(), 0.3)
    assert report["chance"] and not report["top"]
    assert abs(sum(c["probability"] for c in report["chance"]) - 1) < 1e-3  # rounded


def test_a_bad_position_is_an_error_not_a_crash():
    assert "error" in analysis.step("t-bad", "kuniumi", {}, "nonsense", 0.1)


def test_thresholds_and_marks():
    assert kind_of(0.35) == "blunder" and kind_of(0.3) == "blunder"
    assert kind_of(0.2) == "mistake" and kind_of(0.1) == "inaccuracy" and kind_of(0.05) is None
    values = [[0.5, 0.5], [0.5, 0.5], [0.55, 0.45], [0.1, 0.9], [0.1, 0.9]]
    movers = [-1, 1, 0, 1]
    marks = marks_for(values, movers, ["toss", "b2", "c3", "a1"])
    assert marks == [{"ply": 3, "player": 0, "move": "c3", "kind": "blunder", "drop": 0.45}]
