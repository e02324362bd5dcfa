"""The Hexagone look ahead and playout policy, checked against the engine playing the moves."""

from __future__ import annotations

import random

import pytest

from ludoteca.bots.base import Budget
from ludoteca.bots.evaluation import MARGIN
from ludoteca.bots.hexagone_lookahead import (
    capture_swaps,
    lookahead_value,
    playout_move,
    roll_prospects,
    turn_prospects,
)
from ludoteca.bots.mcts import MCTSBot, search_value_for
from ludoteca.core import get
from tests.bots.helpers import random_positions

GAME = get("hexagone", players=2)
POSITIONS = random_positions(GAME, 1200, seed=5)
SWAPS = [s for s in POSITIONS if s.phase == "swap"]


def _captured(state) -> int:
    return sum(map(sum, state.captured))


def _engine_captures(state) -> dict:
    before = _captured(state)
    out = {}
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        out[move] = _captured(child) - before
    return out


def test_the_search_values_hexagone_by_its_look_ahead():
    assert search_value_for("hexagone") is lookahead_value


@pytest.mark.parametrize("index", range(40))
def test_capture_swaps_are_the_largest_captures_the_engine_allows(index):
    state = SWAPS[index * len(SWAPS) // 40]
    real = _engine_captures(state)
    best = max(real.values())
    found, swaps = capture_swaps(dict(state.cells), *state.dice)
    assert found == best
    assert set(swaps) == ({m for m, v in real.items() if v == best} if best else set())


def test_roll_prospects_follow_the_best_capture_of_each_roll():
    # an estimate (a group split by the piece leaving it is not seen), close on average
    errors = []
    for state in POSITIONS[::10]:
        cells = state.cells
        counts = [list(cells.values()).count(k) for k in range(6)]
        rolls = [(a, b) for a in range(6) for b in range(a, 6) if counts[a] or counts[b]]
        weight = [1 if a == b else 2 for a, b in rolls]
        exact = sum(
            w * capture_swaps(dict(cells), a, b)[0] for w, (a, b) in zip(weight, rolls, strict=True)
        )
        exact /= sum(weight)
        expected, chance = roll_prospects(cells)
        assert 0.0 <= chance <= 1.0
        errors.append(abs(exact - expected))
    assert sum(errors) / len(errors) < 0.3


def test_value_is_a_share_per_player_inside_the_margin():
    for players in (2, 3, 4):
        for state in random_positions(get("hexagone", players=players), 60, seed=players):
            values = lookahead_value(state)
            assert len(values) == players
            assert sum(values) == pytest.approx(1.0)
            assert all(MARGIN - 1e-12 <= v <= 1 - MARGIN + 1e-12 for v in values)


def test_value_prefers_the_leader_and_the_capture_in_reach():
    state = SWAPS[0].clone()
    before = lookahead_value(state)
    state.captured[0][0] += 3
    assert lookahead_value(state)[0] > before[0]
    player, mine, after = turn_prospects(SWAPS[0])
    assert player == SWAPS[0].player and mine >= 0 and after >= 0


def test_solo_value_is_the_score():
    state = random_positions(get("hexagone"), 30, seed=2)[-1]
    assert lookahead_value(state) == (float(_captured(state)),)


def test_playout_policy_captures_when_it_can_and_plays_legal_moves():
    rng = random.Random(3)
    for state in POSITIONS[:300]:
        before = state.position()
        move = playout_move(state, rng)
        assert move in state.legal_moves()
        assert state.position() == before
        if state.phase == "swap":
            real = _engine_captures(state)
            assert real[move] == max(real.values())


def test_search_with_priors_leaves_the_state_alone_and_repeats_under_a_seed():
    state = SWAPS[5]
    before = state.position()
    moves = {MCTSBot(seed=4, reuse=0).choose(state, iterations=150) for _ in range(2)}
    assert state.position() == before
    assert len(moves) == 1
    root = MCTSBot(seed=4).search(state, Budget(iterations=80))
    assert root.priors is not None and set(root.priors) == set(state.legal_moves())
