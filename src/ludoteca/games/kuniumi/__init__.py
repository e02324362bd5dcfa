"""Kuniumi (Ignazio Panades): the 6x6 game of the Earth God and the Sea God.

Rules: ``rules/kuniumi.md`` (binding). The engine is :mod:`.state`; its hot bitboard rules
live once in :mod:`.flat`, which :mod:`.jit` also compiles for fast random playouts.
"""

from .game import START_POSITION, Kuniumi
from .state import KuniumiState

GAME = Kuniumi

__all__ = ["GAME", "START_POSITION", "Kuniumi", "KuniumiState"]
