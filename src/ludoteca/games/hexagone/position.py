"""The binding JSON position: printing it canonically and parsing it strictly.

Parsing tells apart text that does not parse (``MalformedError``: not JSON, a missing key,
a wrong type, a bad cell or colour) from a position that parses but cannot occur in a game
played by the rules (``IllegalPositionError``: wrong piece counts, a split block outside a
reform, a reform that cannot be completed, fields that contradict the phase).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ludoteca.core.errors import IllegalPositionError, MalformedError

from .geometry import cell_to_str, group, parse_cell, sections
from .notation import COLOURS, PIECES_PER_COLOUR, WHITE, parse_roll
from .reform import ReformSearch
from .state import (
    MAIN_PHASE,
    NO_CAPTURE_LIMIT,
    OVER,
    PHASES,
    REFORM,
    ROLL_PHASE,
    SECOND,
    SMALL_BLOCK,
    SOLO_ROLLS,
    SWAP_PHASE,
    HexagoneState,
    _feasible_mains,
    position_text,
)

__all__ = ["KEYS", "parse_position", "position_text"]

KEYS = (
    "captured",
    "cells",
    "dice",
    "phase",
    "pool",
    "rolled_this_turn",
    "rolls_left",
    "since_capture",
    "to_move",
)


def _int(data: dict, key: str, text: str, low: int, high: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError(text, "{key!r} must be an integer", key=key)
    if not low <= value <= high:
        raise MalformedError(
            text, "{key!r} must be between {low} and {high}", key=key, low=low, high=high
        )
    return value


def _colour_list(value: Any, key: str, text: str) -> list[int]:
    if not isinstance(value, list):
        raise MalformedError(text, "{key!r} must be a list of colour letters", key=key)
    counts = [0] * 7
    for letter in value:
        if not isinstance(letter, str) or len(letter) != 1 or letter not in COLOURS:
            raise MalformedError(
                text,
                "{key!r} holds {letter!r}, not a colour (R O Y G B P W)",
                key=key,
                letter=letter,
            )
        counts[COLOURS.index(letter)] += 1
    return counts


@dataclass
class _Fields:
    """The position's fields once each parses, before the checks across them."""

    text: str
    captured: list[list[int]]
    cells: dict[int, int]
    phase: str
    dice: tuple[int, int] | None
    pool: list[int]
    rolled: int
    rolls_left: int | None
    since: int
    player: int

    @property
    def n(self) -> int:
        return len(self.captured)

    def illegal(self, reason: str) -> IllegalPositionError:
        return IllegalPositionError(self.text, reason)


def parse_position(game, text: str) -> HexagoneState:
    """A state from position text; the number of players is the length of ``captured``.

    Each field is read on its own (:func:`_read_fields`), then the checks across fields run
    in the order of the rules file: the pieces, the groups, then what the phase requires."""
    f = _read_fields(text)
    _check_pieces(f)
    counts = [0] * 7
    for k in f.cells.values():
        counts[k] += 1
    _check_groups(f)
    parts = sections(f.cells)
    if f.phase in (ROLL_PHASE, SWAP_PHASE, SECOND):
        _check_turn(f, counts, parts)
    elif f.phase == MAIN_PHASE:
        _check_main(f, parts)
    elif f.phase == REFORM:
        _check_reform(f, parts)
    elif f.phase == OVER:
        _check_ended(
            f.cells, counts, f.pool, parts, f.since, f.rolled, f.n, f.rolls_left, f.illegal
        )
    if f.phase in (MAIN_PHASE, REFORM) and f.n == 1 and f.rolled > 1:
        raise f.illegal("the solo puzzle has no second roll")
    state = HexagoneState(
        game,
        f.cells,
        phase=f.phase,
        dice=f.dice,
        pool=f.pool,
        captured=f.captured,
        rolled=f.rolled,
        rolls_left=f.rolls_left,
        since=f.since,
        player=f.player,
    )
    if f.phase == OVER:
        state.reason = state.derived_reason()
    return state


def _read_json(text: object) -> dict:
    if not isinstance(text, str):
        raise MalformedError(text, "a Hexagone position is JSON text")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise MalformedError(text, "not valid JSON ({why})", why=why) from None
    except ValueError:  # a number of thousands of digits: no count in a position is that big
        raise MalformedError(text, "a number in the position is far too long") from None
    if not isinstance(data, dict):
        raise MalformedError(text, "a Hexagone position is a JSON object")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise MalformedError(text, "missing key(s): {missing}", missing=", ".join(missing))
    extra = sorted(set(data) - set(KEYS))
    if extra:
        raise MalformedError(text, "unknown key(s): {map}", map=", ".join(map(str, extra)))
    return data


def _read_cells(cells_raw: object, text: str) -> dict[int, int]:
    if not isinstance(cells_raw, dict):
        raise MalformedError(text, "'cells' must be an object mapping \"q,r\" to a colour")
    cells: dict[int, int] = {}
    for key, letter in cells_raw.items():
        try:
            c = parse_cell(key)
        except MalformedError as exc:
            raise MalformedError(text, "cell {key!r}: {why}", key=key, why=exc.text) from None
        if not isinstance(letter, str) or len(letter) != 1 or letter not in COLOURS:
            raise MalformedError(
                text,
                "cell {key!r} holds {letter!r}, not a colour (R O Y G B P W)",
                key=key,
                letter=letter,
            )
        if c in cells:
            raise MalformedError(
                text, "cell {cell_to_str} is listed twice", cell_to_str=cell_to_str(c)
            )
        cells[c] = COLOURS.index(letter)
    return cells


def _read_fields(text: str) -> _Fields:
    """Every field parsed and in its range, or ``MalformedError`` naming it."""
    data = _read_json(text)
    captured_raw = data["captured"]
    if not isinstance(captured_raw, list) or not 1 <= len(captured_raw) <= 4:
        raise MalformedError(text, "'captured' must be a list of 1 to 4 lists (one per player)")
    captured = [_colour_list(p, "captured", text) for p in captured_raw]
    cells = _read_cells(data["cells"], text)
    phase = data["phase"]
    if phase not in PHASES:
        raise MalformedError(text, "'phase' must be one of {PHASES}", PHASES=", ".join(PHASES))
    dice_raw = data["dice"]
    dice = None
    if dice_raw is not None:
        if not isinstance(dice_raw, str):
            raise MalformedError(text, "'dice' must be a roll like \"RG\" or null")
        dice = parse_roll(dice_raw, text)
    pool = _colour_list(data["pool"], "pool", text)
    rolled = _int(data, "rolled_this_turn", text, 0, 2)
    rolls_left_raw = data["rolls_left"]
    rolls_left = None if rolls_left_raw is None else _int(data, "rolls_left", text, 0, SOLO_ROLLS)
    since = _int(data, "since_capture", text, 0, NO_CAPTURE_LIMIT)
    player = _int(data, "to_move", text, 0, len(captured) - 1)
    return _Fields(text, captured, cells, phase, dice, pool, rolled, rolls_left, since, player)


def _check_pieces(f: _Fields) -> None:
    """Every piece is somewhere, the counts fit the number of players and the phase."""
    n, captured, pool = f.n, f.captured, f.pool
    for k in range(7):
        on_table = sum(1 for v in f.cells.values() if v == k)
        total = sum(p[k] for p in captured) + pool[k] + on_table
        if total != PIECES_PER_COLOUR:
            raise f.illegal(
                f"there must be {PIECES_PER_COLOUR} {COLOURS[k]} pieces in all "
                f"(block, pool and captured piles), found {total}"
            )
    if n == 1 and f.rolls_left is None:
        raise f.illegal("the solo puzzle counts its rolls: 'rolls_left' must be a number")
    if n > 1 and f.rolls_left is not None:
        raise f.illegal("'rolls_left' is null with 2 to 4 players")
    if n == 4 and captured[3][WHITE] < 1:
        raise f.illegal("in a 4-player game the fourth player holds the set-aside white piece")
    if (f.dice is not None) != (f.phase == SWAP_PHASE):
        raise f.illegal("'dice' holds the roll in phase swap and is null otherwise")
    if f.phase == REFORM and not any(pool):
        raise f.illegal("in phase reform the pool holds the pieces to place back")
    if f.phase not in (REFORM, OVER) and any(pool):
        raise f.illegal("the pool holds pieces only while reforming (or after a reform failed)")
    for p, pile in enumerate(captured):
        # Pieces are captured in groups of three or more: a pile holds none, or three or
        # more (beside the 4-player white handicap). Not checked: that each colour of a pile
        # comes in threes (hand-set positions in the rules tests rely on that freedom).
        got = sum(pile) - (1 if n == 4 and p == 3 else 0)
        if 0 < got < 3:
            raise f.illegal(
                f"player {p + 1} has {got} captured piece(s): pieces are captured in groups "
                "of three or more"
            )
    if f.phase != OVER and f.since >= NO_CAPTURE_LIMIT:
        raise f.illegal(f"the game ends after {NO_CAPTURE_LIMIT} turns without a capture")


def _check_groups(f: _Fields) -> None:
    """No group of three or more of one colour stands: it is captured as soon as it forms."""
    cells = f.cells
    seen: set[int] = set()
    for c in sorted(cells):
        if c not in seen:
            g = group(cells, c)
            seen.update(g)
            if len(g) >= 3:
                raise f.illegal(
                    f"{len(g)} touching {COLOURS[cells[c]]} pieces at {cell_to_str(min(g))}: "
                    "a group of three or more is captured as soon as it forms"
                )


def _check_turn(f: _Fields, counts: list[int], parts: list) -> None:
    """Phases roll, swap and second: nothing has been captured yet this turn, so the block
    is as a turn starts."""
    phase, rolled, n = f.phase, f.rolled, f.n
    if len(parts) != 1:
        raise f.illegal(f"the block must be in one piece in phase {phase}")
    if len(f.cells) <= SMALL_BLOCK:
        raise f.illegal(f"a block of {SMALL_BLOCK} or fewer pieces ends the game")
    if max(counts) < 3:
        raise f.illegal("with no colour of three pieces left the game is over")
    if n == 1 and (rolled > 1 or phase == SECOND or phase == ROLL_PHASE and rolled):
        raise f.illegal("the solo puzzle has no second roll")
    if phase == ROLL_PHASE and rolled > 1:
        raise f.illegal("at most one roll is taken before the roll phase of a turn")
    if phase in (SWAP_PHASE, SECOND) and rolled == 0:
        raise f.illegal(f"phase {phase} comes after a roll: 'rolled_this_turn' is 1 or 2")
    if phase == SECOND and rolled != 1:
        raise f.illegal("the choice of a second roll follows the first roll")
    if phase == ROLL_PHASE and n == 1 and f.rolls_left == 0:
        raise f.illegal("the solo puzzle has no rolls left")
    if phase == SWAP_PHASE and not (counts[f.dice[0]] or counts[f.dice[1]]):  # type: ignore[index]
        raise f.illegal("the roll names no colour in the block (it would be retaken)")


def _check_main(f: _Fields, parts: list) -> None:
    sizes = sorted((len(p) for p in parts), reverse=True)
    if len(sizes) < 2 or sizes[0] != sizes[1]:
        raise f.illegal("phase main needs several sections of the largest size")
    if f.rolled == 0:
        raise f.illegal("a capture (after a roll) comes before naming the main block")
    if not _feasible_mains(f.cells):
        raise f.illegal("no main block can be reformed, so the game would be over")


def _check_reform(f: _Fields, parts: list) -> None:
    if len(parts) != 1:
        raise f.illegal("the main block must be in one piece while reforming")
    if f.rolled == 0:
        raise f.illegal("a capture (after a roll) comes before reforming")
    if not ReformSearch(f.cells, f.pool).feasible():
        raise f.illegal("the pool cannot be placed back, so the game would be over")


def _check_ended(cells, counts, pool, parts, since, rolled, n, rolls_left, illegal) -> None:
    """A position in phase ``over`` must be one the rules end (**Decision (ended games)**).

    Checked: ``rolled_this_turn`` is 0; after an impossible reform only the main block is on
    the table, the pool holds the rest, it cannot be placed back, and the capture reset
    ``since_capture``; with several sections on the table they tie for the largest and none
    can be reformed; a block in one piece ends the game by its size, its colours, the turns
    without a capture or (solo) the rolls used up. Not checked: that the pool's pieces could
    have formed the smaller sections before the capture."""
    if rolled != 0:
        raise illegal("in phase over 'rolled_this_turn' is 0")
    if any(pool):
        if len(parts) != 1:
            raise illegal("after an impossible reform only the main block stays on the table")
        if since != 0:
            raise illegal("the capture before an impossible reform sets 'since_capture' to 0")
        if ReformSearch(cells, pool).feasible():
            raise illegal("this pool can be placed back: the game would go on")
        return
    if len(parts) > 1:
        sizes = sorted((len(p) for p in parts), reverse=True)
        if sizes[0] != sizes[1]:
            raise illegal(
                "a block in several sections ends the game only when the largest ones tie "
                "(else the smaller sections are in the pool)"
            )
        if since != 0:
            raise illegal("the capture that split the block sets 'since_capture' to 0")
        if _feasible_mains(cells):
            raise illegal("a main block can be reformed: the game would go on")
        return
    if not (
        len(cells) <= SMALL_BLOCK
        or max(counts) < 3
        or since >= NO_CAPTURE_LIMIT
        or (n == 1 and rolls_left == 0)
    ):
        raise illegal(
            f"nothing ends this game: phase over needs a block of {SMALL_BLOCK} or fewer "
            f"pieces, no colour with three pieces, {NO_CAPTURE_LIMIT} turns without a capture, "
            "or (solo) no rolls left"
        )
