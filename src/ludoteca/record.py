"""Game records: a game is its moves (DESIGN principle 2).

A record is JSON holding the game id, rules version, options, the seed, the start position
where the game's set-up is random (so a record survives a change of generator), the players,
every move in binding notation (chance outcomes included), the result and timestamps.
Loading parses and checks the shape; :func:`replay` re-plays every move through the engine,
so a record with an illegal move is refused with its move number and the rule it breaks.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .core.errors import GameError, RecordError
from .core.protocol import Result, State
from .core.registry import get

FORMAT = "ludoteca-record"
FORMAT_VERSION = 1


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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

    def finish(self, state: State, *, reason: str | None = None) -> None:
        self.result = result_to_json(state, state.result, reason=reason)
        self.finished = now()

    def resign(self, state: State, *players: int) -> None:
        """End the game by the resignation of ``players``: every other player wins.

        The moves do not finish such a game, so the result says who resigned; replay checks
        that the game was still in progress when they did.
        """
        self.result = resignation_result(state, players)
        self.finished = now()

    # --- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, **asdict(self)}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Any, *, source: str = "record") -> Record:
        if not isinstance(data, dict):
            raise RecordError(source, "a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(source, f"format is {data.get('format')!r}, expected {FORMAT!r}")
        required = {"game": str, "rules_version": str, "moves": list}
        for key, typ in required.items():
            if key not in data:
                raise RecordError(source, f"missing field {key!r}")
            if not isinstance(data[key], typ):
                raise RecordError(source, f"field {key!r} must be a {typ.__name__}")
        if not all(isinstance(m, str) for m in data["moves"]):
            raise RecordError(source, "every move must be a string in binding notation")
        optional = {
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
            if value is not None and not isinstance(value, typ):
                raise RecordError(source, f"field {key!r} must be a {typ.__name__}")
        return cls(
            game=data["game"],
            rules_version=data["rules_version"],
            options=dict(data.get("options") or {}),
            seed=data.get("seed"),
            start=data.get("start"),
            players=[str(p) for p in data.get("players") or []],
            moves=list(data["moves"]),
            result=data.get("result"),
            started=data.get("started") or "",
            finished=data.get("finished"),
        )

    @classmethod
    def loads(cls, text: str, *, source: str = "record") -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(source, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_json(data, source=source)


def result_to_json(state: State, result: Result | None, *, reason: str | None = None) -> dict:
    """The result as records, the CLI and the server show it, with side names."""
    if result is None:
        return {"over": False, "reason": reason or ""}
    return {
        "over": True,
        "winners": list(result.winners),
        "winner_sides": [state.side_name(p) for p in result.winners],
        "draw": result.draw,
        "scores": list(result.scores) if result.scores is not None else None,
        "reason": reason or result.reason,
    }


def _ended_early(
    state: State, ended: str, players: list[int], winners: list[int], verb: str, **extra: Any
) -> dict[str, Any]:
    """The stored result of a game ended outside its rules: by ``players`` who resigned or
    ran out of time (``ended``, also the key that lists them)."""
    scores = state.scores()
    return {
        "over": True,
        "ended": ended,
        {"resignation": "resigned", "timeout": "timed_out"}[ended]: players,
        "winners": winners,
        "winner_sides": [state.side_name(p) for p in winners],
        "draw": False,
        "scores": list(scores) if scores is not None else None,
        **extra,
        "reason": " and ".join(state.side_name(p) for p in players) + " " + verb,
    }


def resignation_result(state: State, players) -> dict[str, Any]:
    """The stored result of a game ended by the resignation of ``players``."""
    resigned = sorted(players)
    winners = [p for p in range(state.num_players) if p not in resigned]
    return _ended_early(state, "resignation", resigned, winners, "resigned")


def timeout_result(state: State, players, *, abandoned: bool = False) -> dict[str, Any]:
    """The stored result of a game ended because ``players`` ran out of time (or, with
    ``abandoned``, left an untimed game unplayed for too long: the same result, told so).

    With two players the other one wins. With more (Hexagone for 3 or 4), the rules have no
    way to take a player out in the middle of a game, so the game ends there: the players
    who ran out of time share last place, and the others are ranked as if the game had ended
    normally at that moment, by the game's own standing where it has one (``ranking()``:
    Hexagone's most captured pieces, then most of one colour), else by score (players with
    equal scores tie), else all of them share the win. The first group of that ranking wins.
    ``ranking`` lists the groups, best first, timed-out players last.
    """
    timed_out = sorted(set(players))
    others = [p for p in range(state.num_players) if p not in timed_out]
    groups: list[list[int]] = []
    standing = getattr(state, "ranking", None)
    scores = state.scores()
    if callable(standing):
        for group in standing():
            kept = [p for p in group if p in others]
            if kept:
                groups.append(kept)
    elif scores is not None:
        for p in sorted(others, key=lambda p: (-scores[p], p)):
            if groups and scores[groups[-1][0]] == scores[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
    elif others:
        groups.append(others)
    winners = groups[0] if groups else []
    return _ended_early(
        state,
        "timeout",
        timed_out,
        winners,
        "abandoned the game" if abandoned else "ran out of time",
        ranking=[*groups, timed_out],
        **({"abandoned": True} if abandoned else {}),
    )


def _check_seats(state: State, stored: dict[str, Any], key: str) -> list[int]:
    seats = stored[key]
    if (
        not isinstance(seats, list)
        or not seats
        or not all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p < state.num_players
            for p in seats
        )
    ):
        raise RecordError("result", f"{key} {seats!r} is not a list of seats")
    return seats


def save(record: Record, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(record.dumps(), encoding="utf-8")
    tmp.replace(path)  # never leave a half-written record behind
    return path


def load(path: str | Path) -> Record:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(str(path), f"cannot read file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RecordError(str(path), "not a UTF-8 text file") from None
    return Record.loads(text, source=str(path))


def start_state(record: Record) -> State:
    """The state a record starts from: its stored start position, else a new seeded game."""
    try:
        game = get(record.game, **record.options)
    except GameError as exc:
        raise RecordError(record.game, exc.reason) from None
    except TypeError as exc:
        raise RecordError(record.options, f"bad options for {record.game}: {exc}") from None
    if game.rules_version != record.rules_version:
        raise RecordError(
            record.rules_version,
            f"record is for {record.game} rules version {record.rules_version}, "
            f"this engine implements version {game.rules_version}",
        )
    try:
        if record.start is not None:
            return game.from_position(record.start)
        return game.new_state(seed=record.seed)
    except GameError as exc:
        raise RecordError(record.start, f"bad start position: {exc}") from None


def replay(record: Record, *, on_move=None) -> State:
    """Replay every move through the engine and return the final state.

    Raises :class:`RecordError` naming the first refused move's number and reason, or a
    stored result that does not match the replayed one. ``on_move(number, text, state)`` is
    called after each move (for printing a game move by move).
    """
    state = start_state(record)
    for number, text in enumerate(record.moves, start=1):
        try:
            state.play(text)
        except GameError as exc:
            raise RecordError(text, exc.reason, move_number=number) from None
        if on_move is not None:
            on_move(number, text, state)
    stored = record.result
    if stored and stored.get("over") and stored.get("resigned") is not None:
        resigned = stored["resigned"]
        if (
            not isinstance(resigned, list)
            or not resigned
            or not all(isinstance(p, int) and 0 <= p < state.num_players for p in resigned)
        ):
            raise RecordError("result", f"resigned {resigned!r} is not a list of seats")
        if state.is_over:
            raise RecordError("result", "a player resigned after the game was already over")
    elif stored and stored.get("over") and stored.get("timed_out") is not None:
        timed_out = _check_seats(state, stored, "timed_out")
        if state.is_over:
            raise RecordError("result", "a player ran out of time after the game was over")
        expected = timeout_result(state, timed_out)
        if "winners" in stored and stored["winners"] != expected["winners"]:
            raise RecordError(
                "result",
                f"stored winners {stored['winners']!r} do not match those a timeout of "
                f"{timed_out!r} gives at this position ({expected['winners']!r})",
            )
    elif stored and stored.get("over"):
        if not state.is_over:
            raise RecordError(
                "result", "the record says the game is over, but its moves do not finish it"
            )
        actual = result_to_json(state, state.result)
        for key in ("winners", "draw", "scores"):
            if key in stored and stored[key] != actual[key]:
                raise RecordError(
                    "result",
                    f"stored {key} {stored[key]!r} does not match the replayed {actual[key]!r}",
                )
    return state
