"""Binding notation of Comune: placements, turns and positions, in and out.

Move values are small ints, cheap to hash and to list by the thousand:

- a *placement* code is ``cell * 3 + angle`` (0..182);
- a *turn* is ``0`` for ``pass``, ``1 + x`` for one placement ``x``, and
  ``(1 + x) + 184 * (1 + y)`` for two placements with ``x`` before ``y`` in the binding
  output order (by angle ``-``, ``/``, ``\\``; then by cell, which only a turn that is
  illegal for repeating an angle needs). So each distinct turn has exactly one value.

Parsing here checks form only; whether a turn is legal is for the state to say.
"""

from __future__ import annotations

from ludoteca.core.errors import IllegalPositionError, MalformedError

from . import flat
from .geometry import (
    ANGLE_ALIASES,
    ANGLE_SYMBOLS,
    CELL_NAMES,
    NAME_INDEX,
    NEIGH,
    NUM_CELLS,
    PIECES_PER_PLAYER,
    ROWS,
    cells_of,
)

PASS = flat.PASS_TURN
STRIDE = flat.TURN_STRIDE
"""Multiplier of the second placement in a two-piece turn value."""

PIECE_LETTERS = ("HRF", "hrf")
"""Position letters: ``PIECE_LETTERS[player][angle]`` (Light upper case, Dark lower case)."""

START_POSITION = "5/6/7/8/9/8/7/6/5 L 0"


# --- placements and turns ------------------------------------------------------------------
def placement_code(cell: int, angle: int) -> int:
    return cell * 3 + angle


def placement_to_str(code: int) -> str:
    return CELL_NAMES[code // 3] + ANGLE_SYMBOLS[code % 3]


def _order(code: int) -> tuple[int, int]:
    return code % 3, code // 3


def encode_turn(codes: tuple[int, ...] | list[int]) -> int:
    """The turn value of zero, one or two placement codes (in any order)."""
    if not codes:
        return PASS
    if len(codes) == 1:
        return 1 + codes[0]
    x, y = codes
    if (y % 3) * STRIDE + y // 3 < (x % 3) * STRIDE + x // 3:  # _order, as one int
        x, y = y, x
    return (1 + x) + STRIDE * (1 + y)


def decode_turn(move: object) -> tuple[int, ...]:
    """The placement codes of a turn value; ``MalformedError`` if it is not one."""
    if isinstance(move, bool) or not isinstance(move, int):
        raise MalformedError(
            move, "not a Comune move (a turn in notation, or a value of legal_moves())"
        )
    if move == PASS:
        return ()
    low, high = move % STRIDE, move // STRIDE
    if not 0 <= move < STRIDE * STRIDE or low == 0 or high >= STRIDE:
        raise MalformedError(move, "not a Comune move value")
    if high == 0:
        return (low - 1,)
    return (low - 1, high - 1)


def turn_to_str(move: int) -> str:
    codes = decode_turn(move)
    if not codes:
        return "pass"
    return " ".join(placement_to_str(c) for c in sorted(codes, key=_order))


def parse_placement(token: str, *, whole: str | None = None) -> int:
    """A placement code from text like ``e5-``, ``d4/``, ``f6\\`` or ``e5h``, ``d4r``, ``f6f``."""
    shown = whole if whole is not None else token
    text = token.lower()
    if len(text) < 3:
        raise MalformedError(
            shown, "placement {token!r} must be a cell and an angle, like e5- or d4/", token=token
        )
    cell_text, angle_text = text[:-1], text[-1]
    angle = ANGLE_ALIASES.get(angle_text)
    if angle is None:
        raise MalformedError(
            shown, "placement {token!r} must end with an angle: - / \\ (or h r f)", token=token
        )
    cell = NAME_INDEX.get(cell_text)
    if cell is None:
        raise MalformedError(
            shown,
            "{cell_text!r} is not a cell of the board (a1..e1 up to e9..i9)",
            cell_text=cell_text,
        )
    return placement_code(cell, angle)


def parse_turn(text: object) -> int:
    """A turn value from ``pass``, one placement, or two placements separated by space."""
    if not isinstance(text, str):
        raise MalformedError(text, "a turn is text: 'pass', 'e5-' or 'e5- d4/'")
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return PASS
    if not tokens:
        raise MalformedError(text, "empty turn: write 'pass', 'e5-' or 'e5- d4/'")
    if len(tokens) > 2:
        raise MalformedError(text, "a turn places at most two pieces")
    codes = [parse_placement(t, whole=text) for t in tokens]
    return encode_turn(codes)


# --- positions -----------------------------------------------------------------------------
def format_position(s) -> str:
    """The binding position text of a state array."""
    letters = {}
    for player in (0, 1):
        for angle in range(3):
            for cell in cells_of(s[flat.PIECES + 3 * player + angle]):
                letters[cell] = PIECE_LETTERS[player][angle]
    rows = []
    for row in reversed(ROWS):
        out = []
        run = 0
        for cell in row:
            letter = letters.get(cell)
            if letter is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(letter)
        if run:
            out.append(str(run))
        rows.append("".join(out))
    side = "LD"[s[flat.TO_MOVE]]
    return f"{'/'.join(rows)} {side} {s[flat.PASSES]}"


def _parse_rows(text: str, rows_text: str) -> dict[int, tuple[int, int]]:
    rows = rows_text.split("/")
    if len(rows) != 9:
        raise MalformedError(
            text, "the board needs 9 rows separated by '/', found {count}", count=len(rows)
        )
    pieces: dict[int, tuple[int, int]] = {}
    for number, (row_text, row) in enumerate(zip(rows, reversed(ROWS), strict=True)):
        label = 9 - number
        filled = 0
        previous_digit = False
        for ch in row_text:
            if ch.isdigit():
                if previous_digit:
                    raise MalformedError(text, "row {label}: two digits in a row", label=label)
                if not "1" <= ch <= "9":
                    raise MalformedError(
                        text, "row {label}: empty-run digit {ch!r} must be 1-9", label=label, ch=ch
                    )
                filled += int(ch)
                previous_digit = True
                continue
            previous_digit = False
            for player, letters in enumerate(PIECE_LETTERS):
                if ch in letters:
                    if filled < len(row):
                        pieces[row[filled]] = (player, letters.index(ch))
                    filled += 1
                    break
            else:
                raise MalformedError(
                    text,
                    "row {label}: {ch!r} is neither a digit nor a piece (HRF hrf)",
                    label=label,
                    ch=ch,
                )
        if filled != len(row):
            raise MalformedError(
                text,
                "row {label} has {count} cells, the text describes {filled}",
                label=label,
                count=len(row),
                filled=filled,
            )
    return pieces


def parse_position(text: object) -> list[int]:
    """A state array from binding position text.

    ``MalformedError`` when it does not parse; ``IllegalPositionError`` when it parses but
    no game played by the rules reaches it (too many pieces, two pieces of different colour
    and angle side by side, or a side to move and pass count that cannot follow each other).
    """
    if not isinstance(text, str):
        raise MalformedError(text, "a position is text like '5/6/7/8/9/8/7/6/5 L 0'")
    fields = text.split()
    if len(fields) != 3:
        raise MalformedError(text, "a position has three fields: <rows> <side> <passes>")
    rows_text, side_text, passes_text = fields
    if side_text not in ("L", "D"):
        raise MalformedError(text, "side to move {side_text!r} must be L or D", side_text=side_text)
    if passes_text not in ("0", "1", "2"):
        raise MalformedError(
            text, "passes {passes_text!r} must be 0, 1 or 2", passes_text=passes_text
        )
    pieces = _parse_rows(text, rows_text)

    counts = [0, 0]
    for player, _ in pieces.values():
        counts[player] += 1
    for player in (0, 1):
        if counts[player] > PIECES_PER_PLAYER:
            side = ("Light", "Dark")[player]
            raise IllegalPositionError(
                text,
                "{side} has {counts} pieces on the board, the supply is 35",
                side=side,
                counts=counts[player],
            )

    s = flat.new_slots()
    for cell in sorted(pieces):
        player, angle = pieces[cell]
        flat.put(s, player, cell, angle)
    for cell, (player, angle) in sorted(pieces.items()):
        if s[flat.BLOCKED + 3 * player + angle] >> cell & 1:
            other = next(
                n
                for n in cells_of(NEIGH[cell])
                if n in pieces and pieces[n][0] != player and pieces[n][1] != angle
            )
            raise IllegalPositionError(
                text,
                "{CELL_NAMES} and {CELL_NAMES2} hold pieces that differ in both colour and angle "
                "side by side, which the placement rule never allows",
                CELL_NAMES=CELL_NAMES[cell],
                CELL_NAMES2=CELL_NAMES[other],
            )

    to_move = 0 if side_text == "L" else 1
    passes = int(passes_text)
    _check_turn_order(text, counts, to_move, passes)
    s[flat.TO_MOVE] = to_move
    s[flat.PASSES] = passes
    if passes >= 2 or (not flat.can_place(s, 0) and not flat.can_place(s, 1)):
        s[flat.OVER] = 1
    return s


def _check_turn_order(text: str, counts: list[int], to_move: int, passes: int) -> None:
    """Refuse side/passes combinations no game reaches.

    Light moves first. With ``passes`` 0 the opponent's last turn placed a piece (or no
    turn was played: the start, empty board with Light to move). With 1, the opponent just
    passed after the mover's own placing turn (or Light passed the very first turn). With 2,
    the mover and then the opponent passed after the opponent's placing turn (or both
    passed from the start).
    """
    opponent = 1 - to_move
    empty = counts[0] == 0 and counts[1] == 0
    side = ("Light", "Dark")
    if empty:
        allowed = {(0, 0), (1, 1), (0, 2)}
        if (to_move, passes) not in allowed:
            raise IllegalPositionError(
                text,
                "on an empty board only 'L 0' (the start), 'D 1' (Light passed) or "
                "'L 2' (both passed) can occur",
            )
        return
    if passes in (0, 2) and counts[opponent] == 0:
        raise IllegalPositionError(
            text,
            "{side} has no piece, yet passes {passes} with {side2} to move means {side}'s last "
            "placing turn came just before",
            side=side[opponent],
            passes=passes,
            side2=side[to_move],
        )
    if passes == 1 and counts[to_move] == 0:
        raise IllegalPositionError(
            text,
            "{side} has no piece, yet passes 1 with {side} to move means {side} placed a piece "
            "before {side2}'s pass",
            side=side[to_move],
            side2=side[opponent],
        )


assert len(CELL_NAMES) == NUM_CELLS
