"""The unbounded hex grid, packed into plain ints for speed.

A cell ``(q, r)`` (axial coordinates, as the rules use) is stored as one int so that the
block is a ``dict[int, int]`` and a neighbour is an addition: the engine, the reform search
and the playout loop touch cells millions of times, and int keys hash and add far faster
than tuples. The packing keeps the ``(q, r)`` order, so sorting ints sorts cells as the
notation wants (q first, then r).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ludoteca.core.errors import MalformedError

OFFSET = 1 << 15
STRIDE = 1 << 16
LIMIT = 10_000
"""Largest coordinate accepted from text; play can never drift from there to the packing edge."""

NEIGHBOURS = (STRIDE, -STRIDE, 1, -1, STRIDE - 1, 1 - STRIDE)
"""Offsets of the six neighbours: (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)."""

_CELL = re.compile(r"\s*(-?[0-9]{1,6})\s*,\s*(-?[0-9]{1,6})\s*")


def cell(q: int, r: int) -> int:
    return (q + OFFSET) * STRIDE + (r + OFFSET)


def coords(c: int) -> tuple[int, int]:
    q, r = divmod(c, STRIDE)
    return q - OFFSET, r - OFFSET


def cell_to_str(c: int) -> str:
    q, r = divmod(c, STRIDE)
    return f"{q - OFFSET},{r - OFFSET}"


def parse_cell(text: str) -> int:
    """``"q,r"`` to a cell; ``MalformedError`` when it is not two integers in range."""
    if not isinstance(text, str):
        raise MalformedError(text, "a cell is written q,r (e.g. 0,0 or -2,3)")
    m = _CELL.fullmatch(text)
    if m is None:
        raise MalformedError(text, "a cell is written q,r (e.g. 0,0 or -2,3)")
    q, r = int(m.group(1)), int(m.group(2))
    if abs(q) > LIMIT or abs(r) > LIMIT:
        raise MalformedError(text, "cell coordinates must lie within ±{LIMIT}", LIMIT=LIMIT)
    return cell(q, r)


def touching(a: int, b: int) -> bool:
    return (b - a) in NEIGHBOURS


def sections(cells: Iterable[int]) -> list[list[int]]:
    """The connected parts of a set of cells, each sorted, ordered by their lowest cell."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        part = [start]
        stack = [start]
        while stack:
            c = stack.pop()
            for d in NEIGHBOURS:
                n = c + d
                if n in left:
                    left.discard(n)
                    part.append(n)
                    stack.append(n)
        part.sort()
        out.append(part)
    out.sort()
    return out


def group(cells: dict[int, int], start: int) -> list[int]:
    """The connected group of pieces of ``start``'s colour that contains ``start``."""
    colour = cells[start]
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for d in NEIGHBOURS:
            n = c + d
            if n not in seen and cells.get(n) == colour:
                seen.add(n)
                stack.append(n)
    return list(seen)


def holes(cells: Iterable[int]) -> list[int]:
    """Empty cells enclosed by the block (the rules' *gaps*), sorted.

    Flood the empty cells of the bounding parallelogram grown by one from its border ring
    (empty, and connected): whatever empty cell the flood misses cannot reach the outside.
    """
    occupied = set(cells)
    if not occupied:
        return []
    qs, rs = zip(*(coords(c) for c in occupied), strict=True)
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = cell(q0, r0)
    outside = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for d in NEIGHBOURS:
            n = c + d
            if n in outside or n in occupied:
                continue
            q, r = coords(n)
            if q0 <= q <= q1 and r0 <= r <= r1:
                outside.add(n)
                stack.append(n)
    return sorted(
        cell(q, r)
        for q in range(q0, q1 + 1)
        for r in range(r0, r1 + 1)
        if cell(q, r) not in occupied and cell(q, r) not in outside
    )
