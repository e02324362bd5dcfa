"""MCTS weighing playouts by the score margin (``margin=W``), in games that keep score."""

from __future__ import annotations

import math
import random

import pytest

from ludoteca.bots.mcts import MARGIN_SCALES, MCTSBot
from ludoteca.core import get
from ludoteca.core.table import resolve_chance


def _comino_after_deal(seed: int):
    state = get("comino").new_state(seed=seed)
    resolve_chance(state, random.Random(seed))
    return state


def test_scored_playouts_agree_with_plain_ones():
    """Same generator, same playout: the scores' winner is the plain playout's payoff."""
    state = _comino_after_deal(3)
    for seed in range(30):
        scores = state.clone().fast_playout_scores(random.Random(seed))
        payoffs = state.clone().fast_playout(random.Random(seed))
        best = max(scores)
        expected = tuple(
            (1.0 if scores.count(best) == 1 else 0.5) if s == best else 0.0 for s in scores
        )
        assert payoffs == expected
        assert all(s >= 0 for s in scores)


def test_margin_value_blends_result_and_lead(monkeypatch):
    state = _comino_after_deal(4)
    bot = MCTSBot(seed=1, margin=0.4)
    bot._margin = bot.margin
    monkeypatch.setattr(type(state), "fast_playout_scores", lambda self, rng: (40.0, 25.0))
    value = bot._margin_value(state)
    scale = MARGIN_SCALES["comino"]
    lead = 0.5 * (1 + math.tanh(15 / scale))
    assert value == pytest.approx((0.6 + 0.4 * lead, 0.4 * (1 - lead)))
    assert sum(value) == pytest.approx(1.0)
    monkeypatch.setattr(type(state), "fast_playout_scores", lambda self, rng: (30.0, 30.0))
    assert bot._margin_value(state) == pytest.approx((0.5, 0.5))


def test_margin_changes_what_the_search_learns():
    """The same search with and without the margin: the values at the root differ, and each
    child's mean stays a share of the game (the two players' means sum to 1)."""
    state = _comino_after_deal(5)
    plain = MCTSBot(seed=2, iterations=400).search(state, _budget(400))
    scored = MCTSBot(seed=2, iterations=400, margin=0.5).search(state, _budget(400))
    means_plain = [ch.mean(0) for ch in plain.children]
    means_scored = [ch.mean(0) for ch in scored.children]
    assert means_plain != means_scored
    for child in scored.children:
        assert child.mean(0) + child.mean(1) == pytest.approx(1.0)
    # results alone sum to halves (win 1, draw 0.5, loss 0); margins do not
    assert all(float(2 * ch.totals[0]).is_integer() for ch in plain.children)
    assert not all(float(2 * ch.totals[0]).is_integer() for ch in scored.children)


def test_margin_is_ignored_where_the_game_keeps_no_playout_scores():
    state = get("kuniumi").new_state(seed=1)
    bot = MCTSBot(seed=1, iterations=200, margin=0.5)
    assert bot.choose(state) in state.legal_moves()
    assert bot._margin == 0.0


def _budget(iterations: int):
    from ludoteca.bots.base import Budget

    return Budget(iterations=iterations)
