"""Comino: place square tiles so equal colours meet; score the colour areas you join.

Rules: ``rules/comino.md`` (binding). ``GAME`` is the registered game class;
:func:`placements_for` answers "where does this rack tile fit, and in which rotations".
"""

from __future__ import annotations

from .game import Comino
from .geometry import TILES
from .notation import Deal, Place, Remove
from .state import CominoState

GAME = Comino


def placements_for(state: CominoState, tile: str) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where ``tile`` from the mover's rack fits, sorted.

    ``rotation`` is the number of quarter turns clockwise from the tile's name orientation;
    see :meth:`CominoState.placements_for`.
    """
    return state.placements_for(tile)


__all__ = [
    "GAME",
    "TILES",
    "Comino",
    "CominoState",
    "Deal",
    "Place",
    "Remove",
    "placements_for",
]
