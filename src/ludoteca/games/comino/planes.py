"""Where a Comino table lies in the observation's flat array (see :mod:`.observation`).

Squares ``(x, y)`` with ``|x|, |y| <= 22`` are ``(x + 22) * 45 + y + 22`` of the first plane;
grid point ``(px, py)`` (the bottom-left corner of square ``(px, py)``) of colour code ``c``
(B 1, R 2, Y 3) is ``(px + 22) * 46 + py + 22`` of the ``c``-th 46 x 46 plane after it. Every
tile lies within 22 squares of ``(0, 0)`` (23 tiles joined side to side to the start tile), so
every tile and its corners are on these planes.

Kept apart from :mod:`.observation` (which needs numpy) so that the state can keep each tile's
flat indices as it is placed (:attr:`.state.CominoState.ones`) without importing numpy:
observing a position is then one assignment of indices already listed.
"""

from __future__ import annotations

from functools import cache

from .actions import RADIUS
from .geometry import COLOUR_CODE, CORNER_OFFSETS

SQUARE_SIDE = 2 * RADIUS + 1
POINT_SIDE = SQUARE_SIDE + 1
SQUARE_PLANE = SQUARE_SIDE * SQUARE_SIDE
POINT_PLANE = POINT_SIDE * POINT_SIDE


def square_index(x: int, y: int) -> int:
    """Square ``(x, y)``'s index in the squares plane."""
    return (x + RADIUS) * SQUARE_SIDE + y + RADIUS


def point_index(px: int, py: int, code: int) -> int:
    """Grid point ``(px, py)`` of colour code ``code``'s index (after the squares plane)."""
    return SQUARE_PLANE + (code - 1) * POINT_PLANE + (px + RADIUS) * POINT_SIDE + py + RADIUS


@cache
def tile_ones(x: int, y: int, tile: str) -> tuple[int, ...]:
    """The five ones an oriented tile ``tile`` on square ``(x, y)`` sets: its square and its
    four corners in their colours (a corner shared with a neighbour sets the same one)."""
    if abs(x) > RADIUS or abs(y) > RADIUS:
        raise ValueError(f"square {x},{y} lies beyond the observation's table")
    return (square_index(x, y),) + tuple(
        point_index(x + dx, y + dy, COLOUR_CODE[colour])
        for (dx, dy), colour in zip(CORNER_OFFSETS, tile, strict=True)
    )
