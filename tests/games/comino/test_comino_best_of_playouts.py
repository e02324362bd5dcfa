"""Playouts that play each placement as the best-scoring of k drawn (``best_of``)."""

from __future__ import annotations

import random

import pytest
from comino_playouts import after, assert_each_placement_is_the_best, assert_replays

from ludoteca.bots import make_bot
from ludoteca.bots.base import BotError
from ludoteca.core import get
from ludoteca.games.comino.kernel import playout_from_state


@pytest.mark.parametrize("best_of", [2, 3, 8])
def test_best_of_playouts_are_legal_games_the_engine_scores_alike(best_of):
    for seed in range(12):
        s = after(seed, seed % 9)
        before = s.position()
        log: list[str] = []
        scores = playout_from_state(s, random.Random(seed), log, best_of=best_of)
        assert s.position() == before
        assert_replays(s, log, scores)


def test_each_placement_is_the_best_of_those_drawn():
    """With many draws a placement scores as much as the best legal placement at that turn."""
    s = after(4, 5)
    log: list[str] = []
    playout_from_state(s, random.Random(1), log, best_of=500)
    assert_each_placement_is_the_best(s, log)


def test_best_of_one_is_the_uniform_playout():
    s = after(6, 3)
    for seed in range(5):
        assert playout_from_state(s, random.Random(seed)) == playout_from_state(
            s, random.Random(seed), best_of=1
        )


def test_best_of_playouts_score_more():
    s = after(2, 0)
    rng_u, rng_b = random.Random(7), random.Random(7)
    uniform = sum(sum(playout_from_state(s, rng_u)) for _ in range(300))
    informed = sum(sum(playout_from_state(s, rng_b, best_of=3)) for _ in range(300))
    assert informed > 1.15 * uniform


def test_mcts_with_best_of_plays_comino_and_refuses_other_games():
    s = after(3, 2)
    bot = make_bot("mcts:iterations=200,best_of=2", seed=1)
    before = s.position()
    assert bot.choose(s) in s.legal_moves()
    assert s.position() == before
    with pytest.raises(BotError, match="best_of"):
        make_bot("mcts:iterations=50,best_of=2", seed=1).choose(get("kuniumi").new_state(seed=1))
