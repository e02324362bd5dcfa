"""The start block: a random connected arrangement obeying the setup rules, from a seed.

Two steps, each easy to get right on its own:

1. **Shape.** Grow a polyhex from a triangle (or, with gaps, from a ring around an empty
   cell) by adding empty cells that touch at least two cells of the shape. Every cell then
   touches at least two others. In the compact default a cell is refused when it would
   enclose a gap; cells touching more of the shape are preferred, which keeps it round.
2. **Colours.** Colour the shape with exactly the piece counts so that no two touching
   cells share a colour: most-constrained cell first (DSatur), the colour with most pieces
   left first; a dead end restarts with a fresh draw.

The generator may change between versions; game records store the block, not the seed.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate

from .geometry import NEIGHBOURS, cell, holes

_TRIANGLE = (cell(0, 0), cell(1, 0), cell(0, 1))
_AROUND = tuple(
    cell(q, r) - cell(0, 0) for q, r in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
)
"""The six neighbours in order around a cell, each touching the next."""
_RING = tuple(cell(0, 0) + d for d in _AROUND)
_WEIGHTS = tuple(s**3 if s >= 2 else 0 for s in range(7))
"""The weight of an empty cell touching ``s`` cells of a compact shape."""
_GAP_WEIGHTS = tuple(1 if s >= 2 else 0 for s in range(7))
"""The same when gaps are allowed: every cell touching two or more alike."""


def generate_block(rng: random.Random, counts: list[int], gaps: bool = False) -> dict[int, int]:
    """A block (cell -> colour) with ``counts[k]`` pieces of colour ``k``."""
    n = sum(counts)
    for _ in range(1000):
        shape = _grow_shape(rng, n, gaps)
        if shape is None:
            continue
        for _ in range(20):
            colouring = _colour_shape(rng, shape, counts)
            if colouring is not None:
                return colouring
    raise RuntimeError("could not generate a start block")  # pragma: no cover


def _grow_shape(rng: random.Random, n: int, gaps: bool) -> list[int] | None:
    shape = set(_RING if gaps else _TRIANGLE)
    forbidden = {cell(0, 0)} if gaps else set()
    support: dict[int, int] = {}  # empty cell -> cells of the shape it touches
    for c in shape:
        for d in NEIGHBOURS:
            e = c + d
            if e not in shape and e not in forbidden:
                support[e] = support.get(e, 0) + 1
    random_ = rng.random
    get = support.get
    table = _GAP_WEIGHTS if gaps else _WEIGHTS
    # the frontier in the order of ``support`` and the weights of its cells, kept step to
    # step (a cell leaves, a few change, new ones come last) instead of rebuilt
    frontier = list(support)
    weighed = [table[s] for s in support.values()]
    while len(shape) < n:
        # compact blocks prefer well-supported cells; blocks with gaps take any. Cells
        # touching fewer than two weigh nothing: they are never drawn, and the others are
        # drawn exactly as from the list of the touching-two cells alone.
        candidates, weights = frontier, weighed  # copied only if a cell is refused
        refused = False
        while True:
            # what rng.choices(range(len(candidates)), weights)[0] draws, without its overhead
            cumulative = list(accumulate(weights))
            if not cumulative or not cumulative[-1]:
                return None
            i = bisect(cumulative, random_() * (cumulative[-1] + 0.0), 0, len(cumulative) - 1)
            c = candidates[i]
            shape.add(c)
            if gaps or not _may_enclose(shape, c) or not holes(shape):
                break
            shape.discard(c)
            if not refused:
                candidates, weights, refused = list(candidates), list(weights), True
            del candidates[i]
            del weights[i]
        j = frontier.index(c) if refused else i
        del frontier[j]
        del weighed[j]
        del support[c]
        for d in NEIGHBOURS:
            e = c + d
            if e not in shape and e not in forbidden:
                s = get(e, 0) + 1
                support[e] = s
                if s == 1:
                    frontier.append(e)
                    weighed.append(table[1])
                else:
                    weighed[frontier.index(e)] = table[s]
    return sorted(shape)


def _may_enclose(shape: set[int], c: int) -> bool:
    """Can adding ``c`` have enclosed a gap? Only if the empty cells around it now form two
    or more separate arcs (one arc or none leaves the outside connected around ``c``)."""
    a0, a1, a2, a3, a4, a5 = _AROUND
    ring = (
        (c + a0 in shape)
        | (c + a1 in shape) << 1
        | (c + a2 in shape) << 2
        | (c + a3 in shape) << 3
        | (c + a4 in shape) << 4
        | (c + a5 in shape) << 5
    )
    return _SPLIT_RINGS[ring]


def _arcs(ring: int) -> int:
    """Places around a cell where a piece of the shape is followed by an empty cell; bit
    ``i`` of ``ring`` says whether the ``i``-th neighbour of :data:`_AROUND` is in."""
    return sum(1 for i in range(6) if ring >> i & 1 and not ring >> (i + 1) % 6 & 1)


_ALLOWED = tuple(tuple(k for k in range(7) if not mask >> k & 1) for mask in range(128))
"""For each set of colours around a cell (a bit mask), the colours it may take, in order."""
_SPLIT_RINGS = tuple(_arcs(ring) >= 2 for ring in range(64))
"""For each of the 64 ways the six neighbours can be in or out: two arcs or more?"""


def _colour_shape(rng: random.Random, shape: list[int], counts: list[int]) -> dict[int, int] | None:
    left = list(counts)
    colour: dict[int, int] = {}
    order = list(shape)
    rng.shuffle(order)  # ties between equally constrained cells go by this random order
    # colours each cell touches, as a bit mask; the uncoloured cells in ``order`` and, side
    # by side, how many distinct colours each touches (its saturation): the most saturated
    # is then found by C code (max, index), not by a key function called per cell
    banned = dict.fromkeys(order, 0)
    rest = list(order)
    saturation = [0] * len(rest)
    for _ in range(len(order)):
        # the uncoloured cell touching most distinct colours (DSatur), first in ``order``
        i = saturation.index(max(saturation))
        best = rest.pop(i)
        del saturation[i]
        # the colours it may take (not around it), and of those the ones with most left
        allowed = _ALLOWED[banned[best]]
        top = max(map(left.__getitem__, allowed), default=0)
        if not top:
            return None
        k = rng.choice([k for k in allowed if left[k] == top])
        colour[best] = k
        left[k] -= 1
        bit = 1 << k
        for d in NEIGHBOURS:
            n = best + d
            m = banned.get(n)
            if m is not None and not m & bit:
                banned[n] = m | bit
                if n not in colour:
                    saturation[rest.index(n)] += 1
    return colour
