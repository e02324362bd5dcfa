"""Game records: a game is its moves (principle 2 of ``docs/ARCHITECTURE.md``).

A record is JSON holding the game id, rules version, options, the seed, the start position
where the game's set-up is random (so a record survives a change of generator), the players,
every move in binding notation (chance outcomes included), the result and timestamps.

A record verifies completely or is refused with the field and the reason
(:class:`RecordError`). What is checked:

- **Shape** (:meth:`Record.from_json`): a JSON object of known fields only, ``format`` and
  ``format_version`` this module's, each field of its type (a seed is an integer, not
  ``true``; players are strings), numbers within what JSON readers agree on.
- **Options and rules version** (:func:`start_state`): the game's own validation of its
  options (an unknown option or a number of players the game is not for is refused), and
  the rules version this engine implements.
- **Seed against start**: with both a seed and a start position, the start must be the one
  the seed sets up (Hexagone's block; the other games' set-up has no chance, so any seed
  gives their empty board).
- **Seed against chance outcomes**: with a seed, every dice roll and deal in the moves must
  be the one the table draws from that seed, under one of the two ways tables draw: the
  club's (a generator per ply derived from the seed, :func:`ludoteca.core.table.ply_rng`)
  or the command line's and the arena's (one generator seeded once, drawn in order). A
  record without a seed (written by hand, say) has its outcomes checked for legality only.
- **Every move** through the engine (:func:`replay`), refused with its number and reason.
- **The result**, rebuilt from the replayed game and compared field by field: a finished
  game must say so and a game in progress must not; a game ended by the rules must store
  exactly the result its moves give; a resignation or a time-out must name players in range
  who did so before the end, and every other field (winners, their sides, scores, ranking,
  reason) must be what that ending gives at that position.
- **Players**: one name per seat when names are given; timestamps are ISO 8601.

Not checked: the names themselves, and timestamps beyond their form.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .core.errors import GameError, RecordError
from .core.protocol import CHANCE, Result, State
from .core.registry import get, names
from .core.table import Table, now, ply_rng, sample_chance, start_from

FORMAT = "ludoteca-record"
FORMAT_VERSION = 1
MAX_SAFE_INTEGER = 2**63 - 1
"""Seeds and numbers past this are refused: every writer draws seeds below it, and a reader
that stores numbers in 64 bits (the club's database, most JSON libraries) cannot keep more."""


@dataclass
class Record:
    game: str
    rules_version: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    start: str | None = None
    players: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    started: str = field(default_factory=now)
    finished: str | None = None
    offers: list[dict[str, Any]] = field(default_factory=list)
    """What the players offered each other during the game and how each offer was answered
    (an abort, a draw, a takeback): entries ``{"ply", "kind", "action", "seat"}``, a
    takeback's agreement with the ``undone`` moves. Optional: records without offers leave
    the field out, and records from before it still load."""

    # --- building -------------------------------------------------------------------------
    @classmethod
    def begin(
        cls, state: State, *, seed: int | None = None, players: list[str] | None = None
    ) -> Record:
        """Start a record for a game that begins at ``state``."""
        game = state.game
        return cls(
            game=game.id,
            rules_version=game.rules_version,
            options=dict(game.options),
            seed=seed,
            start=state.position(),
            players=list(players or []),
        )

    def finish(
        self, state: State, *, reason: str | None = None, result: Result | None = None
    ) -> None:
        """Close the record with ``result`` (a resignation or a time-out, say), else the
        result the moves give (``{"over": false}`` for a game stopped before its end)."""
        self.result = result_to_json(state, result or state.result, reason=reason)
        self.finished = now()

    def resign(self, state: State, *players: int) -> None:
        """End the game by the resignation of ``players``: every other player wins.

        The moves do not finish such a game, so the result says who resigned; replay checks
        that the game was still in progress when they did.
        """
        self.finish(state, result=Result.by_resignation(state, players))

    def typed_result(self) -> Result | None:
        """The stored result as a :class:`Result` (``None`` for a game in progress)."""
        if not self.result or self.result.get("over") is not True:
            return None
        return Result.from_json(self.result, len(self.players) or _players_of(self))

    # --- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = {"format": FORMAT, "format_version": FORMAT_VERSION, **asdict(self)}
        if not self.offers:
            del out["offers"]  # the form records had before offers were kept
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Any, *, source: str = "record") -> Record:
        if not isinstance(data, dict):
            raise RecordError(source, "a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(
                source, f"format is {_short(data.get('format'))}, expected {FORMAT!r}"
            )
        version = data.get("format_version", FORMAT_VERSION)
        if not _is_int(version) or version != FORMAT_VERSION:
            raise RecordError(
                "format_version",
                f"{_short(version)} is not a version this program reads (it reads "
                f"{FORMAT_VERSION})",
            )
        unknown = sorted(set(data) - KNOWN_FIELDS)
        if unknown:
            raise RecordError(source, f"unknown field {_short(unknown[0])}")
        required: dict[str, type] = {"game": str, "rules_version": str, "moves": list}
        for key, typ in required.items():
            if key not in data:
                raise RecordError(source, f"missing field {key!r}")
            if not isinstance(data[key], typ):
                raise RecordError(key, f"field {key!r} must be {_TYPE_WORDS[typ]}")
        if not all(isinstance(m, str) for m in data["moves"]):
            raise RecordError("moves", "every move must be a string in binding notation")
        optional: dict[str, type] = {
            "options": dict,
            "seed": int,
            "start": str,
            "players": list,
            "result": dict,
            "started": str,
            "finished": str,
        }
        for key, typ in optional.items():
            value = data.get(key)
            if value is not None and (
                not isinstance(value, typ) or (typ is int and isinstance(value, bool))
            ):
                raise RecordError(key, f"field {key!r} must be {_TYPE_WORDS[typ]}")
        seed = data.get("seed")
        if seed is not None and not 0 <= seed <= MAX_SAFE_INTEGER:
            raise RecordError(
                "seed", f"the seed must be a whole number from 0 to {MAX_SAFE_INTEGER}"
            )
        players = data.get("players") or []
        if not all(isinstance(p, str) for p in players):
            raise RecordError("players", "every player is named by a string")
        stamps: dict[str, datetime] = {}
        for key in ("started", "finished"):
            stamp = data.get(key)
            if stamp:
                try:
                    when = datetime.fromisoformat(stamp)
                except ValueError:
                    raise RecordError(key, f"{_short(stamp)} is not an ISO 8601 time") from None
                stamps[key] = when if when.tzinfo else when.replace(tzinfo=UTC)
        if len(stamps) == 2 and stamps["finished"] < stamps["started"]:
            raise RecordError("finished", f"{_short(data['finished'])} is before the game started")
        offers = _offers(data.get("offers"), len(players))
        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            options=dict(data.get("options") or {}),
            seed=seed,
            start=data.get("start"),
            players=list(players),
            moves=list(data["moves"]),
            result=data.get("result"),
            started=data.get("started") or "",
            finished=data.get("finished"),
            offers=offers,
        )

    @classmethod
    def loads(cls, text: str, *, source: str = "record") -> Record:
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors write first
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                source, f"not valid JSON ({exc.msg}: line {exc.lineno}, column {exc.colno})"
            ) from None
        except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise RecordError(source, f"not a record this program can read ({reason})") from None
        return cls.from_json(data, source=source)


_TYPE_WORDS = {str: "a string", int: "an integer", list: "a list", dict: "an object"}

KNOWN_FIELDS = {"format", "format_version", *Record.__dataclass_fields__}


OFFER_KINDS = ("abort", "draw", "takeback")
OFFER_ACTIONS = ("offered", "accepted", "declined", "agreed", "lapsed")


def _offers(value: Any, players: int) -> list[dict[str, Any]]:
    """The ``offers`` field checked entry by entry (see :attr:`Record.offers`)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError("offers", "field 'offers' must be a list")
    out = []
    for number, entry in enumerate(value, start=1):
        where = f"offer {number}"
        if not isinstance(entry, dict):
            raise RecordError("offers", f"{where} is not an object")
        unknown = sorted(set(entry) - {"ply", "kind", "action", "seat", "undone"})
        if unknown:
            raise RecordError("offers", f"{where} has an unknown field {_short(unknown[0])}")
        ply: Any = entry.get("ply")
        seat: Any = entry.get("seat")
        if not _is_int(ply) or not 0 <= ply <= MAX_SAFE_INTEGER:
            raise RecordError("offers", f"{where}: ply must be a whole number from 0")
        if not _is_int(seat) or seat < 0 or (players and seat >= players):
            raise RecordError("offers", f"{where}: seat must be one of the players' seats")
        if entry.get("kind") not in OFFER_KINDS:
            raise RecordError("offers", f"{where}: kind is one of {', '.join(OFFER_KINDS)}")
        if entry.get("action") not in OFFER_ACTIONS:
            raise RecordError("offers", f"{where}: action is one of {', '.join(OFFER_ACTIONS)}")
        undone = entry.get("undone")
        if undone is not None and (
            not isinstance(undone, list) or not all(isinstance(m, str) for m in undone)
        ):
            raise RecordError("offers", f"{where}: undone is a list of moves in notation")
        out.append(dict(entry))
    return out


def _players_of(record: Record) -> int:
    return start_state(record).num_players


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any, limit: int = 60) -> str:
    """``value`` as a message shows it, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def result_to_json(state: State, result: Result | None, *, reason: str | None = None) -> dict:
    """The JSON of ``result`` at ``state`` (:meth:`Result.to_json`); for a game in progress,
    ``{"over": false}`` with an optional reason (why it stopped, for a saved game)."""
    if result is None:
        return {"over": False, "reason": reason or ""}
    out = result.to_json(state)
    if reason is not None:
        out["reason"] = reason
    return out


def resignation_result(state: State, players: Iterable[int]) -> dict[str, Any]:
    """The stored result of a game ended by the resignation of ``players``."""
    return Result.by_resignation(state, list(players)).to_json(state)


def timeout_result(
    state: State, players: Iterable[int], *, abandoned: bool = False
) -> dict[str, Any]:
    """The stored result of a game ended because ``players`` ran out of time (or abandoned
    it): see :meth:`Result.on_time`."""
    return Result.on_time(state, list(players), abandoned=abandoned).to_json(state)


MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record read. The longest game any engine allows (Comino's, near 2,000 moves
of at most 20 characters) is under 100 KB of JSON; 8 MB leaves room for long names and
every option, and keeps ``replay /dev/zero`` or a pasted disk image from filling memory."""

_CHUNK = 64 * 1024


class RecordExistsError(FileExistsError):
    """A record is already at the path, and the caller did not ask to replace it."""


def save(record: Record, path: str | Path, *, overwrite: bool = True) -> Path:
    """Write ``record`` to ``path``: through a temporary file moved into place, so a record is
    never left half-written; into it directly when ``path`` is a device or a pipe
    (``/dev/null``, ``/dev/stdout``), which a rename would replace by a plain file.

    With ``overwrite=False`` an existing file is never replaced, even one another process
    creates meanwhile (the temporary file is linked to its name, which fails if the name is
    taken): :class:`RecordExistsError`. Other failures (a full disk, a read-only folder) raise
    ``OSError`` and leave no temporary file behind."""
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        with path.open("w", encoding="utf-8") as out:
            out.write(record.dumps())
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("x", encoding="utf-8") as out:
            out.write(record.dumps())
        if overwrite:
            tmp.replace(path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise RecordExistsError(
                    errno.EEXIST, "a record is already there", str(path)
                ) from None
            except OSError:  # a file system without hard links: claim the name, then fill it
                try:
                    path.open("x").close()
                except FileExistsError:
                    raise RecordExistsError(
                        errno.EEXIST, "a record is already there", str(path)
                    ) from None
                tmp.replace(path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def save_new(record: Record, folder: str | Path, stem: str) -> Path:
    """Save ``record`` in ``folder`` under a name no other record has: ``STEM.json``, else
    ``STEM-2.json``, ``STEM-3.json``... Two games saved in the same second, by one process
    or several, never share a file."""
    folder = Path(folder)
    for n in itertools.count(1):
        name = f"{stem}.json" if n == 1 else f"{stem}-{n}.json"
        try:
            return save(record, folder / name, overwrite=False)
        except RecordExistsError:
            continue
    raise AssertionError("unreachable")


def load(path: str | Path) -> Record:
    """The record at ``path``, read in pieces up to :data:`MAX_RECORD_BYTES` (a longer file,
    or an endless one such as ``/dev/zero``, is refused after that much)."""
    path = Path(path)
    try:
        with path.open("rb") as source:
            chunks = []
            size = 0
            while size <= MAX_RECORD_BYTES:
                chunk = source.read(_CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except OSError as exc:
        raise RecordError(str(path), f"cannot read file ({exc.strerror or exc})") from None
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            str(path), f"too large for a record (over {MAX_RECORD_BYTES // (1024 * 1024)} MB)"
        )
    try:
        text = b"".join(chunks).decode("utf-8-sig")  # a byte-order mark some editors add
    except UnicodeDecodeError:
        raise RecordError(str(path), "not a UTF-8 text file") from None
    return Record.loads(text, source=str(path))


def start_state(record: Record) -> State:
    """The state a record starts from: its stored start position, else a new seeded game.

    The only way to rebuild a record's start. With both a seed and a start, they must agree:
    the start is the set-up that seed gives."""
    try:
        game = get(record.game, **record.options)
    except GameError as exc:
        field = "game" if record.game not in names() else "options"
        raise RecordError(field, exc.reason) from None
    except TypeError as exc:
        raise RecordError("options", f"bad options for {record.game}: {exc}") from None
    if game.rules_version != record.rules_version:
        raise RecordError(
            "rules_version",
            f"record is for {record.game} rules version {record.rules_version}, "
            f"this engine implements version {game.rules_version}",
        )
    try:
        state = start_from(game, record.seed, record.start)
    except GameError as exc:
        raise RecordError("start", f"bad start position: {exc.reason}") from None
    if record.start is None:
        return state
    if record.seed is not None:
        seeded = game.new_state(seed=record.seed).position()
        if state.position() != seeded:
            raise RecordError(
                "seed",
                f"seed {record.seed} sets up {_short(seeded)}, not the record's start "
                f"{_short(record.start)}",
            )
    return state


class ChanceCheck:
    """Checks each chance outcome of a record against its seed, under every way a table
    draws (see the module's text); a way that disagrees once is dropped, and an outcome no
    way gives is refused."""

    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self.in_order: random.Random | None = None if seed is None else random.Random(seed)
        self.per_ply = seed is not None

    def check(self, state: State, ply: int, text: str, number: int) -> None:
        if self.seed is None:
            return
        played = state.str_to_move(text)
        expected = None
        if self.in_order is not None:
            drawn = sample_chance(state, self.in_order)
            expected = drawn
            if drawn != played:
                self.in_order = None
        if self.per_ply:
            drawn = sample_chance(state, ply_rng(self.seed, ply))
            expected = drawn if expected is None else expected
            if drawn != played:
                self.per_ply = False
        if self.in_order is None and not self.per_ply:
            wanted = "" if expected is None else f" (it gives {state.move_to_str(expected)})"
            raise RecordError(
                text,
                f"this outcome is not what the table draws from seed {self.seed}{wanted}",
                move_number=number,
            )


def replay(record: Record, *, on_move: Callable[[int, str, State], None] | None = None) -> State:
    """Replay every move through the engine and return the final state.

    Raises :class:`RecordError` naming the first refused move's number and reason, or a
    stored result that does not match the replayed one (see the module's text for every
    check). ``on_move(number, text, state)`` is called after each move (for printing a game
    move by move).
    """
    state = start_state(record)
    if record.players and len(record.players) != state.num_players:
        raise RecordError(
            "players",
            f"{len(record.players)} names for a game of {state.num_players} players",
        )
    chance = ChanceCheck(record.seed)
    for number, text in enumerate(record.moves, start=1):
        try:
            if state.to_move == CHANCE:
                chance.check(state, number - 1, text, number)
            state.play(text)
        except RecordError:
            raise
        except GameError as exc:
            shown = text if len(text) <= 200 else text[:199] + "…"  # repeated, never pasted whole
            raise RecordError(shown, exc.reason, move_number=number) from None
        if on_move is not None:
            on_move(number, text, state)
    check_result(state, record.result)
    return state


def check_result(state: State, stored: dict[str, Any] | None) -> None:
    """The stored result must be exactly the one the replayed game gives."""
    if stored is None or stored.get("over") is False:
        if state.is_over:
            raise RecordError("result", "the moves finish the game, but the result says it is not")
        if stored is not None:
            extra = sorted(set(stored) - {"over", "reason"})
            if extra or not isinstance(stored.get("reason", ""), str):
                raise RecordError("result", "a game in progress has only 'over' and 'reason'")
        return
    if stored.get("over") is not True:
        raise RecordError("result", f"over is {_short(stored.get('over'))}, not true or false")
    ended = stored.get("ended")
    if ended == "resignation" or (ended is None and "resigned" in stored):
        players = _seats(state, stored, "resigned")
        if state.is_over:
            raise RecordError("result", "a player resigned after the game was already over")
        expected = resignation_result(state, players)
    elif ended == "timeout" or (ended is None and "timed_out" in stored):
        players = _seats(state, stored, "timed_out")
        if state.is_over:
            raise RecordError("result", "a player ran out of time after the game was over")
        abandoned = stored.get("abandoned", False)
        if not isinstance(abandoned, bool):
            raise RecordError("result", "abandoned is true or left out")
        expected = timeout_result(state, players, abandoned=abandoned)
    elif ended in ("agreement", "aborted"):
        if state.is_over:
            raise RecordError("result", f"the game was {ended} after it was already over")
        agreed = Result.by_agreement(state) if ended == "agreement" else Result.aborted_at(state)
        expected = agreed.to_json(state)
    elif ended is None:
        if not state.is_over:
            raise RecordError(
                "result", "the record says the game is over, but its moves do not finish it"
            )
        expected = result_to_json(state, state.result)
    else:
        raise RecordError("result", f"ended is {_short(ended)}: not a way a game ends")
    expected = json.loads(json.dumps(expected))
    for key in sorted(set(expected) | set(stored)):
        if key == "ended" and key not in stored:
            continue  # records before the field was added
        if key not in expected:
            raise RecordError("result", f"unknown field {_short(key)}")
        if key not in stored or not _same(stored[key], expected[key]):
            have = _short(stored.get(key)) if key in stored else "missing"
            raise RecordError(
                "result", f"{key} is {have}, but the replayed game gives {_short(expected[key])}"
            )


def _seats(state: State, stored: dict[str, Any], key: str) -> list[int]:
    if key not in stored:
        raise RecordError("result", f"{key} is missing: a game that ended this way names its seats")
    seats = stored[key]
    if (
        not isinstance(seats, list)
        or not seats
        or not all(_is_int(p) and 0 <= p < state.num_players for p in seats)
        or sorted(set(seats)) != seats
    ):
        raise RecordError(
            "result", f"{key} {_short(seats)} is not a list of seats, in order, each once"
        )
    return seats


def _same(a: Any, b: Any) -> bool:
    """JSON values equal, strictly: ``true`` is not ``1``, though ``126`` is ``126.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, str) and isinstance(b, str):  # a side's name may be a translatable Text
        return a == b
    return type(a) is type(b) and a == b


def from_table(table: Table, *, reason: str | None = None) -> Record:
    """A table's game as a record: start, seed, players, every move, and the result if over
    (``reason`` says why a game in progress stopped)."""
    record = Record.begin(table.start, seed=table.seed, players=table.players)
    record.started = table.started
    record.moves = list(table.moves)
    if table.is_over:
        record.finish(table.state, result=table.result, reason=reason)
    elif reason is not None:
        record.result = result_to_json(table.state, None, reason=reason)
    return record


def to_table(record: Record) -> Table:
    """The table a record describes, its moves replayed and its result checked
    (:func:`replay`); a finished record's resignation or time-out is kept."""
    final = replay(record)  # every check a record gets, with the field and reason if refused
    table = Table(start_state(record), seed=record.seed, players=record.players)
    table.state, table.moves = final, list(record.moves)
    table.started = record.started or table.started
    result = record.typed_result()
    if result is not None and result.ended != "rules":
        table.ended = result
    return table
