"""The compiled kernel against the engine (differential tests).

The kernel is :mod:`ludoteca.games.kuniumi.flat` compiled by numba. These tests check that
compilation preserved meaning (integer widths, shifts, masks) by comparing it with the engine
on positions of every phase, and that the kernel's random games are legal games: each of
their actions is replayed through the engine's validating ``play``.
"""

from __future__ import annotations

import random

import numpy as np

from ludoteca.core import get
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi.ai import playout
from ludoteca.games.kuniumi.jit import new_trace, playout_kernel

GAME = get("kuniumi")


def random_states(count: int, seed: int):
    """States of every phase: random prefixes of random games, finished games included."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = GAME.new_state()
        stop = rng.randrange(0, 40)
        while not state.is_over and stop:
            state.play(rng.choice(state.legal_moves()))
            stop -= 1
        out.append(state)
    return out


STATES = random_states(300, seed=12)


def test_the_sample_covers_every_phase():
    phases = {(s.phase, s.is_over) for s in STATES}
    assert phases >= {
        (bits.SETUP, False),
        (bits.CHOOSE_PHASE, False),
        (bits.PLAY, False),
        (bits.PLAY, True),
    }


def kernel_moves(k, state) -> set[int]:
    """The legal actions as the compiled functions see them."""
    if state.phase == bits.SETUP:
        kind = k.setup_kind(k.popcount(state.land | state.sea))
        targets = k.setup_targets(state.land, state.sea, kind)
        return {kind * 36 + sq for sq in range(36) if targets >> sq & 1}
    if state.phase == bits.CHOOSE_PHASE:
        return {bits.CHOOSE, bits.CHOOSE + 1}
    if k.outcome(state.land, state.sea) != bits.NOT_OVER:
        return set()
    god, mine = (
        (state.earth_god, state.land) if state.side == bits.LAND else (state.sea_god, state.sea)
    )
    targets = k.god_targets(god, mine, state.land | state.sea)
    origin = k.square_of(god)
    return {bits.MOVE + 36 * origin + sq for sq in range(36) if targets >> sq & 1}


def test_legal_moves_agree_with_the_engine(k):
    for state in STATES:
        assert kernel_moves(k, state) == set(state.legal_moves()), state.position()


def test_end_and_winner_agree_with_the_engine(k):
    for state in STATES:
        if state.phase != bits.PLAY:
            assert k.outcome(state.land, state.sea) == bits.NOT_OVER
            continue
        won = k.outcome(state.land, state.sea)
        assert (won != bits.NOT_OVER) == state.is_over, state.position()
        if state.is_over:
            expected = () if won == bits.DRAW else (state.player_of(won),)
            assert state.result.winners == expected


def test_compiled_helpers_equal_the_python_ones_on_random_boards(k):
    rng = random.Random(5)
    for _ in range(3000):
        a = rng.getrandbits(36)
        b = rng.getrandbits(36) & ~a
        assert k.neighbours(a) == bits.neighbours(a)
        assert k.fill(a & -a, a) == bits.fill(a & -a, a)
        assert k.popcount(a) == bits.popcount(a) == bin(a).count("1")
        assert k.lines_of(a) == bits.lines_of(a)
        assert k.closed_pieces(a, bits.FULL & ~(a | b)) == bits.closed_pieces(
            a, bits.FULL & ~(a | b)
        )
        assert k.largest_group(a) == bits.largest_group(a)
        assert k.outcome(a, b) == bits.outcome(a, b)
        s = rng.getrandbits(32) or 1
        assert k.rng_next(s) == bits.rng_next(s)
        assert k.pick_index(s, 17) == bits.pick_index(s, 17) < 17


def test_python_helpers_match_plain_definitions():
    """The shared functions themselves, against definitions by coordinates."""
    rng = random.Random(6)
    for _ in range(300):
        a = rng.getrandbits(36)
        squares = [i for i in range(36) if a >> i & 1]
        near = set()
        for i in squares:
            r, f = divmod(i, 6)
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < 6 and 0 <= f + df < 6:
                    near.add((r + dr) * 6 + f + df)
        assert bits.neighbours(a) == sum(1 << i for i in near)
        rows = {i // 6 for i in squares}
        cols = {i % 6 for i in squares}
        lines = [i for i in range(36) if i // 6 in rows or i % 6 in cols]
        assert bits.lines_of(a) == sum(1 << i for i in lines)
        if squares:
            k = rng.randrange(len(squares))
            assert bits.nth_square(a, k) == 1 << squares[k]
            assert bits.square_of(1 << squares[k]) == squares[k]


def kernel_args(state):
    return (
        state.land,
        state.sea,
        state.earth_god,
        state.sea_god,
        state.phase,
        state.first,
        state.side,
    )


def test_kernel_games_are_legal_games_with_the_same_result(k):
    """Every action of a kernel playout is accepted by the engine, and the results agree."""
    rng = random.Random(21)
    for state in STATES:
        if state.is_over:
            continue
        seed = k.rng_seed(rng.getrandbits(32))
        trace = new_trace()
        winner, plies, after = k.playout(*kernel_args(state), seed, trace)
        replay = state.clone()
        for action in trace[:plies]:
            assert not replay.is_over
            replay.play(int(action))
        assert replay.is_over
        expected = () if winner == bits.DRAW else (winner,)
        assert replay.result.winners == expected, state.position()
        # the Python source of the kernel plays the very same game
        py_trace = np.zeros_like(trace)
        assert bits.playout(*kernel_args(state), seed, py_trace) == (winner, plies, after)
        assert (py_trace[:plies] == trace[:plies]).all()


def test_batches_of_games_match_between_kernel_and_python(k):
    assert k.run_games(k.rng_seed(77), 25, new_trace()) == bits.run_games(
        bits.rng_seed(77), 25, new_trace()
    )


def test_kernel_policy_is_uniform_at_the_choice_and_over_setup_squares(k):
    counts = np.zeros(36, dtype=int)
    chose_land = 0
    s = k.rng_seed(3)
    trace = new_trace()
    games = 3000
    for _ in range(games):
        _, _, s = k.playout(0, 0, 0, 0, bits.SETUP, bits.NO_SIDE, bits.NO_SIDE, s, trace)
        counts[trace[0]] += 1  # the Earth God's square: 36 equally likely choices
        chose_land += trace[7 - 1] == bits.CHOOSE
    assert counts.min() > games / 36 * 0.6 and counts.max() < games / 36 * 1.4
    assert 0.45 < chose_land / games < 0.55


def test_playout_kernel_reports_games_and_moves():
    games, moves = playout_kernel(1, 0.05)
    assert games > 0
    assert 8 * games <= moves <= GAME.max_game_length * games
    assert GAME.playout_kernel() is playout_kernel


def test_fast_playout_is_seeded_and_leaves_the_state_alone():
    state = GAME.from_position("6/6/2S3/2E3/6/ll2ss play land land")
    before = state.position()
    first = [playout(state, random.Random(s)) for s in range(40)]
    again = [playout(state, random.Random(s)) for s in range(40)]
    assert first == again
    assert state.position() == before
    assert all(sum(p) == 1.0 for p in first)
    assert {p for p in first} <= {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)}
    assert len(set(first)) > 1


def test_fast_playout_of_a_finished_game_is_its_result():
    state = GAME.from_position("l3ss/6/6/6/l5/SEl3 play sea land")
    assert playout(state, random.Random(0)) == (0.0, 1.0)


def test_fast_playout_from_setup_and_choice():
    for position in ("6/6/6/6/6/6 setup", "6/6/2S3/2E3/6/ll2ss choose"):
        payoffs = playout(GAME.from_position(position), random.Random(1))
        assert sum(payoffs) == 1.0


def test_states_step_the_same_with_the_compiled_kernel_underneath():
    """Once the kernel is compiled the engine's God moves, set-up and end of a game run its
    functions (``after_god_move``, ``setup_targets``, ``outcome``, ``god_targets``,
    ``closed_pieces``, ``largest_group``: :func:`ludoteca.games.kuniumi.state.use_compiled`):
    the same random games, move for move, give the same legal moves, undo and results (their
    reasons naming the closed groups' sizes) as with the plain functions."""
    from ludoteca.games.kuniumi import jit
    from ludoteca.games.kuniumi import state as engine

    def games(seed: int) -> list:
        rng = random.Random(seed)
        seen = []
        for _ in range(40):
            s = GAME.new_state()
            while not s.is_over:
                moves = s.legal_moves()
                seen.append(moves)
                s.play(rng.choice(moves))
            seen.append((s.position(), s.result))
            s.undo()
            seen.append((s.position(), s.legal_moves()))
        return seen

    compiled = jit.compiled()  # installs the compiled step
    for name in engine.COMPILED:
        assert getattr(engine, "_" + name) is getattr(compiled, name)
    with_kernel = games(5)
    engine.use_compiled(bits)  # the plain functions
    assert engine._outcome is bits.outcome
    try:
        assert games(5) == with_kernel
    finally:
        engine.use_compiled(compiled)
