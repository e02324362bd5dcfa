"""Hexagone: two colour dice, a block of 42 hexagons, swaps that make groups of three.

Rules: ``rules/hexagone.md`` (binding). 1 to 4 players (``players`` option); one player is
the solo puzzle of 15 rolls. Option ``gaps`` lets the start block enclose empty cells.
"""

from .game import HexagoneGame
from .state import HexagoneState

GAME = HexagoneGame

__all__ = ["GAME", "HexagoneGame", "HexagoneState"]
