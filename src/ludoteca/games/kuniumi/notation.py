"""Kuniumi's binding notation: squares, moves and position text (rules file, "Notation").

Parsing here only decides whether text *parses*; what the rules allow is decided by the
engine (:mod:`.state`). Both directions live together so a round trip is easy to see.
"""

from __future__ import annotations

import re

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import N_, Text

from .flat import CHOOSE, MOVE, SQUARES

FILES = "abcdef"
RANKS = "123456"

PIECE_LETTERS = "ESls"
"""Setup piece letters by kind: Earth God, Sea God, Land token, Sea token."""

PIECE_NAMES = (Text("Earth God"), Text("Sea God"), Text("Land token"), Text("Sea token"))
SIDE_NAMES = (Text("land"), Text("sea"))
"""The sides' names: in notation (``choose land``) and, translated, on pages."""
PHASE_NAMES = ("setup", "choose", "play")

_SQUARE = r"([a-fA-F][1-6])"
_PLACEMENT = re.compile(rf"([ESls])@{_SQUARE}")
_GOD_MOVE = re.compile(rf"{_SQUARE}-{_SQUARE}")

MOVE_HELP = N_(
    "set-up: piece@square in the order E, S, l, l, s, s (E@c3, S@d4, l@a1, s@f6); "
    "then 'choose land' or 'choose sea';\n"
    "play: your God's square and where it goes, e.g. c3-c6 (your token is left on c3)."
)


def square_name(square: int) -> str:
    return FILES[square % 6] + RANKS[square // 6]


def parse_square(text: str) -> int:
    """A square index from ``a1``..``f6`` (file letter in either case)."""
    if len(text) != 2 or text[0].lower() not in FILES or text[1] not in RANKS:
        raise MalformedError(text, "a square is a file a-f and a rank 1-6, like c3")
    return RANKS.index(text[1]) * 6 + FILES.index(text[0].lower())


def decode(move: int) -> tuple[str, int, int]:
    """An action as ``("setup", kind, square)``, ``("choose", side, -1)`` or
    ``("move", origin, destination)``: what notation, board cells and labels are made from."""
    if move < CHOOSE:
        kind, square = divmod(move, SQUARES)
        return "setup", kind, square
    if move < MOVE:
        return "choose", move - CHOOSE, -1
    origin, dest = divmod(move - MOVE, SQUARES)
    return "move", origin, dest


def move_to_str(move: int) -> str:
    what, a, b = decode(move)
    if what == "setup":
        return f"{PIECE_LETTERS[a]}@{square_name(b)}"
    if what == "choose":
        return f"choose {SIDE_NAMES[a]}"
    return f"{square_name(a)}-{square_name(b)}"


def str_to_move(text: str) -> int:
    """The action for a move in binding notation; ``MalformedError`` if it does not parse."""
    if not isinstance(text, str):
        raise MalformedError(text, "a move is text in Kuniumi notation")
    stripped = text.strip()
    if m := _PLACEMENT.fullmatch(stripped):
        return PIECE_LETTERS.index(m.group(1)) * SQUARES + parse_square(m.group(2))
    if m := _GOD_MOVE.fullmatch(stripped):
        return MOVE + SQUARES * parse_square(m.group(1)) + parse_square(m.group(2))
    words = stripped.lower().split()
    if len(words) == 2 and words[0] == "choose" and words[1] in SIDE_NAMES:
        return CHOOSE + SIDE_NAMES.index(words[1])
    raise MalformedError(
        text,
        "not Kuniumi notation: a set-up placement is piece@square (E@c3), the choice is "
        "'choose land' or 'choose sea', a move is the God's square and its destination (c3-c6)",
    )


# --- positions ------------------------------------------------------------------------------
def board_to_rows(land: int, sea: int, earth_god: int, sea_god: int) -> str:
    """The ``<rows>`` field: ranks 6 down to 1, files a..f, digits for empty runs."""
    ranks = []
    for rank in range(5, -1, -1):
        text = ""
        run = 0
        for file in range(6):
            bit = 1 << (rank * 6 + file)
            if not (land | sea) & bit:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            if bit == earth_god:
                text += "E"
            elif bit == sea_god:
                text += "S"
            elif land & bit:
                text += "l"
            else:
                text += "s"
        if run:
            text += str(run)
        ranks.append(text)
    return "/".join(ranks)


def parse_rows(field: str, whole: str) -> tuple[dict[str, int], dict[str, int]]:
    """Boards by piece letter and counts by piece letter from the ``<rows>`` field.

    A rank holds exactly six squares; a run of empty squares is one digit 1-6 (two digits in
    a row are refused, as python-chess refuses them in FEN, so every position has exactly
    one spelling).
    """
    ranks = field.split("/")
    if len(ranks) != 6:
        raise MalformedError(
            whole, "the board has 6 ranks separated by '/', found {count}", count=len(ranks)
        )
    boards = dict.fromkeys(PIECE_LETTERS, 0)
    counts = dict.fromkeys(PIECE_LETTERS, 0)
    for i, rank_text in enumerate(ranks):
        rank = 5 - i
        file = 0
        previous_digit = False
        for ch in rank_text:
            if ch in "123456":
                if previous_digit:
                    raise MalformedError(
                        whole,
                        "rank {rank}: two digits in a row ({rank_text!r}); write one digit per "
                        "run of empty squares",
                        rank=rank + 1,
                        rank_text=rank_text,
                    )
                file += int(ch)
                previous_digit = True
            elif ch in PIECE_LETTERS:
                if file < 6:
                    boards[ch] |= 1 << (rank * 6 + file)
                counts[ch] += 1
                file += 1
                previous_digit = False
            else:
                raise MalformedError(
                    whole,
                    "rank {rank}: {ch!r} is not a piece (E, l, S, s) or a digit 1-6",
                    rank=rank + 1,
                    ch=ch,
                )
            if file > 6:
                raise MalformedError(
                    whole,
                    "rank {rank} ({rank_text!r}) has more than 6 squares",
                    rank=rank + 1,
                    rank_text=rank_text,
                )
        if file != 6:
            raise MalformedError(
                whole,
                "rank {rank} ({rank_text!r}) has {file} squares, a rank has 6",
                rank=rank + 1,
                rank_text=rank_text,
                file=file,
            )
    return boards, counts
