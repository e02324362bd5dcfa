"""The compiled kernel against the engine and the reference (differential tests).

The kernel compiles the engine's own rules functions, so these tests watch what could still
differ: numba's integer arithmetic (64-bit, signed) against Python's, the kernel's random
policy, and its bookkeeping of turns and game ends.
"""

from __future__ import annotations

import random

import pytest
from comune_reference import CELLS as REF_CELLS
from comune_reference import Ref, from_text

from ludoteca.core import get
from ludoteca.games.comune import flat as bits
from ludoteca.games.comune import jit as kernel
from ludoteca.games.comune.ai import playout
from ludoteca.games.comune.geometry import CELL_NAMES, INDEX, NEIGH, cells_of
from ludoteca.games.comune.notation import format_position

GAME = get("comune")
K = kernel.compiled()


def random_states(count: int, seed: int):
    """Positions from games played through the protocol (uniform over whole turns)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = GAME.new_state()
        while not s.is_over:
            out.append(s.clone())
            s.play(rng.choice(s.legal_moves()))
        out.append(s)
    return out[:count]


def reference_of(state) -> Ref:
    return from_text(state.position())


def test_placement_masks_agree_with_engine_and_reference():
    for state in random_states(150, 1):
        arr = kernel.to_array(state.slots())
        ref = reference_of(state)
        for player in (0, 1):
            masks = K.legal_masks(arr, player)
            for angle in range(3):
                assert int(masks[angle]) == state.placement_mask(player, angle)
            want = {(INDEX[cell], angle) for cell, angle in ref.placements("LD"[player])}
            got = {(cell, a) for a in range(3) for cell in cells_of(int(masks[a]))}
            assert got == want
        assert tuple(K.can_place_both(arr)) == (
            bool(ref.placements("L")),
            bool(ref.placements("D")),
        )


def test_scores_and_winner_agree_with_engine_and_reference():
    for state in random_states(150, 2):
        arr = kernel.to_array(state.slots())
        light, dark, big_light, big_dark, win = K.scores(arr)
        ref = reference_of(state)
        assert (light, dark) == (ref.score("L"), ref.score("D"))
        assert state.scores() == (float(light), float(dark))
        assert big_light == max(ref.largest("L", a) for a in range(3))
        assert big_dark == max(ref.largest("D", a) for a in range(3))
        assert win == {"L": 0, "D": 1, None: -1}[ref.winner()]


def _turn_between(before, after_slots) -> str:
    """The turn (notation) that led from ``before`` to the kernel's ``after_slots``."""
    player = before.to_move
    placed = []
    for angle in range(3):
        new = int(after_slots[bits.PIECES + 3 * player + angle]) & ~before.pieces(player, angle)
        placed += [CELL_NAMES[c] + "-/\\"[angle] for c in cells_of(new)]
    return " ".join(placed) if placed else "pass"


@pytest.mark.parametrize("k", [1, 4])
def test_kernel_turns_are_legal_and_follow_the_policy(k):
    """Replay the kernel's random turns through the engine: each is a legal turn, the
    positions and game ends match, and it passes only when it cannot place (with the
    search's ``grow`` policy, ``k`` 4, too)."""
    for game_number in range(60):
        state = GAME.new_state()
        arr = kernel.to_array(state.slots(), 12345 + game_number)
        while not state.is_over:
            placements = state.legal_placements()
            placed = K.random_turn(arr, k, kernel.NO_TRACE)
            turn = _turn_between(state, arr)
            assert (0 if turn == "pass" else len(turn.split())) == placed
            assert (placed == 0) == (not placements), f"game {game_number}: {turn}"
            if placed == 1 and not state.is_opening and state.supply(state.to_move) >= 2:
                # one piece only if the other angles had no cell left besides the first
                cell, angle = turn[:-1], "-/\\".index(turn[-1])
                others = [(c, a) for c, a in placements if a != angle and CELL_NAMES[c] != cell]
                assert not others, f"game {game_number}: {turn} but {others[:3]} possible"
            state.play(turn)
            assert format_position([int(x) for x in arr[: bits.SLOTS]]) == state.position()
            assert bool(arr[bits.OVER]) == state.is_over
        win, _ = K.search_playout(arr.copy(), 1, 1, kernel.NO_TRACE)
        assert win == (state.result.winners[0] if state.result.winners else -1)


def test_the_uniform_turn_draws_as_the_shared_turn_does():
    """The fastest path's own uniform turn and the search's shared turn at ``k`` 1 (traced
    and not) make the same placements from the same draws, turn after turn; and the plain
    Python functions the kernel is compiled from play the very same turns."""
    for seed in range(40):
        a = kernel.to_array(bits.new_slots(), seed)
        b, c, plain = a.copy(), a.copy(), a.tolist()
        trace = kernel.new_trace()
        while a[bits.OVER] == 0:
            placed = K.uniform_turn(a)
            assert K.turn(b, 1, kernel.NO_TRACE) == placed
            assert K.turn(c, 1, trace) == placed
            if seed < 5:
                assert bits.uniform_turn(plain) == placed
                assert a.tolist() == plain
            assert (a == b).all() and (a == c).all()
            assert a[bits.RNG] == b[bits.RNG] == c[bits.RNG]
        assert bool(b[bits.OVER]) and bool(c[bits.OVER])


def test_kernel_policy_statistics_match_the_c_limit():
    """About 55 placements a game and Light winning ~48% on score alone (the C limit's
    figures; it counts a tie on score as not a Light win)."""
    start = kernel.to_array(bits.new_slots())
    games = 4000
    strict = placements = 0
    for seed in range(games):
        arr = start.copy()
        K.search_playout(arr, seed, 1, kernel.NO_TRACE)
        light, dark, *_ = K.scores(arr)
        strict += light > dark
        placements += 70 - int(arr[bits.SUPPLY]) - int(arr[bits.SUPPLY + 1])
    assert 53.5 < placements / games < 57.0
    assert 0.44 < strict / games < 0.53


def test_fast_playout_leaves_the_state_and_is_seeded():
    state = random_states(30, 3)[20]
    before = state.position()
    a = [playout(state, random.Random(s)) for s in range(20)]
    b = [playout(state, random.Random(s)) for s in range(20)]
    assert a == b
    assert state.position() == before
    assert all(p in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)) for p in a)
    assert len(set(a)) > 1


def test_fast_playout_mid_turn_finishes_the_turn():
    state = GAME.new_state()
    state.play("e5-")
    state.place(0, 1)
    assert state.mid_turn
    arr = kernel.to_array(state.slots(), 9)
    K.random_turn(arr, 1, kernel.NO_TRACE)
    assert int(arr[bits.TO_MOVE]) == 0 and int(arr[bits.PENDING]) == -1
    dark = sum(bin(int(arr[bits.PIECES + 3 + a])).count("1") for a in range(3))
    assert dark == 2
    assert playout(state, random.Random(1)) in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))


def test_playout_kernel_hook_runs():
    games, turns = GAME.playout_kernel()(1, 0.05)
    assert games > 0 and turns > games


def test_reference_cells_match_board():
    assert [INDEX[c] for c in REF_CELLS] == list(range(61))


def _neighbours_alike(slots, player) -> float:
    """Mean number of same-angle own neighbours over ``player``'s pieces."""
    pieces = [int(slots[bits.PIECES + 3 * player + a]) for a in range(3)]
    counts = [bin(NEIGH[c] & board).count("1") for board in pieces for c in cells_of(board)]
    return sum(counts) / max(1, len(counts))


def test_the_grow_policy_grows_groups():
    """Each placement the best of k draws by own pieces of its angle around it: finished
    games hold more pieces next to pieces like them than uniform ones, and score higher."""
    start = kernel.to_array(bits.new_slots())
    alike = {1: 0.0, 4: 0.0}
    score = {1: 0, 4: 0}
    for k in alike:
        for seed in range(300):
            arr = start.copy()
            K.search_playout(arr, seed, k, kernel.NO_TRACE)
            alike[k] += _neighbours_alike(arr, 0) + _neighbours_alike(arr, 1)
            light, dark, *_ = K.scores(arr)
            score[k] += light + dark
    assert alike[4] > 1.3 * alike[1]
    assert score[4] > 1.5 * score[1]


@pytest.mark.parametrize("plies", [0, 5, 12])
def test_a_traced_playout_notes_every_placement_by_its_player(plies):
    state = GAME.new_state()
    rng = random.Random(plies)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    assert not state.is_over
    arr = kernel.to_array(state.slots())
    trace = kernel.new_trace()
    K.search_playout(arr, 5, 2, trace)
    boards = [[0, 0, 0], [0, 0, 0]]
    for note in trace[1 : 1 + trace[0]].tolist():
        player, code = divmod(note, 256)
        cell, angle = divmod(code, 3)
        assert not boards[player][angle] >> cell & 1, "a cell is placed on once"
        boards[player][angle] |= 1 << cell
    for player in (0, 1):
        for angle in range(3):
            before = state.pieces(player, angle)
            after = int(arr[bits.PIECES + 3 * player + angle])
            assert after & ~before == boards[player][angle]
    assert trace[0] == 70 - int(arr[bits.SUPPLY]) - int(arr[bits.SUPPLY + 1]) - sum(
        bin(state.pieces(p, a)).count("1") for p in (0, 1) for a in range(3)
    )


def test_states_step_the_same_with_the_compiled_kernel_underneath():
    """Once the kernel is compiled the engine's states count and index their turns with its
    ``turn_count`` and ``nth_turn`` (:func:`ludoteca.games.comune.state.use_compiled`): the
    same random games, move for move, give the same turns at every index drawn, the same
    positions, undo and results as with the plain functions and the plain
    :class:`~ludoteca.games.comune.turns.Turns`."""
    from ludoteca.games.comune import state as engine
    from ludoteca.games.comune import turns

    def games(seed: int) -> list:
        rng = random.Random(seed)
        seen: list = []
        for _ in range(12):
            s = GAME.new_state()
            while not s.is_over:
                moves = s.legal_moves()
                picks = [rng.randrange(len(moves)) for _ in range(3)]
                seen.append((len(moves), [moves[i] for i in picks], moves[-1]))
                s.play(moves[picks[0]])
            seen.append((s.position(), s.result))
            s.undo()
            seen.append((s.position(), list(s.legal_moves())))
        return seen

    assert engine._Turns is turns.CompiledTurns  # installed by kernel.compiled()
    assert turns._nth_turn is K.nth_turn and turns._turn_count is K.turn_count
    with_kernel = games(7)
    engine.use_compiled(bits)  # every plain function back: turns, listings, results
    try:
        assert engine._Turns is turns.Turns and turns._nth_turn is bits.nth_turn
        assert games(7) == with_kernel
        # the plain flat functions index every turn as the plain class lists them
        for state in random_states(40, 8):
            moves = state.legal_moves()
            if isinstance(moves, turns.Turns) and not state.is_over:
                m0, m1, m2 = moves._masks
                listed = moves.as_list()
                assert bits.turn_count(m0, m1, m2, moves._pairs) == len(listed)
                step = max(1, len(listed) // 50)
                for k in range(0, len(listed), step):
                    assert bits.nth_turn(m0, m1, m2, moves._pairs, k) == listed[k]
    finally:
        engine.use_compiled(K)


def test_states_list_their_steps_the_same_with_the_compiled_kernel_underneath():
    """Once the kernel is compiled a turn's steps (``placement_codes``, ``second_codes``,
    the research adapters' ids) are listed by its ``placement_codes``, and a game's result
    is scored by its ``scores``: the same random
    positions give the same codes as with the plain function, and both are the placements
    the engine lists cell by cell (``legal_placements``), ascending, at a turn's start and
    after each first piece tried (placed, then taken back)."""
    from ludoteca.games.comune import state as engine

    def ascending(state) -> list[int]:
        return sorted(cell * 3 + angle for cell, angle in state.legal_placements())

    def listings(seed: int) -> list:
        rng = random.Random(seed)
        seen: list = []
        for _ in range(4):
            s = GAME.new_state()
            while not s.is_over:
                codes = s.placement_codes()
                assert codes == ascending(s)
                for first in codes[:: max(1, len(codes) // 3)]:
                    seconds = s.second_codes(first)
                    s.place(first // 3, first % 3)
                    if seconds is None:  # the first piece ended the turn
                        assert not s.mid_turn
                    else:
                        assert seconds == s.placement_codes() == ascending(s)
                    s.undo()
                    seen.append((first, seconds))
                seen.append(codes)
                moves = s.legal_moves()
                s.play(moves[rng.randrange(len(moves))])
            seen.append(s.result)  # the end's scores and winner, by the kernel's scores too
        return seen

    assert engine.codes_listing is not engine._plain_codes  # installed by compiled()
    with_kernel = listings(9)
    engine.use_compiled(bits)
    try:
        assert engine.codes_listing is engine._plain_codes
        assert listings(9) == with_kernel
    finally:
        engine.use_compiled(K)


def test_the_kernel_compiles_what_states_call_before_a_timed_move():
    """``compiled()`` compiles (or loads) every kernel function the engine's states call once
    it is installed, so that no adapter's or benchmark's first game compiles one mid-play (a
    finished game's scores compiled at the first game's end cost a second of CPU time)."""
    for name in ("turn_count", "nth_turn", "placement_codes", "scores"):
        assert getattr(K, name).signatures, name
