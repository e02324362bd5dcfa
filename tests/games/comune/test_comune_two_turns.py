"""The two-turn count (what Comune's puzzles are proven with) against the engine itself: every
turn played, every answer to it played, and the scores read off the engine."""

from __future__ import annotations

import random

import pytest

from ludoteca.core.registry import get as get_game
from ludoteca.games.comune.two_turns import count_turns


def _by_the_engine(state) -> dict[int, tuple[int, int]]:
    """Each turn's score for the mover and the opponent's best score after any answer."""
    me = state.to_move
    out = {}
    for move in state.legal_moves():
        after = state.clone()
        after.play(move)
        best = after.scores()[1 - me]
        for reply in after.legal_moves():
            answered = after.clone()
            answered.play(reply)
            best = max(best, answered.scores()[1 - me])
        out[move] = (after.scores()[me], best)
    return out


def _positions(seed: int, most_turns: int) -> list:
    """Positions of a random game with few enough turns to play out every answer."""
    rng = random.Random(seed)
    state = get_game("comune").new_state(seed=seed)
    found = []
    while not state.is_over:
        if len(state.legal_moves()) <= most_turns:
            found.append(state.clone())
        state.play(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("seed", [3, 8])
def test_the_two_turn_count_is_the_engines(seed):
    positions = _positions(seed, 90)
    assert positions
    for state in positions[:: max(1, len(positions) // 4)]:
        counted = count_turns(state)
        assert {c.move: (c.score, c.reply_score) for c in counted} == _by_the_engine(state)
        for c in counted:  # the stored answer reaches the score it is counted with
            answered = state.clone()
            answered.play(c.move)
            if not answered.is_over:
                answered.play(c.reply)
            assert answered.scores()[1 - state.to_move] == c.reply_score


def test_a_second_pass_ends_the_game_so_no_answer_counts():
    """After one pass, passing ends the game: the opponent gets no answer to score with (an
    answer would give Light its two missing angles: 1 x 1 x 1)."""
    state = get_game("comune").from_position("5/6/7/8/3Hh4/8/7/6/5 D 1")
    passing = next(c for c in count_turns(state) if c.move == 0)
    assert passing.reply_score == 0 and passing.score == 0
    placing = next(c for c in count_turns(state) if c.move != 0)
    assert placing.reply_score == 1
