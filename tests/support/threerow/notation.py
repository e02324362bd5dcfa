"""Squares ``a1``..``c3`` (file, rank), moves as square names, positions as nine characters
(rank 3 first, ``x``, ``o`` or ``.``) then a space and the mark to move."""

from __future__ import annotations

from ludoteca.core.errors import MalformedError

FILES = "abc"
RANKS = "123"
MARKS = "xo"


def square_name(square: int) -> str:
    return FILES[square % 3] + RANKS[square // 3]


def parse_square(text: object) -> int:
    if not isinstance(text, str):
        raise MalformedError(text, "a move is a square name such as b2")
    word = text.strip().lower()
    if len(word) != 2 or word[0] not in FILES or word[1] not in RANKS:
        raise MalformedError(text, "a square is a file a-c and a rank 1-3, like b2")
    return RANKS.index(word[1]) * 3 + FILES.index(word[0])


def format_position(cells: list[str], to_move: int) -> str:
    rows = ["".join(cells[r * 3 : r * 3 + 3]) for r in (2, 1, 0)]
    return "/".join(rows) + " " + MARKS[to_move]


def parse_position(text: object) -> tuple[list[str], int]:
    if not isinstance(text, str):
        raise MalformedError(text, "a position is text such as x../.o./... x")
    parts = text.split()
    if len(parts) != 2 or parts[1] not in MARKS:
        raise MalformedError(text, "a position is three rows and the mark to move: x../.o./... x")
    rows = parts[0].split("/")
    if len(rows) != 3 or any(len(r) != 3 or set(r) - set("xo.") for r in rows):
        raise MalformedError(text, "three rows of three of x, o or . separated by /")
    cells = [c for r in reversed(rows) for c in r]
    return cells, MARKS.index(parts[1])
