"""Comino moves and their binding notation.

Three kinds of move, each its own class so that ``remove BRYY`` and ``deal BRYY`` are never
equal: a placement ``TILE@x,y`` (the tile as it lies on the table), a forced removal
``remove NAME`` and a chance draw ``deal NAME``. Parsing only checks the form (and that the
tile is one of the 23); whether the move is allowed is for the state to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ludoteca.core.errors import MalformedError

from .tiles import COLOURS, TILE_SET, name_of


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Put ``tile`` (in this orientation) on square ``(x, y)``."""

    tile: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.x},{self.y}"


@dataclass(frozen=True, slots=True, order=True)
class Remove:
    """Take tile ``name`` out of the game (only when no tile of the hand fits anywhere)."""

    name: str

    def __str__(self) -> str:
        return f"remove {self.name}"


@dataclass(frozen=True, slots=True, order=True)
class Deal:
    """A chance draw: tile ``name`` is the start tile or goes to the hand being dealt."""

    name: str

    def __str__(self) -> str:
        return f"deal {self.name}"


CominoMove = Place | Remove | Deal

_PLACE = re.compile(r"([A-Za-z]{4})\s*@\s*([+-]?[0-9]{1,6})\s*,\s*([+-]?[0-9]{1,6})")
_NAMED = re.compile(r"(remove|deal)\s+([A-Za-z]{4})", re.IGNORECASE)


def parse_tile(text: str, source: str | None = None) -> str:
    """Four corner colours (any case) that form one of the 23 tiles, upper-cased."""
    tile = text.upper()
    shown = source if source is not None else text
    if len(tile) != 4 or any(c not in COLOURS for c in tile):
        raise MalformedError(shown, "a tile is four corner colours from B, R, Y, e.g. YYRB")
    if name_of(tile) not in TILE_SET:
        raise MalformedError(shown, f"{tile} is not a Comino tile (there is no complete blue tile)")
    return tile


def parse_move(text: str) -> CominoMove:
    """Parse ``TILE@x,y``, ``remove NAME`` or ``deal NAME``; ``MalformedError`` otherwise.

    Removals and draws accept the tile in any rotation and store its name.
    """
    if not isinstance(text, str):
        raise MalformedError(text, "a Comino move is text such as YRBB@1,0 or remove BRYY")
    stripped = text.strip()
    m = _PLACE.fullmatch(stripped)
    if m:
        return Place(parse_tile(m.group(1), text), int(m.group(2)), int(m.group(3)))
    m = _NAMED.fullmatch(stripped)
    if m:
        name = name_of(parse_tile(m.group(2), text))
        return Remove(name) if m.group(1).lower() == "remove" else Deal(name)
    raise MalformedError(
        text, "a Comino move is TILE@x,y (e.g. YRBB@1,0), remove NAME or deal NAME"
    )
