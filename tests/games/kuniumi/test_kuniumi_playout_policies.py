"""Kuniumi's playout policies: which God moves the kernel draws from, checked by the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.games.kuniumi import Kuniumi
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi.ai import playout
from ludoteca.games.kuniumi.jit import new_trace
from ludoteca.games.kuniumi.state import squares_of

GAME = Kuniumi()

WIN_IN_ONE = "1s2s1/s2ll1/3ll1/ss2ls/3Es1/4Sl play land sea"
"""Land to move can close a Land group of its own at once."""
TRAPS = "6/ll1lEl/3sss/1s4/2s1sS/l4l play sea sea"
"""Sea to move has a move that ends the game at once, and one that lets Land win at once."""


def targets(state, policy: int) -> set[int]:
    board = bits.policy_targets(
        state.land, state.sea, state.earth_god, state.sea_god, state.side, policy
    )
    return set(squares_of(board))


def after(state, square: int):
    """The state after the side to move sends its God to ``square``."""
    god = state.earth_god if state.side == bits.LAND else state.sea_god
    child = state.clone()
    child.play(bits.MOVE + bits.SQUARES * bits.square_of(god) + square)
    return child


def wins_at_once(state) -> bool:
    """Whether the side to move has a move that wins the game at once (by the engine)."""
    me = state.to_move
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        if child.result is not None and child.result.winners == (me,):
            return True
    return False


def test_decisive_playouts_take_a_win_in_one():
    state = GAME.from_position(WIN_IN_ONE)
    assert len(targets(state, bits.UNIFORM)) > 1
    (win,) = targets(state, bits.DECISIVE)
    child = after(state, win)
    assert child.result is not None and child.result.winners == (state.to_move,)
    assert targets(state, bits.WARY) == {win}


def test_decisive_playouts_avoid_ending_the_game_and_wary_ones_a_win_in_one_given_away():
    state = GAME.from_position(TRAPS)
    every = targets(state, bits.UNIFORM)
    decisive = targets(state, bits.DECISIVE)
    wary = targets(state, bits.WARY)
    assert wary < decisive < every
    for square in every - decisive:  # by the engine: the game ends, not won by the mover
        child = after(state, square)
        assert child.is_over and child.result.winners != (state.to_move,)
    for square in decisive:
        assert not after(state, square).is_over
    for square in decisive - wary:  # by the engine: the opponent then wins at once
        assert wins_at_once(after(state, square))
    for square in wary:
        assert not wins_at_once(after(state, square))


@pytest.mark.parametrize("policy", ["decisive", "wary"])
def test_kernel_policy_playouts_are_the_python_ones_and_legal(k, policy):
    code = {"decisive": bits.DECISIVE, "wary": bits.WARY}[policy]
    rng = random.Random(8)
    for position in (TRAPS, WIN_IN_ONE, "6/6/2S3/2E3/6/ll2ss play land land", "6/6/6/6/6/6 setup"):
        state = GAME.from_position(position)
        args = (state.land, state.sea, state.earth_god, state.sea_god)
        args += (state.phase, state.first, state.side)
        for _ in range(10):
            seed = k.rng_seed(rng.getrandbits(32))
            trace, py_trace = new_trace(), new_trace()
            winner, plies, s = k.playout(*args, seed, trace, code)
            assert bits.playout(*args, seed, py_trace, code) == (winner, plies, s)
            assert np.array_equal(trace, py_trace)
            replay = state.clone()
            for action in trace[:plies]:
                replay.play(int(action))
            assert replay.is_over
            assert replay.result.winners == (() if winner == bits.DRAW else (winner,))


def test_policy_playouts_win_a_won_position_every_time():
    state = GAME.from_position(WIN_IN_ONE)
    me = state.to_move
    for policy in ("decisive", "wary"):
        assert all(playout(state, random.Random(s), policy=policy)[me] == 1.0 for s in range(20))
    uniform = [playout(state, random.Random(s))[me] for s in range(40)]
    assert min(uniform) < 1.0


def test_an_unknown_policy_is_refused():
    with pytest.raises(ValueError):
        playout(GAME.from_position(TRAPS), random.Random(0), policy="greedy")
