"""Comino's playout on a flat array of integers, written for numba to compile.

:mod:`.jit` compiles these very functions (same code objects) with numba; the tests also
run them as plain Python, slowly, with the same results. So the code keeps to what both
worlds agree on: one ``int64`` array holds the whole game, the tables are module-level
``int64`` arrays, and functions call only each other.

**Why a grid.** The board is unbounded, but a game never needs much of it: 23 tiles, each
laid beside one already there, reach at most 22 squares from the start tile. The grid is
:data:`W` x :data:`W` squares, square ``(x + OFF) * W + (y + OFF)``, as in :mod:`.kernel`;
grid point ``i`` is the bottom-left corner of square ``i``, so a square's corners are
``i + 1`` (top-left), ``i + W + 1`` (top-right), ``i + W`` (bottom-right) and ``i``
(bottom-left). A position whose tiles could leave the grid before the end is not loaded
(:func:`.jit.fits`).

**The game array** ``g`` (see :func:`size`): per square its oriented tile (``-1`` empty),
per grid point its colour code (0: no tile touches it), per square its place in the list of
frontier squares (``-1``: not on the frontier) and a scratch mark; then the frontier list,
a stack, the options of a turn, both hands, the squares placed (so that :func:`clear`
undoes exactly them) and the scalars of the position.

**The policy is :mod:`.kernel`'s**: each turn's placement uniform over the distinct legal
placements (or, with ``best_of`` k > 1, the highest-scoring of k so drawn, the first of them
on a tie), a removal uniform over the hand when nothing fits. Draws come from a xorshift32
generator kept in ``g``.
"""

from __future__ import annotations

import numpy as np

from ludoteca.core.xorshift import rand_at, seed_at

from .geometry import (
    COLOUR_CODE,
    DEALT_TILES,
    FIRST_TILE,
    ORIENTED,
    ORIENTED_CODES,
    ORIENTED_INDEX,
    ORIENTED_NAME,
    SECOND_TILE,
    TILES,
    linked_offsets,
    orientations,
)
from .notation import HAND_SIZE, TURNS

W = 48
"""Side of the grid in squares."""
OFF = 24
"""Where the rules' ``(0, 0)`` lies on each axis."""
SIZE = W * W
REACH = OFF - 2
"""A tile may lie at most this far from ``(0, 0)`` in either axis (its neighbours and
corners must stay on the grid)."""

MAX_FRONTIER = 128
MAX_OPTIONS = 4096
STACK_SIZE = 64
HAND_ROOM = 16

OCC = 0
PC = OCC + SIZE
FPOS = PC + SIZE
MARK = FPOS + SIZE
FSQ = MARK + SIZE
STACK = FSQ + MAX_FRONTIER
OPTS = STACK + STACK_SIZE
HANDS = OPTS + 2 * MAX_OPTIONS
PLACED = HANDS + 2 * HAND_ROOM
SC = PLACED + 2 * STACK_SIZE
# scalars, at SC + ...
FN = 0
"""How many squares are on the frontier."""
HN = 1
"""Hand sizes of players 1 and 2 (two cells)."""
SCORE = 3
"""Scores of players 1 and 2 (two cells)."""
TURN = 5
"""Turns played (placements and removals)."""
RNG = 6
STAMP = 7
NPLACED = 8
SCALARS = 9

CORNERS = np.array((1, W + 1, W, 0), dtype=np.int64)
"""A square's corner points (top-left, top-right, bottom-right, bottom-left) as offsets."""
SIDES = np.array((1, W, -1, -W), dtype=np.int64)

OCODES = np.array(ORIENTED_CODES, dtype=np.int64)
"""Per oriented tile (:data:`.geometry.ORIENTED` order), its four corner colour codes."""
NAME_OF = np.array([TILES.index(n) for n in ORIENTED_NAME], dtype=np.int64)
"""Per oriented tile, the index of its tile in :data:`.geometry.TILES`."""


def _turnings() -> tuple[np.ndarray, np.ndarray]:
    turnings = np.full((len(TILES), 4), -1, dtype=np.int64)
    count = np.zeros(len(TILES), dtype=np.int64)
    for t, name in enumerate(TILES):
        distinct = orientations(name)
        count[t] = len(distinct)
        turnings[t, : len(distinct)] = [ORIENTED_INDEX[o] for o in distinct]
    return turnings, count


def _links() -> tuple[np.ndarray, np.ndarray]:
    links = np.zeros((len(ORIENTED), 4, 8), dtype=np.int64)
    count = np.zeros((len(ORIENTED), 4), dtype=np.int64)
    for o, oriented in enumerate(ORIENTED):
        for colour in set(oriented):
            offsets = [dx * W + dy for dx, dy in linked_offsets(oriented, colour)]
            c = COLOUR_CODE[colour]
            count[o, c] = len(offsets)
            links[o, c, : len(offsets)] = offsets
    return links, count


TURNINGS, TURNING_COUNT = _turnings()
"""Per tile, its distinct oriented tiles (``-1`` beyond them), and how many."""
LINKS, LINK_COUNT = _links()
"""Per oriented tile and colour code, the offsets of the squares that share a corner of
that colour with it, and how many."""
assert sorted(COLOUR_CODE.values()) == [1, 2, 3]


DEALT = np.array([TILES.index(t) for t in DEALT_TILES], dtype=np.int64)
"""The 21 tiles the deal draws, as indices in :data:`.geometry.TILES`."""
FIRST = TILES.index(FIRST_TILE)
SECOND = TILES.index(SECOND_TILE)
START = OFF * W + OFF
"""The grid square of ``(0, 0)``."""


def size() -> int:
    """The length of a game array."""
    return SC + SCALARS


# --- random numbers ---------------------------------------------------------------------------
def rand(g, n):
    """A number in ``range(n)`` (``n`` below 2**31) from the generator kept in ``g``."""
    return rand_at(g, SC + RNG, n)


def seed(g, value):
    """Seed the generator from any integer."""
    seed_at(g, SC + RNG, value)


# --- the table --------------------------------------------------------------------------------
def init(g):
    """Make a zeroed array of :func:`size` a game array with an empty table."""
    for i in range(SIZE):
        g[OCC + i] = -1
        g[FPOS + i] = -1
    g[SC + STAMP] = 1
    seed(g, 0x5EED)


def clear(g):
    """Empty the table again, touching only the squares placed since the last clear."""
    for k in range(g[SC + NPLACED]):
        sq = g[PLACED + k]
        g[OCC + sq] = -1
        g[FPOS + sq] = -1
        for j in range(4):
            g[PC + sq + CORNERS[j]] = 0
            g[FPOS + sq + SIDES[j]] = -1
    g[SC + NPLACED] = 0
    g[SC + FN] = 0


def put(g, sq, o):
    """Lay the oriented tile ``o`` on the empty square ``sq`` and update the frontier."""
    g[OCC + sq] = o
    for j in range(4):
        g[PC + sq + CORNERS[j]] = OCODES[o, j]
    g[PLACED + g[SC + NPLACED]] = sq
    g[SC + NPLACED] += 1
    at = g[FPOS + sq]
    if at >= 0:  # off the frontier: the last square takes its place
        last = g[SC + FN] - 1
        moved = g[FSQ + last]
        g[FSQ + at] = moved
        g[FPOS + moved] = at
        g[FPOS + sq] = -1
        g[SC + FN] = last
    for j in range(4):
        n = sq + SIDES[j]
        if g[OCC + n] < 0 and g[FPOS + n] < 0:
            fn = g[SC + FN]
            g[FSQ + fn] = n
            g[FPOS + n] = fn
            g[SC + FN] = fn + 1


def fits(g, sq, o):
    """Whether ``o`` matches every coloured corner point of the square ``sq``."""
    for j in range(4):
        c = g[PC + sq + CORNERS[j]]
        if c != 0 and c != OCODES[o, j]:
            return False
    return True


def gain(g, sq, o):
    """Points for laying ``o`` on the empty ``sq``: for each of its colours, the size of the
    area of that colour it joins, not counting itself (the table is left as it was)."""
    g[OCC + sq] = o
    gained = 0
    for c in range(1, 4):
        if LINK_COUNT[o, c] == 0:
            continue
        stamp = g[SC + STAMP] + 1
        g[SC + STAMP] = stamp
        g[MARK + sq] = stamp
        g[STACK] = sq
        top = 1
        while top:
            top -= 1
            t = g[STACK + top]
            ot = g[OCC + t]
            for j in range(LINK_COUNT[ot, c]):
                s = t + LINKS[ot, c, j]
                if g[OCC + s] >= 0 and g[MARK + s] != stamp:
                    g[MARK + s] = stamp
                    g[STACK + top] = s
                    top += 1
                    gained += 1
    g[OCC + sq] = -1
    return gained


def list_options(g, player):
    """Write the distinct legal placements of ``player`` to the options list; their count."""
    total = 0
    hand = HANDS + player * HAND_ROOM
    for i in range(g[SC + FN]):
        sq = g[FSQ + i]
        for h in range(g[SC + HN + player]):
            t = g[hand + h]
            for k in range(TURNING_COUNT[t]):
                o = TURNINGS[t, k]
                if fits(g, sq, o):
                    g[OPTS + 2 * total] = sq
                    g[OPTS + 2 * total + 1] = o
                    total += 1
    return total


def drop(g, player, t):
    """Take the tile ``t`` out of ``player``'s hand."""
    hand = HANDS + player * HAND_ROOM
    last = g[SC + HN + player] - 1
    for h in range(last + 1):
        if g[hand + h] == t:
            g[hand + h] = g[hand + last]
            g[SC + HN + player] = last
            return


def playout(g, best_of, trace):
    """Play to the end; returns the turns played, or ``-1`` for a hand too small to finish.

    Each turn is written to ``trace`` (when it has room) as two numbers: the square and the
    oriented tile of a placement, or ``-1`` and the tile of a removal."""
    made = 0
    while g[SC + TURN] < TURNS:
        player = g[SC + TURN] & 1
        if g[SC + HN + player] == 0:
            return -1
        total = list_options(g, player)
        if total == 0:
            t = g[HANDS + player * HAND_ROOM + rand(g, g[SC + HN + player])]
            drop(g, player, t)
            sq = -1
            o = t
        else:
            i = rand(g, total)
            sq = g[OPTS + 2 * i]
            o = g[OPTS + 2 * i + 1]
            gained = gain(g, sq, o)
            for _ in range(best_of - 1):
                i = rand(g, total)
                sq2 = g[OPTS + 2 * i]
                o2 = g[OPTS + 2 * i + 1]
                g2 = gain(g, sq2, o2)
                if g2 > gained:
                    sq = sq2
                    o = o2
                    gained = g2
            drop(g, player, NAME_OF[o])
            put(g, sq, o)
            g[SC + SCORE + player] += gained
        if 2 * made + 1 < len(trace):
            trace[2 * made] = sq
            trace[2 * made + 1] = o
        made += 1
        g[SC + TURN] += 1
    return made


def load(g, tiles, hands, scalars):
    """Set up a position after the deal on an empty table (see :func:`clear`).

    ``tiles``: square and oriented tile, in turn; ``hands``: each hand's size, then its
    tiles (player 1's, then player 2's); ``scalars``: the two scores and the turns played.
    """
    for k in range(len(tiles) // 2):
        put(g, tiles[2 * k], tiles[2 * k + 1])
    at = 0
    for player in range(2):
        n = hands[at]
        at += 1
        g[SC + HN + player] = n
        for h in range(n):
            g[HANDS + player * HAND_ROOM + h] = hands[at]
            at += 1
    g[SC + SCORE] = scalars[0]
    g[SC + SCORE + 1] = scalars[1]
    g[SC + TURN] = scalars[2]


def play_from(g, tiles, hands, scalars, seed_value, best_of, trace):
    """One playout from a loaded position, the table cleared first: the turns played (see
    :func:`playout`); the final scores are then at ``SC + SCORE``."""
    clear(g)
    load(g, tiles, hands, scalars)
    seed(g, seed_value)
    return playout(g, best_of, trace)


def deal(g):
    """Deal a new game on an empty table as the rules do: the 21 tiles in a uniform random
    order, the first laid at ``(0, 0)`` in the orientation of its name, the next ten to
    player 1 (who also holds ``YYYY``), the last ten to player 2 (with ``RRRR``)."""
    order = g[OPTS : OPTS + len(DEALT)]
    for i in range(len(DEALT)):
        order[i] = DEALT[i]
    for i in range(len(DEALT) - 1, 0, -1):  # Fisher-Yates
        j = rand(g, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    put(g, START, TURNINGS[order[0], 0])
    for player in range(2):
        hand = HANDS + player * HAND_ROOM
        for h in range(HAND_SIZE - 1):
            g[hand + h] = order[1 + player * (HAND_SIZE - 1) + h]
        g[hand + HAND_SIZE - 1] = FIRST if player == 0 else SECOND
        g[SC + HN + player] = HAND_SIZE
        g[SC + SCORE + player] = 0
    g[SC + TURN] = 0


def run_games(g, n, trace):
    """Play ``n`` complete uniform random games, deal included; the moves made (21 draws
    and the turns of each game). ``trace`` receives the last game's turns."""
    moves = 0
    for _ in range(n):
        clear(g)
        deal(g)
        moves += len(DEALT) + playout(g, 1, trace)
    return moves


def grid_square(x: int, y: int) -> int:
    """The grid square of the rules' square ``(x, y)``."""
    return (x + OFF) * W + (y + OFF)


def rules_square(sq: int) -> tuple[int, int]:
    """The rules' square of grid square ``sq``."""
    return sq // W - OFF, sq % W - OFF
