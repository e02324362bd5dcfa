"""Comino: place square tiles so equal colours meet; score the colour areas you join.

Rules: ``rules/comino.md`` (binding). ``GAME`` is the registered game class;
:func:`placements_for` answers the web club's question "where does this rack tile fit, and
in which rotations" without the browser knowing any rule.
"""

from __future__ import annotations

from .game import Comino
from .moves import Deal, Place, Remove
from .state import CominoState
from .tiles import TILES

GAME = Comino


def placements_for(state: CominoState, tile: str) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where ``tile`` from the mover's rack fits, sorted.

    ``rotation`` is the number of quarter turns clockwise from the tile's name orientation;
    see :meth:`CominoState.placements_for`.
    """
    return state.placements_for(tile)


def placements_by_tile(state: CominoState) -> dict[str, list[tuple[int, int, int]]]:
    """For every tile in the mover's rack, by name, its :func:`placements_for` list.

    One call gives the browser everything it needs to let a player drop a tile only where
    it fits (empty lists everywhere mean the "Remove tile" button is the only choice).
    """
    mover = state.to_move
    if mover < 0:
        return {}
    return {name: state.placements_for(name) for name in sorted(state.hands[mover])}


__all__ = [
    "GAME",
    "TILES",
    "Comino",
    "CominoState",
    "Deal",
    "Place",
    "Remove",
    "placements_by_tile",
    "placements_for",
]
