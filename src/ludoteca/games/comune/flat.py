"""The rules of Comune as plain integer functions on one flat array of bitboards.

This module is the single source of truth for the rules' arithmetic. The Python engine
(:mod:`.state`) calls these functions directly on a ``list`` of ints; the compiled playout
kernel (:mod:`.jit`) registers the very same functions with numba and calls them on a
``numpy.int64`` array of the same layout. So the two can only disagree where numba and
Python disagree on integer arithmetic, which the differential tests watch.

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
  stepping for search), ``-1`` between turns.
"""

from __future__ import annotations

from .geometry import FULL, NEIGH, NUM_ANGLES, PIECES_PER_PLAYER

PIECES = 0
BLOCKED = 6
OCC = 12
SUPPLY = 13
TO_MOVE = 15
PASSES = 16
OVER = 17
PENDING = 18
SLOTS = 19


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
