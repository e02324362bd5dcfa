"""The compiled random-playout kernel (:mod:`ludoteca.games.hexagone.jit`) against the engine.

Kernel games are traced move by move and replayed through the engine's protocol, where
every move is checked in full: a kernel move the rules forbid fails the replay, and so does
a game the kernel ends differently. The kernel's start blocks are checked against the setup
rules, and its draws against the protocol's uniform random policy on fixed positions.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hexagone_support import line, load, position
from test_hexagone_setup import assert_setup_rules, gaps

import ludoteca.core as core
from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.protocol import CHANCE
from ludoteca.games.hexagone import flat, jit
from ludoteca.games.hexagone.ai import playout
from ludoteca.games.hexagone.geometry import coords
from ludoteca.games.hexagone.kernel import random_move
from ludoteca.games.hexagone.notation import COLOURS, SWAP
from ludoteca.games.hexagone.state import (
    REASON_NO_TRIPLE,
    REASON_REFORM,
    REASON_SMALL,
    REASON_SOLO,
    REASON_STALE,
    SOLO_ROLLS,
    HexagoneState,
)

REASONS = {
    flat.REASON_SMALL: REASON_SMALL,
    flat.REASON_NO_TRIPLE: REASON_NO_TRIPLE,
    flat.REASON_STALE: REASON_STALE,
    flat.REASON_SOLO: REASON_SOLO,
    flat.REASON_REFORM: REASON_REFORM,
}


@pytest.fixture(scope="module")
def kernel():
    k = jit.compiled()
    g = jit.new_array()
    g[flat.SC + flat.TRACE_CAP] = jit.TRACE_MOVES
    return k, g, jit.new_trace()


def kernel_start(k, g, players: int, gaps_: bool, seed: int) -> HexagoneState:
    """A kernel game's start block, drawn from ``seed``, as an engine state."""
    k.seed(g, seed)
    assert k.new_game(g, players, int(gaps_))
    game = core.get("hexagone", players=players, gaps=gaps_)
    return HexagoneState(
        game,
        jit.cells_of(g),
        captured=jit.captured_of(g),
        rolls_left=SOLO_ROLLS if players == 1 else None,
    )


def replay(state: HexagoneState, moves: list[tuple], g) -> None:
    """Play ``moves`` through the protocol (each checked in full) and compare the end."""
    for i, move in enumerate(moves):
        assert not state.is_over, f"the engine's game ended before move {i}"
        state.play(move)
    assert state.is_over, "the kernel ended a game the engine goes on with"
    assert state.captured == jit.captured_of(g)
    assert state.cells == jit.cells_of(g)
    assert state.pool == jit.pool_of(g)
    assert state.reason == REASONS[int(g[flat.SC + flat.REASON])]
    assert state.since == g[flat.SC + flat.SINCE]


@pytest.mark.parametrize(("players", "gaps_"), [(1, False), (2, False), (3, False), (4, False)])
def test_kernel_games_replay_move_by_move_through_the_engine(kernel, players, gaps_):
    k, g, trace = kernel
    reasons = Counter()
    for seed in range(60 if players == 1 else 25):
        state = kernel_start(k, g, players, gaps_, 7919 * players + seed)
        plies = k.playout(g, trace)
        assert 0 < plies <= jit.TRACE_MOVES
        replay(state, jit.traced_moves(trace, plies), g)
        reasons[state.reason] += 1
    if players == 2:  # the common ends all occur in a handful of two-player games
        assert reasons[REASON_SMALL] and reasons[REASON_STALE], reasons


@pytest.mark.parametrize("players", [2, 3])
def test_kernel_games_with_gaps_replay_through_the_engine(kernel, players):
    k, g, trace = kernel
    for seed in range(8):
        state = kernel_start(k, g, players, True, seed)
        plies = k.playout(g, trace)
        replay(state, jit.traced_moves(trace, plies), g)


def test_kernel_games_from_positions_of_every_phase_replay_through_the_engine(kernel):
    """The kernel loaded with an engine position (what ``fast_playout`` does) plays on by the
    rules: positions in the middle of turns, choices of main block and reforms included."""
    k, g, trace = kernel
    rng = random.Random(11)
    phases = Counter()
    for seed in range(24):
        state = core.get("hexagone", players=1 + seed % 4).new_state(seed=seed)
        while not state.is_over:
            if rng.random() < 0.08 or state.phase in ("main", "reform"):
                phases[state.phase] += 1
                jit.load(g, state)
                k.seed(g, rng.getrandbits(32))
                plies = k.playout(g, trace)
                replay(state.clone(), jit.traced_moves(trace, plies), g)
            state.apply(random_move(state, rng))
    assert set(phases) == {"roll", "swap", "second", "main", "reform"}, phases


def test_the_replay_refuses_a_move_the_rules_forbid(kernel):
    """The replay above can fail: the first swap of a kernel game moved to two pieces of one
    colour is refused by the engine."""
    k, g, trace = kernel
    state = kernel_start(k, g, 2, False, 5)
    plies = k.playout(g, trace)
    moves = jit.traced_moves(trace, plies)
    i = next(i for i, m in enumerate(moves) if m[0] == SWAP)
    same = sorted(c for c, colour in state.cells.items() if colour == state.cells[moves[i][1]])
    moves[i] = (SWAP, same[0], same[1])
    with pytest.raises(IllegalMoveError):
        replay(state, moves, g)


def to_pairs(cells: dict[int, int]) -> dict[tuple[int, int], str]:
    return {coords(c): COLOURS[k] for c, k in cells.items()}


@pytest.mark.parametrize(("players", "gaps_"), [(2, False), (4, False), (2, True)])
def test_kernel_start_blocks_obey_the_setup_rules(kernel, players, gaps_):
    k, g, _ = kernel
    for seed in range(40):
        cells = to_pairs(kernel_start(k, g, players, gaps_, seed).cells)
        assert_setup_rules(cells)
        expected = "ROYGBPW" * 6 if players < 4 else "ROYGBP" * 6 + "W" * 5
        assert sorted(cells.values()) == sorted(expected)
        if gaps_:
            assert gaps(cells), "a block with gaps was asked for"
        else:
            assert gaps(cells) == [], "blocks are compact by default"
    if players == 4:
        assert jit.captured_of(g)[3] == [0, 0, 0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    ("players", "gaps_"), [(1, False), (2, False), (3, False), (4, False), (2, True)]
)
def test_the_adapters_start_blocks_are_the_kernels_and_obey_the_setup_rules(kernel, players, gaps_):
    """The research adapters start their games from :func:`.jit.start_state`: the kernel's
    block for the seed, in one call, as an engine state ready to play."""
    k, g, _ = kernel
    game = core.get("hexagone", players=players, gaps=gaps_)
    for seed in range(25):
        state = jit.start_state(game, seed)
        drawn = kernel_start(k, g, players, gaps_, seed)
        assert state.cells == drawn.cells and state.captured == drawn.captured
        assert state.position() == drawn.position()
        assert_setup_rules(to_pairs(state.cells))
        assert (gaps(to_pairs(state.cells)) != []) == gaps_
        assert state.rolls_left == (SOLO_ROLLS if players == 1 else None)
        assert state.to_move == CHANCE and state.chance_outcomes()  # the first roll
    if players == 4:
        assert state.captured[3] == [0, 0, 0, 0, 0, 0, 1]


def test_a_start_block_is_the_same_from_the_plain_functions():
    """The kernel's plain functions draw the block its compiled ones draw, so a seed's
    start does not depend on whether numba compiled them."""
    plain = np.zeros(flat.size(), dtype=np.int64)
    flat.init(plain)
    compiled = jit.new_array()
    for seed in (0, 1, 12345):
        a, b = np.zeros(84, dtype=np.int64), np.zeros(84, dtype=np.int64)
        n = flat.start_block(plain, seed, 2, 0, a)
        assert n == 42 and jit.compiled().start_block(compiled, seed, 2, 0, b) == n
        assert a.tolist() == b.tolist()


def first_moves(k, g, trace, state, draws: int, seed: int) -> Counter:
    """The kernel's first move from ``state``, ``draws`` times."""
    seen: Counter = Counter()
    g[flat.SC + flat.TRACE_CAP] = 1
    try:
        for i in range(draws):
            jit.load(g, state)
            k.seed(g, seed * 1_000_003 + i)
            assert k.step(g, trace, 0) == 1
            seen[jit.traced_moves(trace, 1)[0]] += 1
    finally:
        g[flat.SC + flat.TRACE_CAP] = jit.TRACE_MOVES
    return seen


def test_kernel_placements_are_uniform_over_the_legal_ones(kernel):
    # pool R G next to O R O R O R O R Y: four legal placements among sixteen allowed ones
    k, g, trace = kernel
    state = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1))
    legal = state.legal_moves()
    seen = first_moves(k, g, trace, state, 2000, 1)
    assert set(seen) == set(legal)
    assert all(400 <= c <= 600 for c in seen.values()), seen


@pytest.mark.parametrize("dice", ["RG", "RO", "BB"])
def test_kernel_swaps_are_uniform_over_the_legal_ones(kernel, dice):
    k, g, trace = kernel
    cells = {**line("ROYGBPWROYGBR"), **line("GRBOYWP", r=1, q0=-1)}
    state = load(position(cells, phase="swap", dice=dice))
    legal = state.legal_moves()
    seen = first_moves(k, g, trace, state, 600 * len(legal), 2)
    assert set(seen) == set(legal)
    # each swap expects 600 draws; 4.5 standard deviations either side
    assert all(490 <= c <= 710 for c in seen.values()), sorted(seen.values())


def test_kernel_rolls_follow_the_chance_outcomes(kernel):
    k, g, trace = kernel
    state = load(position(line("YGBPWYGBPWYG")))  # no R, no O
    n = 20000
    seen = first_moves(k, g, trace, state, n, 3)
    for move, p in state.chance_outcomes():
        assert abs(seen[move] / n - p) < 0.012, (move, seen[move] / n, p)
    assert sum(seen.values()) == n and len(seen) == len(state.chance_outcomes())


def test_kernel_second_roll_and_main_block_choices_are_even(kernel):
    k, g, trace = kernel
    second = load(position(line("ROYGBPWROYGBR"), phase="second"))
    seen = first_moves(k, g, trace, second, 2000, 4)
    assert set(seen) == {(2,), (3,)} and all(900 <= c <= 1100 for c in seen.values()), seen
    # two sections of four, both can be reformed: the mover's choice, half and half
    split = load(
        position({**line("ROYG", r=0), **line("GYOR", r=4)}, phase="main", rolled=1), players=2
    )
    choices = split.legal_moves()
    assert len(choices) == 2
    seen = first_moves(k, g, trace, split, 2000, 5)
    assert set(seen) == set(choices) and all(900 <= c <= 1100 for c in seen.values()), seen


def test_fast_playout_uses_the_kernel_and_leaves_the_state_alone():
    state = core.get("hexagone", players=3).new_state(seed=8)
    before = state.position()
    payoffs = playout(state, random.Random(2))
    assert len(payoffs) == 3 and abs(sum(payoffs) - 1) < 1e-9
    assert state.position() == before
    assert playout(state, random.Random(2)) == payoffs  # seeded by the caller's rng


def test_fast_playout_of_sections_far_apart_falls_back_to_the_engine():
    """A position written by hand may put its sections farther apart than the grid holds;
    the playout then runs on the engine instead of writing outside the grid."""
    text = position({**line("ROYG", r=0), **line("GYOR", r=500)}, phase="main", rolled=1)
    state = load(text, players=2)
    assert not jit.fits(state)
    payoffs = playout(state, random.Random(4))
    assert len(payoffs) == 2 and abs(sum(payoffs) - 1) < 1e-9
    assert jit.fits(load(position(line("ROYGBPWROYGBR"))))
