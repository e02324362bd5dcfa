"""The Comino tile set, its rotations, and the tables that make fitting a tile a lookup.

A tile is four corner colours clockwise from the top-left (top-left, top-right, bottom-right,
bottom-left). Everything a placement needs to know is precomputed here once:

* the 23 tiles (named by their smallest rotation) and the 80 distinct *oriented* tiles
  (tiles with rotational symmetry have fewer than four distinct orientations, so each
  distinct placement is generated once);
* for every *corner pattern* a square can present (each corner: a known colour or free),
  the bit mask of oriented tiles that fit it. A placement test is then one table lookup and
  one ``&`` with the bit mask of the hand.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from ludoteca.core.messages import Text

COLOURS = "BRY"
"""The three colours in notation order (``B < R < Y``)."""

COLOUR_NAMES = {"B": Text("blue"), "R": Text("red"), "Y": Text("yellow")}

CORNER_NAMES = (Text("top-left"), Text("top-right"), Text("bottom-right"), Text("bottom-left"))

# A square (x, y) has its corners at these grid points, in tile-string order (TL, TR, BR, BL).
# Grid point (px, py) is the bottom-left corner of square (px, py).
CORNER_OFFSETS = ((0, 1), (1, 1), (1, 0), (0, 0))

ROW = 64
"""Squares as ints, where the engine steps from square to square: ``(x + 32) * 64 + y + 32``
(:func:`cell_key`; a grid point has the key of the square whose bottom-left corner it is).
Every tile lies within 22 squares of ``(0, 0)`` (23 tiles, each joined side to side to the
start tile: in play and in a typed position alike), so the numbering never wraps, and a
neighbour is one addition away."""


REACH = 24
"""The farthest a square's key is worked out (:func:`cell_key`): a tile lies at most 22
squares from ``(0, 0)``, a square beside one 23; a move naming a square farther out names
no square beside a tile, and is refused as such before any key is made of it."""


def cell_key(x: int, y: int) -> int:
    """The int of square ``(x, y)`` (see :data:`ROW`), for ``|x|, |y| <= REACH``."""
    return (x + 32) * ROW + y + 32


def key_square(key: int) -> tuple[int, int]:
    """The ``(x, y)`` of an int square (:func:`cell_key` undone)."""
    return key // ROW - 32, key % ROW - 32


SIDE_OFFSETS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The four squares sharing a side with a square: up, right, down, left."""

AROUND_OFFSETS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
"""The eight squares sharing a side or a corner point with a square."""

SQUARES_AT_POINT = (((0, -1), 0), ((-1, -1), 1), ((-1, 0), 2), ((0, 0), 3))
"""The squares having a given grid point as a corner, as offsets from the point, with the
index of that corner in the tile string (TL, TR, BR, BL)."""


def rotate(tile: str, quarters: int = 1) -> str:
    """``tile`` turned ``quarters`` quarter turns clockwise (``YYRB`` -> ``BYYR``)."""
    q = quarters % 4
    return tile[4 - q :] + tile[: 4 - q] if q else tile


def rotations(tile: str) -> list[str]:
    """The four rotations of ``tile``, 0 to 3 quarter turns clockwise (may repeat)."""
    return [rotate(tile, q) for q in range(4)]


@cache
def name_of(tile: str) -> str:
    """A tile's name: the lexicographically smallest of its rotations."""
    return min(rotations(tile))


def orientations(name: str) -> list[str]:
    """The distinct orientations of a tile, in rotation order from its name."""
    seen: list[str] = []
    for r in rotations(name):
        if r not in seen:
            seen.append(r)
    return seen


def _build_set() -> tuple[str, ...]:
    names = {name_of("".join(c)) for c in product(COLOURS, repeat=4)}
    multi = {n for n in names if len(set(n)) >= 2}
    return tuple(sorted(multi | {"YYYY", "RRRR"}))


TILES: tuple[str, ...] = _build_set()
"""The 23 tile names, sorted."""

TILE_SET = frozenset(TILES)

FIRST_TILE = "YYYY"
"""Player 1's fixed tile."""
SECOND_TILE = "RRRR"
"""Player 2's fixed tile."""
DEALT_TILES: tuple[str, ...] = tuple(t for t in TILES if t not in (FIRST_TILE, SECOND_TILE))
"""The 21 tiles drawn by chance: the start tile and both hands of ten."""

ORIENTED: tuple[str, ...] = tuple(o for n in TILES for o in orientations(n))
"""Every distinct oriented tile (80), grouped by tile."""

ORIENTED_INDEX = {o: i for i, o in enumerate(ORIENTED)}
ORIENTED_NAME: tuple[str, ...] = tuple(name_of(o) for o in ORIENTED)

NAME_MASK: dict[str, int] = {n: 0 for n in TILES}
"""For each tile name, the bits (in :data:`ORIENTED` order) of its orientations."""
for _i, _o in enumerate(ORIENTED):
    NAME_MASK[ORIENTED_NAME[_i]] |= 1 << _i

COLOUR_CODE = {"B": 1, "R": 2, "Y": 3}
"""A grid point's colour as a 2-bit code; 0 means no tile touches the point yet."""
CODE_COLOUR = ".BRY"


def pattern_code(corners: tuple[int, int, int, int]) -> int:
    """Pack four corner codes (TL, TR, BR, BL; 0 = free) into one table index (0..255)."""
    return corners[0] | corners[1] << 2 | corners[2] << 4 | corners[3] << 6


def _fits(oriented: str, code: int) -> bool:
    for i, colour in enumerate(oriented):
        need = (code >> (2 * i)) & 3
        if need and need != COLOUR_CODE[colour]:
            return False
    return True


FIT_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, o in enumerate(ORIENTED) if _fits(o, code)) for code in range(256)
)
"""For each corner pattern, the bit mask of oriented tiles that fit it."""

ORIENTED_CODES: tuple[tuple[int, int, int, int], ...] = tuple(
    (COLOUR_CODE[o[0]], COLOUR_CODE[o[1]], COLOUR_CODE[o[2]], COLOUR_CODE[o[3]]) for o in ORIENTED
)


@cache
def linked_offsets(tile: str, colour: str) -> tuple[tuple[int, int], ...]:
    """The squares (as offsets) that share with a square holding ``tile`` a grid point where
    the tile has ``colour``: the squares its ``colour`` area can reach in one step. The
    engine follows areas through these; the kernels turn them into offsets of their grids."""
    out: set[tuple[int, int]] = set()
    for (dx, dy), c in zip(CORNER_OFFSETS, tile, strict=True):
        if c == colour:
            out.update((dx + ox, dy + oy) for (ox, oy), _ in SQUARES_AT_POINT)
    out.discard((0, 0))
    return tuple(sorted(out))
