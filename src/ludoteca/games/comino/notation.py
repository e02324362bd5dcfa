"""Comino's binding notation: moves, and the position text.

**Moves.** Three kinds of move, each its own class so that ``remove BRYY`` and ``deal BRYY``
are never equal: a placement ``TILE@x,y`` (the tile as it lies on the table), a forced
removal ``remove NAME`` and a chance draw ``deal NAME``. Parsing only checks the form (and
that the tile is one of the 23); whether the move is allowed is for the state to say.

**Positions**: ``<board> <hand1> <hand2> <score1> <score2> <to-move>``. The binding format
describes a game after the deal (``<to-move>`` is ``1`` or ``2``). So that every state of a
game can be written down and read back (records begin at the start state, and the
conformance harness round-trips positions during the deal too), positions during the deal
use the same fields with ``<to-move>`` = ``deal``; before the first draw the board is ``-``.
Example start state: ``- YYYY RRRR 0 0 deal``.

Parsing checks the form (``MalformedError``) and then that the position can occur in a
game played by the rules (``IllegalPositionError``): 23 distinct tiles at most, the start
tile at ``(0, 0)`` in the orientation of its name, a table joined side to side with every
grid point single-coloured, hand sizes matching whose turn it is, and so on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ludoteca.core.errors import IllegalPositionError, MalformedError

from .geometry import (
    COLOURS,
    CORNER_OFFSETS,
    FIRST_TILE,
    SECOND_TILE,
    SIDE_OFFSETS,
    TILE_SET,
    name_of,
)


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
        raise MalformedError(
            shown, "{tile} is not a Comino tile (there is no complete blue tile)", tile=tile
        )
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


HAND_SIZE = 11
TURNS = 22
DRAWS = 21

_ENTRY = re.compile(r"([A-Za-z]{4})@([+-]?[0-9]{1,6}),([+-]?[0-9]{1,6})")
_SCORE = re.compile(r"[0-9]{1,6}")


@dataclass
class ParsedPosition:
    board: dict[tuple[int, int], str]
    hands: tuple[set[str], set[str]]
    scores: tuple[int, int]
    dealing: bool
    to_move: int  # 0 or 1 after the deal; 0 during the deal (unused)


def format_position(
    board: dict[tuple[int, int], str],
    hands: tuple[set[str], set[str]] | list[set[str]],
    scores: tuple[int, int] | list[int],
    dealing: bool,
    to_move: int,
) -> str:
    """The canonical text: board sorted by ``(x, y)``, hands sorted."""
    cells = ";".join(f"{t}@{x},{y}" for (x, y), t in sorted(board.items())) or "-"
    h1, h2 = (",".join(sorted(h)) or "-" for h in hands)
    mover = "deal" if dealing else str(to_move + 1)
    return f"{cells} {h1} {h2} {scores[0]} {scores[1]} {mover}"


def _parse_hand(text: str, which: int) -> list[str]:
    if text == "-":
        return []
    names = []
    for part in text.split(","):
        if not part:
            raise MalformedError(text, "hand {which}: empty tile name between commas", which=which)
        names.append(name_of(parse_tile(part)))
    return names


def parse_position(text: str) -> ParsedPosition:
    if not isinstance(text, str):
        raise MalformedError(text, "a Comino position is text")
    fields = text.split()
    if len(fields) != 6:
        raise MalformedError(
            text,
            "a Comino position has six fields: <board> <hand1> <hand2> <score1> <score2> "
            "<to-move>, found {count}",
            count=len(fields),
        )
    board_text, h1_text, h2_text, s1_text, s2_text, mover = fields

    board: dict[tuple[int, int], str] = {}
    placed: list[str] = []
    if board_text != "-":
        for entry in board_text.split(";"):
            m = _ENTRY.fullmatch(entry)
            if not m:
                raise MalformedError(entry, "a board entry is TILE@x,y, e.g. YRBB@1,0")
            tile = parse_tile(m.group(1), entry)
            square = (int(m.group(2)), int(m.group(3)))
            if square in board:
                raise IllegalPositionError(
                    text,
                    "two tiles on square {square},{square2}",
                    square=square[0],
                    square2=square[1],
                )
            board[square] = tile
            placed.append(name_of(tile))
    hands_list = (_parse_hand(h1_text, 1), _parse_hand(h2_text, 2))
    scores = []
    for s in (s1_text, s2_text):
        if not _SCORE.fullmatch(s):
            raise MalformedError(s, "a score is a whole number of points, 0 or more")
        scores.append(int(s))
    if mover not in ("1", "2", "deal"):
        raise MalformedError(mover, "<to-move> is 1 or 2 (or 'deal' during the deal)")

    every = placed + hands_list[0] + hands_list[1]
    for name in set(every):
        if every.count(name) > 1:
            raise IllegalPositionError(
                text, "tile {name} appears {count} times", name=name, count=every.count(name)
            )
    hands = (set(hands_list[0]), set(hands_list[1]))
    if FIRST_TILE in hands[1]:
        raise IllegalPositionError(
            text, "{FIRST_TILE} is player 1's tile, not in hand 2", FIRST_TILE=FIRST_TILE
        )
    if SECOND_TILE in hands[0]:
        raise IllegalPositionError(
            text, "{SECOND_TILE} is player 2's tile, not in hand 1", SECOND_TILE=SECOND_TILE
        )
    for which, hand in (1, hands[0]), (2, hands[1]):
        if len(hand) > HAND_SIZE:
            raise IllegalPositionError(
                text, "hand {which} holds {count} tiles, at most 11", which=which, count=len(hand)
            )

    dealing = mover == "deal"
    if dealing:
        _check_deal(text, board, hands, scores)
        return ParsedPosition(board, hands, (0, 0), True, 0)

    if not board:
        raise IllegalPositionError(text, "after the deal the start tile lies at 0,0")
    _check_board(text, board)
    n1, n2 = len(hands[0]), len(hands[1])
    to_move = int(mover) - 1
    if n1 - n2 not in (0, -1) or (n1 == n2) != (to_move == 0):
        raise IllegalPositionError(
            text,
            "hands of {n1} and {n2} tiles with player {to_move} to move: each turn uses one tile, "
            "player 1 first, so player 1 holds as many tiles as player 2 when player 1 is to move "
            "and one fewer when player 2 is",
            n1=n1,
            n2=n2,
            to_move=to_move + 1,
        )
    turns = TURNS - n1 - n2
    if len(board) - 1 > turns:
        raise IllegalPositionError(
            text,
            "{count} tiles placed but only {turns} turns played",
            count=len(board) - 1,
            turns=turns,
        )
    if turns == 0 and any(scores):
        raise IllegalPositionError(text, "scores before the first turn must be 0")
    placements = len(board) - 1
    if sum(scores) < placements:
        # A placed tile shares a side, so two corner points, with a tile on the table: the
        # area of each shared colour holds that tile, and the placement scores at least 1.
        raise IllegalPositionError(
            text,
            "{placements} tiles placed score at least {placements} points in all (each shares a "
            "colour with a tile it touches), not {sum}",
            placements=placements,
            sum=sum(scores),
        )
    return ParsedPosition(board, hands, (scores[0], scores[1]), False, to_move)


def _check_deal(text: str, board, hands, scores) -> None:
    if any(scores):
        raise IllegalPositionError(text, "nobody scores during the deal")
    if FIRST_TILE not in hands[0] or SECOND_TILE not in hands[1]:
        raise IllegalPositionError(
            text,
            "during the deal player 1 holds {FIRST_TILE} and player 2 {SECOND_TILE}",
            FIRST_TILE=FIRST_TILE,
            SECOND_TILE=SECOND_TILE,
        )
    if not board:
        if len(hands[0]) > 1 or len(hands[1]) > 1:
            raise IllegalPositionError(text, "the start tile is drawn before the hands")
        return
    if len(board) != 1 or (0, 0) not in board:
        raise IllegalPositionError(text, "during the deal the table holds only the start tile")
    _check_board(text, board)
    if len(hands[1]) > 1 and len(hands[0]) < HAND_SIZE:
        raise IllegalPositionError(text, "player 1's ten tiles are dealt before player 2's")
    if len(hands[1]) == HAND_SIZE:
        raise IllegalPositionError(text, "the deal is complete: <to-move> must be 1")


def _check_board(text: str, board: dict[tuple[int, int], str]) -> None:
    """Start tile at the origin as named, every point one colour, joined side to side."""
    start = board.get((0, 0))
    if start is None:
        raise IllegalPositionError(text, "the start tile lies at 0,0")
    if start != name_of(start):
        raise IllegalPositionError(
            text,
            "the start tile lies in the orientation of its name ({name_of}), not {start}",
            name_of=name_of(start),
            start=start,
        )
    colour_at: dict[tuple[int, int], tuple[str, tuple[int, int]]] = {}
    for (x, y), tile in board.items():
        for (dx, dy), colour in zip(CORNER_OFFSETS, tile, strict=True):
            point = (x + dx, y + dy)
            seen = colour_at.setdefault(point, (colour, (x, y)))
            if seen[0] != colour:
                ox, oy = seen[1]
                raise IllegalPositionError(
                    text,
                    "grid point {point},{point2} is {seen} for the tile at {ox},{oy} but {colour} "
                    "for the tile at {x},{y}",
                    point=point[0],
                    point2=point[1],
                    seen=seen[0],
                    ox=ox,
                    oy=oy,
                    colour=colour,
                    x=x,
                    y=y,
                )
    reached = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, y = stack.pop()
        for dx, dy in SIDE_OFFSETS:
            n = (x + dx, y + dy)
            if n in board and n not in reached:
                reached.add(n)
                stack.append(n)
    if len(reached) != len(board):
        lost = min(set(board) - reached)
        raise IllegalPositionError(
            text,
            "the tile at {lost},{lost2} is not joined side to side to the start tile",
            lost=lost[0],
            lost2=lost[1],
        )
