"""The common protocol, registry, records, table, conformance harness and perft."""

from .errors import (
    GameError,
    IllegalMoveError,
    IllegalPositionError,
    MalformedError,
    RecordError,
)
from .protocol import CHANCE, TERMINAL, Game, Move, Result, State
from .registry import get, names

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameError",
    "IllegalMoveError",
    "IllegalPositionError",
    "MalformedError",
    "Move",
    "RecordError",
    "Result",
    "State",
    "get",
    "names",
]
