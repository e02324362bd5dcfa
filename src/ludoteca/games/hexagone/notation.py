"""Colours, rolls and moves in the binding notation of the rules file.

Move values are small tuples tagged by their first element, cheap to build, hash and
compare in the playout loop:

- ``(ROLL, a, b)``: a roll, die colours ``a <= b`` (indices into :data:`COLOURS`);
- ``(SWAP, c1, c2)``: exchange the pieces on cells ``c1 < c2``;
- ``(AGAIN,)`` / ``(STOP,)``: take the second roll, or end the turn;
- ``(MAIN, c)``: choose the section whose lowest cell is ``c`` as the main block;
- ``(PLACE, colour, c)``: put a pool piece of ``colour`` on the empty cell ``c``.
"""

from __future__ import annotations

from ludoteca.core.errors import MalformedError

from .geometry import cell_to_str, parse_cell

COLOURS = "ROYGBPW"
"""Colour letters in the binding order; a colour is its index here."""
WHITE = 6
DIE_FACES = 6
"""The dice carry the first six colours: white has no face."""
PIECES_PER_COLOUR = 6

ROLL, SWAP, AGAIN, STOP, MAIN, PLACE = range(6)

ROLLS = tuple((ROLL, a, b) for a in range(DIE_FACES) for b in range(a, DIE_FACES))
"""The 21 distinct rolls, in notation order."""

_KEYWORDS = ("roll", "swap", "again", "stop", "main", "place")


def colour_index(letter: str, text: str) -> int:
    i = COLOURS.find(letter.upper()) if len(letter) == 1 else -1
    if i < 0:
        raise MalformedError(text, "{letter!r} is not a colour (R O Y G B P W)", letter=letter)
    return i


def roll_to_str(a: int, b: int) -> str:
    return COLOURS[a] + COLOURS[b]


def parse_roll(word: str, text: str) -> tuple[int, int]:
    """Two die colours in either order, e.g. ``RG`` or ``GR``."""
    if len(word) != 2:
        raise MalformedError(text, "a roll is two die colours, e.g. RG or YY")
    a, b = colour_index(word[0], text), colour_index(word[1], text)
    if a == WHITE or b == WHITE:
        raise MalformedError(text, "white is not on the dice (faces R O Y G B P)")
    return (a, b) if a <= b else (b, a)


def move_to_str(move: tuple) -> str:
    kind = move[0]
    if kind == SWAP:
        return f"swap {cell_to_str(move[1])} {cell_to_str(move[2])}"
    if kind == ROLL:
        return "roll " + roll_to_str(move[1], move[2])
    if kind == PLACE:
        return f"place {COLOURS[move[1]]} {cell_to_str(move[2])}"
    if kind == MAIN:
        return f"main {cell_to_str(move[1])}"
    if kind == AGAIN:
        return "again"
    if kind == STOP:
        return "stop"
    raise MalformedError(move, "not a Hexagone move")


def parse_move(text: str) -> tuple:
    """Parse notation (keywords and colours in any case); legality is not checked here."""
    if not isinstance(text, str):
        raise MalformedError(text, "a move is text in Hexagone notation")
    words = text.split()
    if not words:
        raise MalformedError(text, "empty move; moves are {FORMS}", FORMS=FORMS)
    key = words[0].lower()
    args = words[1:]
    shape = {"roll": 1, "swap": 2, "again": 0, "stop": 0, "main": 1, "place": 2}
    if key not in shape:
        raise MalformedError(
            text,
            "unknown move {words!r}; moves start with {KEYWORDS}",
            words=words[0],
            KEYWORDS=", ".join(_KEYWORDS),
        )
    if len(args) != shape[key]:
        raise MalformedError(
            text,
            "{word!r} takes {count} argument(s); moves are {FORMS}",
            word=key,
            count=shape[key],
            FORMS=FORMS,
        )
    if key == "roll":
        a, b = parse_roll(args[0], text)
        return (ROLL, a, b)
    if key == "swap":
        c1, c2 = _cell(args[0], text), _cell(args[1], text)
        if c1 == c2:
            raise MalformedError(text, "a swap names two different cells")
        return (SWAP, min(c1, c2), max(c1, c2))
    if key == "again":
        return (AGAIN,)
    if key == "stop":
        return (STOP,)
    if key == "main":
        return (MAIN, _cell(args[0], text))
    return (PLACE, colour_index(args[0], text), _cell(args[1], text))


def _cell(word: str, text: str) -> int:
    try:
        return parse_cell(word)
    except MalformedError as exc:
        raise MalformedError(text, exc.reason) from None


FORMS = "roll RG, swap q,r q,r, again, stop, main q,r, place C q,r (C one of R O Y G B P W)"
"""Every move's form in the notation: words no language translates."""
