"""The Hexagone evaluation: a lead counts for more as fewer pieces are left to capture."""

from __future__ import annotations

import random

import pytest

from ludoteca.bots.evaluation import evaluate, generic, has_own_evaluation
from ludoteca.core import get
from ludoteca.games.hexagone.kernel import random_move
from tests.bots.helpers import random_positions


def _with_captures(players: int, captured: list[int], *, removed: int = 0, seed: int = 3):
    """A fresh block with ``captured[i]`` pieces in player i's pile and ``removed`` pieces
    taken out of the block's counts (the evaluation reads only piles and counts)."""
    state = get("hexagone", players=players).new_state(seed=seed)
    for player, count in enumerate(captured):
        state.captured[player][0] = count
    counts = state.counts
    for colour in range(len(counts)):
        take = min(removed, counts[colour])
        counts[colour] -= take
        removed -= take
    return state


def test_hexagone_has_its_own_evaluation():
    assert has_own_evaluation(get("hexagone", players=2))


def test_values_are_shares_inside_the_heuristic_range():
    for state in random_positions(get("hexagone", players=3), 200, seed=5):
        values = evaluate(state)
        assert sum(values) == pytest.approx(1.0)
        if not state.is_over:
            assert all(0.0 < v < 1.0 for v in values)


def test_even_scores_are_even():
    assert evaluate(_with_captures(2, [6, 6])) == pytest.approx((0.5, 0.5))


def test_every_piece_of_lead_counts_even_far_ahead():
    values = [evaluate(_with_captures(2, [lead, 0]))[0] for lead in range(0, 25, 3)]
    assert values == sorted(values) and len(set(values)) == len(values)
    # shares of scores flatten a lead early in the game; the rest of the game still matters
    for lead in (6, 9, 12):
        before, after = _with_captures(2, [lead, 0]), _with_captures(2, [lead + 3, 0])
        gain = evaluate(after)[0] - evaluate(before)[0]
        assert gain > 2 * (generic(after)[0] - generic(before)[0])


def test_the_same_lead_is_worth_more_with_fewer_pieces_left():
    early = evaluate(_with_captures(2, [6, 3]))[0]
    late = evaluate(_with_captures(2, [6, 3], removed=40))[0]
    assert 0.5 < early < late


def test_with_more_players_the_lead_is_over_the_best_other():
    ahead, second, third = evaluate(_with_captures(3, [9, 6, 0]))
    assert ahead > second > third
    assert evaluate(_with_captures(3, [9, 9, 0]))[0] == pytest.approx(
        evaluate(_with_captures(3, [9, 9, 0]))[1]
    )


def test_finished_games_are_scored_by_their_result():
    rng = random.Random(6)
    game = get("hexagone", players=2)
    for _ in range(3):
        state = game.new_state(seed=rng.randrange(2**31))
        while not state.is_over:
            state.play(random_move(state, rng))
        assert evaluate(state) == state.result.payoffs()
