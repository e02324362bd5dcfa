"""The Kuniumi evaluation's features, checked against the engine playing the moves."""

from __future__ import annotations

import pytest

from ludoteca.bots.evaluation import evaluate, has_own_evaluation
from ludoteca.core import get
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi.ai import side_features
from tests.bots.helpers import random_positions

GAME = get("kuniumi")
PLAY = [s for s in random_positions(GAME, 1500, seed=8) if s.phase == bits.PLAY]


def _closes_own_group(child, side: int) -> bool:
    empty = bits.FULL & ~(child.land | child.sea)
    mine = child.land if side == bits.LAND else child.sea
    return bits.closed_pieces(mine, empty) != 0


def test_kuniumi_has_its_own_evaluation():
    assert has_own_evaluation(GAME)


@pytest.mark.parametrize("index", range(0, 60))
def test_features_match_the_moves_the_engine_allows(index):
    state = PLAY[index * len(PLAY) // 60]
    side = state.side
    safe, threats = side_features(state, side)
    handing_over = closing = 0
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        mover_closed = _closes_own_group(child, side)
        enemy_closed = _closes_own_group(child, 1 - side)
        closing += mover_closed
        handing_over += enemy_closed
    # a move is unsafe exactly when it closes an enemy group; threats close one of ours
    assert safe == len(state.legal_moves()) - handing_over
    assert threats == closing


def test_values_favour_the_side_with_more_safe_moves_and_threats():
    checked = 0
    for state in PLAY:
        if state.is_over:
            continue
        land = side_features(state, bits.LAND)
        sea = side_features(state, bits.SEA)
        values = evaluate(state)
        land_player = state.player_of(bits.LAND)
        if land[0] > sea[0] + 3 and land[1] >= sea[1] and state.side == bits.LAND:
            assert values[land_player] > 0.5
            checked += 1
        if sea[0] > land[0] + 3 and sea[1] >= land[1] and state.side == bits.SEA:
            assert values[1 - land_player] > 0.5
            checked += 1
    assert checked >= 10


def test_set_up_and_choice_are_neutral():
    state = GAME.new_state()
    assert evaluate(state) == pytest.approx((0.5, 0.5))
