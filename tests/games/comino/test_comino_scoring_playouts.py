"""The ``scoring`` playout policy, Comino's default in the search (see ``comino/ai.py``)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from comino_playouts import GAME, after, assert_replays

from ludoteca.bots import make_bot
from ludoteca.bots.base import Budget
from ludoteca.bots.mcts import MCTSBot
from ludoteca.games.comino import ai as comino_ai
from ludoteca.games.comino.ai import playout
from ludoteca.games.comino.jit import playout_scores, trace_moves
from ludoteca.games.comino.kernel import playout_from_state

DRAWS = comino_ai.SCORING_DRAWS


def _payoffs(scores: tuple[int, int]) -> tuple[float, float]:
    s1, s2 = scores
    return (0.5, 0.5) if s1 == s2 else (1.0, 0.0) if s1 > s2 else (0.0, 1.0)


def test_the_search_plays_out_by_scoring_by_default():
    knowledge = GAME.search_knowledge()
    assert knowledge is comino_ai.KNOWLEDGE
    assert knowledge.playout_policy == "scoring"
    assert knowledge.playout_policy in knowledge.playout_policies
    assert DRAWS > 1


@pytest.mark.parametrize("turns", [0, 3, 9, 17, 21])
def test_scoring_playouts_are_the_kernel_s_best_of_draws_and_legal_games(turns):
    """A ``scoring`` playout is the compiled kernel's playout taking the best of
    SCORING_DRAWS, draw for draw; that playout's moves replay through the engine to the
    scores it reports, and the state is left as it was."""
    for seed in range(6):
        s = after(seed, turns)
        before = s.position()
        got = playout(s, random.Random(seed), policy="scoring")
        trace = np.zeros(44, dtype=np.int64)
        scores = playout_scores(s, random.Random(seed), best_of=DRAWS, trace=trace)
        assert scores is not None
        assert got == _payoffs(scores)
        assert s.position() == before
        assert_replays(s, trace_moves(trace, 22 - s.turns), scores)


def test_an_explicit_best_of_wins_over_the_policy_and_uniform_is_unchanged():
    s = after(5, 4)
    for seed in range(8):
        two = playout_scores(s, random.Random(seed), best_of=2)
        one = playout_scores(s, random.Random(seed))
        assert two is not None and one is not None
        assert playout(s, random.Random(seed), best_of=2, policy="scoring") == _payoffs(two)
        assert playout(s, random.Random(seed), policy="uniform") == _payoffs(one)


def test_scoring_playouts_score_more_than_uniform_ones():
    s = after(2, 0)
    uniform = scoring = 0
    for seed in range(200):
        uniform += sum(playout_from_state(s, random.Random(seed)))
        scoring += sum(playout_from_state(s, random.Random(seed), best_of=DRAWS))
    assert scoring > 1.3 * uniform


def test_amaf_is_accepted_and_left_empty_and_unknown_policies_are_refused():
    """Comino keeps no move statistics: a playout asked for them reports none and plays
    the same game."""
    s = after(3, 6)
    amaf: list[tuple[int, int]] = []
    assert playout(s, random.Random(9), policy="scoring", amaf=amaf) == playout(
        s, random.Random(9), policy="scoring"
    )
    assert amaf == []
    with pytest.raises(ValueError, match="grow"):
        playout(s, random.Random(1), policy="grow")


def test_the_default_search_asks_for_scoring_playouts(monkeypatch):
    asked: list[tuple[int, str]] = []
    real = comino_ai.playout

    def spy(state, rng, *, best_of=1, policy="uniform", amaf=None):
        asked.append((best_of, policy))
        return real(state, rng, best_of=best_of, policy=policy, amaf=amaf)

    spied = dataclasses.replace(comino_ai.KNOWLEDGE, playout=spy)
    monkeypatch.setattr(comino_ai, "KNOWLEDGE", spied)
    s = after(4, 2)
    MCTSBot(seed=1).search(s, Budget(iterations=40))
    assert asked and set(asked) == {(1, "scoring")}
    asked.clear()
    make_bot("mcts:iterations=40,playout=uniform", seed=1).choose(s)
    assert asked and set(asked) == {(1, "uniform")}
    asked.clear()
    make_bot("mcts:iterations=40,best_of=2", seed=1).choose(s)
    assert asked and set(asked) == {(2, "uniform")}


def test_a_scoring_search_is_seeded_and_plays_legal_moves():
    def line(seed: int) -> list[str]:
        bot = make_bot("mcts:iterations=150", seed=seed)
        state = after(8, 0)
        out = []
        for _ in range(3):
            move = bot.choose(state)
            assert move in state.legal_moves()
            out.append(state.move_to_str(move))
            state.play(move)
            state.play(random.Random(len(out)).choice(state.legal_moves()))
        return out

    assert line(5) == line(5)
