"""The rules of Comune as plain integer functions on one flat array of bitboards.

This module is the single source of truth for the rules' arithmetic. The Python engine
(:mod:`.state`) calls these functions directly on a ``list`` of ints; the compiled playout
kernel (:mod:`.jit`) compiles the very same functions with numba
(:func:`ludoteca.core.compiled.compile_functions`, as every game's kernel is) and calls them
on a ``numpy.int64`` array of the same layout. So the two can only disagree where numba and
Python disagree on integer arithmetic, which the differential tests watch. The random games
of benchmarks and search (the last section) are written here too, on the same terms.

Rules for writing code here, so that both can run it: integers and the slots array only;
no Python objects, no ``int`` methods except through :func:`popcount` and
:func:`low_index` (which the kernel replaces with CPU instructions); module constants are
ints or tuples of ints (numba freezes them at compile time).

Slots of the state array ``s`` (players: 0 = Light, 1 = Dark; angles 0 ``-``, 1 ``/``,
2 ``\\``):

- ``s[PIECES + 3*p + a]``: player ``p``'s pieces at angle ``a``;
- ``s[BLOCKED + 3*p + a]``: cells where ``p`` may not place at angle ``a`` because an
  opponent piece at another angle is next to them. Kept up to date on every placement (an
  OR of two neighbour masks), so the legal placements are one AND-NOT away, never a loop;
- ``s[OCC]``: every occupied cell; ``s[SUPPLY + p]``: pieces left in ``p``'s supply;
- ``s[TO_MOVE]``: the side whose turn it is (kept after the end, for the position text);
- ``s[PASSES]``: consecutive passes just made (0, 1, 2); ``s[OVER]``: 1 once the game ended;
- ``s[PENDING]``: angle of the first piece of an unfinished turn (single-placement
  stepping for search), ``-1`` between turns;
- ``s[RNG]``: the kernel's random generator (:mod:`ludoteca.core.xorshift`), in the
  kernel's arrays only (:data:`KERNEL_SLOTS`): the engine's state has none.
"""

from __future__ import annotations

from ludoteca.core.xorshift import rand_at, seed_at

from .geometry import FULL, NEIGH, NUM_ANGLES, NUM_CELLS, PIECES_PER_PLAYER

PIECES = 0
BLOCKED = 6
OCC = 12
SUPPLY = 13
TO_MOVE = 15
PASSES = 16
OVER = 17
PENDING = 18
SLOTS = 19
RNG = 19
KERNEL_SLOTS = 20

# whole-turn values (:mod:`.notation`): ``pass`` is 0, a single placement ``1 + code``, a pair
# ``(1 + low code) + TURN_STRIDE * (1 + high code)`` (``code`` = ``cell * 3 + angle``)
PASS_TURN = 0
PLACEMENT_CODES = 3 * NUM_CELLS
"""How many placement codes there are (``cell * 3 + angle``): 183."""
TURN_STRIDE = 184
"""Multiplier of the second placement in a two-piece turn value."""


def new_slots() -> list[int]:
    """The state array of the start position (empty board, Light to move)."""
    s = [0] * SLOTS
    s[SUPPLY] = PIECES_PER_PLAYER
    s[SUPPLY + 1] = PIECES_PER_PLAYER
    s[PENDING] = -1
    return s


def popcount(x):
    """Number of cells in a bitboard. (Compiled code uses the CPU's popcount.)"""
    return x.bit_count()


def low_index(x):
    """Index of the lowest cell of a non-empty bitboard. (Compiled: count trailing zeros.)"""
    return (x & -x).bit_length() - 1


def put(s, player, cell, angle):
    """Place a piece of ``player`` at ``cell`` and ``angle``; no checks (callers validate).

    The opponent may no longer place next to it at either other angle: OR the cell's
    neighbour mask into the opponent's two other blocked masks. The player's own blocked
    masks never change, because own pieces never restrict a placement.
    """
    bit = 1 << cell
    s[PIECES + 3 * player + angle] |= bit
    s[OCC] |= bit
    s[SUPPLY + player] -= 1
    near = NEIGH[cell]
    base = BLOCKED + 3 * (1 - player)
    if angle != 0:  # the three angles written out: no loop on the hottest path
        s[base] |= near
    if angle != 1:
        s[base + 1] |= near
    if angle != 2:
        s[base + 2] |= near


def placement_mask(s, player, angle):
    """Cells where ``player`` may place a piece at ``angle`` now (none with an empty supply)."""
    if s[SUPPLY + player] <= 0:
        return 0
    return FULL & ~(s[OCC] | s[BLOCKED + 3 * player + angle])


def can_place(s, player):
    """Whether ``player`` has any legal placement (an empty supply counts as none)."""
    if s[SUPPLY + player] <= 0:
        return False
    free = FULL & ~s[OCC]
    base = BLOCKED + 3 * player
    return (free & ~(s[base] & s[base + 1] & s[base + 2])) != 0


def is_opening(s):
    """Light's first turn: the board is empty and Light is to move (one piece at most)."""
    return s[OCC] == 0 and s[TO_MOVE] == 0 and s[OVER] == 0


def end_turn(s, placed):
    """Finish the current turn (``placed``: whether it placed a piece; else it was a pass).

    Counts consecutive passes, hands the turn over and checks both end conditions: two
    passes in succession, or neither player able to place.
    """
    player = s[TO_MOVE]
    if placed:
        s[PASSES] = 0
    else:
        s[PASSES] += 1
    s[TO_MOVE] = 1 - player
    s[PENDING] = -1
    if s[PASSES] >= 2 or (not can_place(s, 0) and not can_place(s, 1)):
        s[OVER] = 1


def max_group(mask):
    """Size of the largest group in ``mask`` (0 for an empty mask), by flood fill."""
    best = 0
    rest = mask
    while rest != 0:
        group = rest & -rest
        frontier = group
        size = 0
        while frontier != 0:
            cell = low_index(frontier)
            frontier &= frontier - 1
            size += 1
            fresh = NEIGH[cell] & rest & ~group
            group |= fresh
            frontier |= fresh
        rest &= ~group
        if size > best:
            best = size
    return best


def score(s, player):
    """Product of the player's largest group at each angle (0 if an angle is missing)."""
    base = PIECES + 3 * player
    return max_group(s[base]) * max_group(s[base + 1]) * max_group(s[base + 2])


def largest_group(s, player):
    """The player's single largest counted group (the tie-break)."""
    base = PIECES + 3 * player
    best = 0
    for angle in range(NUM_ANGLES):
        size = max_group(s[base + angle])
        if size > best:
            best = size
    return best


def winner(s):
    """0 or 1 for the winning player, -1 for a draw, by score then by largest group."""
    light = score(s, 0)
    dark = score(s, 1)
    if light != dark:
        return 0 if light > dark else 1
    light = largest_group(s, 0)
    dark = largest_group(s, 1)
    if light != dark:
        return 0 if light > dark else 1
    return -1


# --- a position's whole turns, counted and indexed ---------------------------------------------
# The order of :class:`.turns.Turns`: ``pass``; the single placements by angle, then cell; the
# pairs by angle pair (0, 1), (0, 2), (1, 2), then the first piece's cell, then the second's.
# ``m0``, ``m1``, ``m2``: the cells where the side to move may place at each angle; ``pairs``:
# whether two-piece turns are allowed. Once the kernel is compiled the states list their turns
# with these (:func:`.state.use_compiled`): one call each, no cell listed.


def turn_count(m0, m1, m2, pairs):
    """How many distinct turns: ``pass``, the single placements and the unordered pairs at
    different angles on different cells (one per two cells a pair of angles shares)."""
    n0 = popcount(m0)
    n1 = popcount(m1)
    n2 = popcount(m2)
    count = 1 + n0 + n1 + n2
    if pairs:
        count += n0 * n1 - popcount(m0 & m1)
        count += n0 * n2 - popcount(m0 & m2)
        count += n1 * n2 - popcount(m1 & m2)
    return count


def nth_turn(m0, m1, m2, pairs, k):
    """The value of turn ``k`` (``0 <= k < turn_count(...)``, callers check) in the order
    above."""
    if k == 0:
        return PASS_TURN
    k -= 1
    for angle in range(3):
        mask = m0 if angle == 0 else (m1 if angle == 1 else m2)
        n = popcount(mask)
        if k < n:
            return 1 + nth_cell(mask, k) * 3 + angle
        k -= n
    if not pairs:
        return -1
    for a in range(2):
        for b in range(a + 1, 3):
            low = m0 if a == 0 else m1
            high = m1 if b == 1 else m2
            nb = popcount(high)
            rest = low
            while rest != 0:
                cell = low_index(rest)
                rest &= rest - 1
                count = nb - ((high >> cell) & 1)
                if k < count:
                    second = nth_cell(high & ~(1 << cell), k)
                    return 1 + cell * 3 + a + TURN_STRIDE * (1 + second * 3 + b)
                k -= count
    return -1


def placement_codes(m0, m1, m2, out):
    """The placement codes (``cell * 3 + angle``) of the masks' cells, ascending (by cell,
    then angle), written into ``out`` from its start (room for :data:`PLACEMENT_CODES`);
    returns how many. The
    research adapters' steps (:meth:`.state.ComuneState.placement_codes`)."""
    n = 0
    rest = m0 | m1 | m2
    while rest != 0:
        cell = low_index(rest)
        rest &= rest - 1
        if (m0 >> cell) & 1:
            out[n] = 3 * cell
            n += 1
        if (m1 >> cell) & 1:
            out[n] = 3 * cell + 1
            n += 1
        if (m2 >> cell) & 1:
            out[n] = 3 * cell + 2
            n += 1
    return n


# --- random games: the kernel's policy -------------------------------------------------------
# The policy of ``shared/limits/limit_comune.c``: each turn places as many pieces as allowed,
# each uniformly among the legal ``(cell, angle)`` pairs (the second at another angle than
# the first); a side passes only when it cannot place. Search may ask for the best of ``k``
# draws instead (:func:`drawn`). These run on the kernel's arrays (:data:`KERNEL_SLOTS`).


def nth_cell(mask, k):
    """The index of the ``k``-th (0-based) cell of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return low_index(mask)


def nth_placement(m0, m1, m2, c0, c1, j):
    """The ``j``-th ``(cell, angle)`` pair of the three angles' masks counted in turn (``c0``
    and ``c1`` the first two masks' counts), so that every uniform draw names its placement
    the same way."""
    if j < c0:
        return nth_cell(m0, j), 0
    if j < c0 + c1:
        return nth_cell(m1, j - c0), 1
    return nth_cell(m2, j - c0 - c1), 2


def drawn(s, player, m0, m1, m2, k):
    """A placement ``(cell, angle)`` drawn among the masks' pairs: uniformly with ``k`` 1, else
    the one of ``k`` uniform draws with the most of ``player``'s pieces at its angle around
    it (the first drawn on a tie), which grows groups as a player would. ``cell`` is -1 when
    the masks are empty."""
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    best_cell = -1
    best_angle = -1
    best = -1
    if total == 0:
        return best_cell, best_angle
    for _ in range(k):
        cell, angle = nth_placement(m0, m1, m2, c0, c1, rand_at(s, RNG, total))
        if k == 1:
            return cell, angle
        near = popcount(NEIGH[cell] & s[PIECES + 3 * player + angle])
        if near > best:
            best = near
            best_cell = cell
            best_angle = angle
    return best_cell, best_angle


def put_noted(s, player, cell, angle, trace):
    """Place the piece, noting ``player * 256 + placement code`` in ``trace`` if it has room
    (``trace[0]`` counts the notes, which follow it)."""
    put(s, player, cell, angle)
    if len(trace):
        trace[0] += 1
        trace[trace[0]] = player * 256 + 3 * cell + angle


def second_piece(s, player, first_angle, k, trace):
    """Place the second piece of a turn at another angle, if any (see :func:`drawn` for
    ``k``); return 1 or 0."""
    m0 = placement_mask(s, player, 0) if first_angle != 0 else 0
    m1 = placement_mask(s, player, 1) if first_angle != 1 else 0
    m2 = placement_mask(s, player, 2) if first_angle != 2 else 0
    cell, angle = drawn(s, player, m0, m1, m2, k)
    if cell < 0:
        return 0
    put_noted(s, player, cell, angle, trace)
    return 1


def turn(s, k, trace):
    """One turn by the random policy (``k`` > 1: each placement the best of ``k`` draws, see
    :func:`drawn`), its placements noted in ``trace`` (see :func:`put_noted`); the number of
    pieces placed."""
    player = s[TO_MOVE]
    if s[PENDING] >= 0:  # finish a turn begun one placement at a time
        placed = 1 + second_piece(s, player, s[PENDING], k, trace)
        end_turn(s, True)
        return placed
    m0 = placement_mask(s, player, 0)
    m1 = placement_mask(s, player, 1)
    m2 = placement_mask(s, player, 2)
    opening = is_opening(s)
    cell, angle = drawn(s, player, m0, m1, m2, k)
    if cell < 0:
        end_turn(s, False)  # forced pass
        return 0
    put_noted(s, player, cell, angle, trace)
    placed = 1
    if not opening and s[SUPPLY + player] > 0:
        placed += second_piece(s, player, angle, k, trace)
    end_turn(s, True)
    return placed


def uniform_second(s, player, first_angle):
    """Place the second piece of a turn uniformly at another angle, if any; return 1 or 0."""
    m0 = placement_mask(s, player, 0) if first_angle != 0 else 0
    m1 = placement_mask(s, player, 1) if first_angle != 1 else 0
    m2 = placement_mask(s, player, 2) if first_angle != 2 else 0
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    if total == 0:
        return 0
    cell, angle = nth_placement(m0, m1, m2, c0, c1, rand_at(s, RNG, total))
    put(s, player, cell, angle)
    return 1


def uniform_turn(s):
    """One turn by the uniform policy, noting nothing; the number of pieces placed.

    This is :func:`turn` with ``k`` 1 and no trace, drawing the same numbers in the same
    order, written apart for speed: compiled for every policy and trace, the shared turn
    played uniform games at 0.77 of this one's rate."""
    player = s[TO_MOVE]
    if s[PENDING] >= 0:  # finish a turn begun one placement at a time
        placed = 1 + uniform_second(s, player, s[PENDING])
        end_turn(s, True)
        return placed
    m0 = placement_mask(s, player, 0)
    m1 = placement_mask(s, player, 1)
    m2 = placement_mask(s, player, 2)
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    if total == 0:
        end_turn(s, False)  # forced pass
        return 0
    opening = is_opening(s)
    cell, angle = nth_placement(m0, m1, m2, c0, c1, rand_at(s, RNG, total))
    put(s, player, cell, angle)
    placed = 1
    if not opening and s[SUPPLY + player] > 0:
        placed += uniform_second(s, player, angle)
    end_turn(s, True)
    return placed


def random_turn(s, k, trace):
    """Play one turn by the random policy (see :func:`turn`); the number of pieces placed."""
    if k == 1 and len(trace) == 0:
        return uniform_turn(s)
    return turn(s, k, trace)


def search_playout(s, seed, k, trace):
    """Play ``s`` (changed in place) to the end, its generator seeded from ``seed``: ``k``
    as in :func:`turn`; ``trace`` (empty, or room for every placement and their count) gets
    the placements (see :func:`put_noted`). Returns ``(winner, turns)``, ``winner`` 0
    (Light), 1 (Dark) or -1 (draw)."""
    seed_at(s, RNG, seed)
    turns = 0
    if len(trace):
        trace[0] = 0
    uniform = k == 1 and len(trace) == 0
    while s[OVER] == 0:
        if uniform:
            uniform_turn(s)
        else:
            turn(s, k, trace)
        turns += 1
    return winner(s), turns


def playout_batch(start, s, seed, games):
    """Play ``games`` uniform random games from ``start`` (unchanged) in ``s`` (a kernel
    array to play in), the generator seeded from ``seed`` once. Returns ``(turns,
    placements, light_wins, dark_wins)`` summed over the games."""
    seed_at(s, RNG, seed)
    turns = 0
    placements = 0
    light = 0
    dark = 0
    for _ in range(games):
        for i in range(SLOTS):
            s[i] = start[i]
        while s[OVER] == 0:
            placements += uniform_turn(s)
            turns += 1
        w = winner(s)
        if w == 0:
            light += 1
        elif w == 1:
            dark += 1
    return turns, placements, light, dark


def legal_masks(s, player):
    """The three placement masks of ``player`` (for the differential tests)."""
    return placement_mask(s, player, 0), placement_mask(s, player, 1), placement_mask(s, player, 2)


def scores(s):
    """``(light score, dark score, light largest group, dark largest group, winner)``."""
    return score(s, 0), score(s, 1), largest_group(s, 0), largest_group(s, 1), winner(s)


def can_place_both(s):
    """Whether each player has a legal placement (for the differential tests)."""
    return can_place(s, 0), can_place(s, 1)
