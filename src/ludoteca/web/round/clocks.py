"""Time controls kept by the server: the arithmetic of live and correspondence clocks.

A game's ``clock`` (see :attr:`ludoteca.web.infra.store.GameRow.clock`) is one of

- ``{"kind": "live", "base": s, "increment": s}``: a Fischer clock. Every seat starts with
  ``base`` seconds; the time a player thinks is taken off their clock, and when their turn
  passes to another player ``increment`` seconds are added;
- ``{"kind": "correspondence", "days": d}``: each turn must be played within ``d`` days.

Only the server's clock counts. The game row holds when the player to move began
(``turn_started``) and when they run out of time (``deadline``); a seat holds its time left
as of its last committed move (``clock_ms``). A browser is sent the time left *as of the
server's now*, and counts down from the moment it received it, so a wrong clock on the
player's machine changes nothing.

A *turn* is what one player plays before another player is to move: in Hexagone a turn is
several moves (roll, swap, second roll, reform), so the increment and a fresh correspondence
deadline come once a turn, not once a move. Chance outcomes are drawn by the table at once
and take no one's time.

Untimed games are not kept waiting for ever: a person who has not moved for
:data:`ABANDONED_AFTER` (14 days) has abandoned the game, which ends as if a correspondence
clock had run out, reason "abandoned the game": they lose, and a rated game is rated.

Computer seats: a computer's clock does not run (``deadline`` is None while it is to move).
Each computer level has its own budget per move (see :mod:`ludoteca.bots`), so it cannot
lose on time, and people never wait on a clock nobody can run down.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ludoteca.core.messages import Text
from ludoteca.web.infra.periodic import watch

if TYPE_CHECKING:
    from ludoteca.web.infra.store import GameRow

LIVE = "live"
CORRESPONDENCE = "correspondence"
SWEEP_SECONDS = 0.5
"""How often each server process looks for games whose player to move is out of time."""
ABANDONED_AFTER = timedelta(days=14)
"""In an untimed game, how long the person to move may leave it before it is ended as
abandoned by them."""
LOW_TIME_MS = 20_000
"""Under this, the browser shows a live clock as running low."""


@dataclass(frozen=True)
class TimeControl:
    """A game's time control, read from its stored ``clock``."""

    kind: str
    base_ms: int = 0
    increment_ms: int = 0
    days: float = 0

    @classmethod
    def of(cls, clock: dict[str, Any] | None) -> TimeControl | None:
        """The time control of a stored ``clock``; None for an untimed game (or a ``clock``
        this server does not understand, which is then played untimed)."""
        if not isinstance(clock, dict):
            return None
        kind = clock.get("kind")
        try:
            if kind == LIVE:
                base = float(clock["base"])
                increment = float(clock.get("increment", 0))
                if base <= 0 or increment < 0:
                    return None
                return cls(LIVE, base_ms=round(base * 1000), increment_ms=round(increment * 1000))
            if kind == CORRESPONDENCE:
                days = float(clock["days"])
                return cls(CORRESPONDENCE, days=days) if days > 0 else None
        except (KeyError, TypeError, ValueError):
            return None
        return None

    @property
    def live(self) -> bool:
        return self.kind == LIVE


def elapsed_ms(since: datetime | None, now: datetime) -> int:
    """Whole milliseconds from ``since`` to ``now`` (0 if ``since`` is unknown or later)."""
    if since is None:
        return 0
    return max(0, (now - since) // timedelta(milliseconds=1))


def charge(left_ms: int, used_ms: int, increment_ms: int) -> int:
    """A Fischer clock after a move: the time used comes off (never below zero) and the
    increment is added (pass 0 when the same player moves on within one turn)."""
    return max(0, left_ms - used_ms) + increment_ms


def _is_bot(row: GameRow, seat: int) -> bool:
    return 0 <= seat < len(row.seats) and row.seats[seat].kind == "bot"


def start(row: GameRow) -> None:
    """Give every seat its full live time as the game starts (a no-op otherwise)."""
    control = TimeControl.of(row.clock)
    if control is None or not control.live:
        return
    for seat in row.seats:
        seat.clock_ms = control.base_ms
        seat.timed_out = False


def after_moves(row: GameRow, mover: int | None, to_move: int, now: datetime) -> None:
    """Run the clocks on after moves are committed: charge ``mover`` (None when the game
    starts or only the table moved) and start the clock of ``to_move``, the player now to
    move (a negative index when the game is over)."""
    control = TimeControl.of(row.clock)
    turn_over = mover is None or mover != to_move
    if control is None:
        _watch_for_abandonment(row, turn_over, to_move, now)
        return
    if control.live and mover is not None and 0 <= mover < len(row.seats):
        seat = row.seats[mover]
        if not _is_bot(row, mover) and seat.clock_ms is not None:
            increment = control.increment_ms if turn_over else 0
            seat.clock_ms = charge(seat.clock_ms, elapsed_ms(row.turn_started, now), increment)
    if not 0 <= to_move < len(row.seats):
        row.deadline = None  # over (the game's end clears it too)
        return
    if _is_bot(row, to_move):
        row.turn_started = now
        row.deadline = None
        return
    if control.live:
        row.turn_started = now
        left = row.seats[to_move].clock_ms
        left = control.base_ms if left is None else left
        row.deadline = now + timedelta(milliseconds=left)
    elif turn_over or row.deadline is None:
        row.turn_started = now
        row.deadline = now + timedelta(days=control.days)


def _watch_for_abandonment(row: GameRow, turn_over: bool, to_move: int, now: datetime) -> None:
    """An untimed game's deadline: :data:`ABANDONED_AFTER` from the start of a person's turn."""
    if not 0 <= to_move < len(row.seats) or _is_bot(row, to_move):
        row.deadline = None
        return
    if turn_over or row.deadline is None:
        row.turn_started = now
        row.deadline = now + ABANDONED_AFTER


def live(row: GameRow) -> bool:
    """Whether ``row`` plays a live clock, whose moves change the seats' time left (any other
    game's moves change only the game's own columns)."""
    control = TimeControl.of(row.clock)
    return control is not None and control.live


def abandoned(row: GameRow) -> bool:
    """Whether running past ``row``'s deadline means abandoning it (an untimed game)."""
    return TimeControl.of(row.clock) is None


def overdue(row: GameRow, now: datetime) -> bool:
    """Whether the player to move of an active game has run out of time at ``now``."""
    return row.status == "active" and row.deadline is not None and now >= row.deadline


def running_seat(row: GameRow) -> int | None:
    """The seat whose clock is running: the player to move, unless the game is not in
    progress, is untimed, or a computer is to move."""
    if row.status != "active" or row.deadline is None or TimeControl.of(row.clock) is None:
        return None
    return row.to_move if 0 <= row.to_move < len(row.seats) else None


def left_ms(row: GameRow, seat: int, now: datetime) -> int | None:
    """A live seat's time left as of ``now`` (None for a computer or an untimed game)."""
    control = TimeControl.of(row.clock)
    if control is None or not control.live or _is_bot(row, seat):
        return None
    stored = row.seats[seat].clock_ms
    if stored is None:
        return control.base_ms
    if seat == running_seat(row):
        return max(0, stored - elapsed_ms(row.turn_started, now))
    return stored


def epoch_ms(moment: datetime | None) -> int | None:
    """A naive UTC datetime (as stored) in milliseconds since 1970, for the browser."""
    if moment is None:
        return None
    return int(moment.replace(tzinfo=UTC).timestamp() * 1000)


def clock_view(row: GameRow, now: datetime) -> dict[str, Any] | None:
    """What a browser is told of the clock: enough to tick without trusting its own time."""
    control = TimeControl.of(row.clock)
    if control is None:
        return None
    running = running_seat(row)
    out: dict[str, Any] = {
        "kind": control.kind,
        "running": running,
        "now": epoch_ms(now),
        "deadline": epoch_ms(row.deadline) if running is not None else None,
        "timed_out": [s.index for s in row.seats if s.timed_out],
        "low_ms": LOW_TIME_MS,
    }
    if control.live:
        out["base"] = control.base_ms / 1000
        out["increment"] = control.increment_ms / 1000
        out["ms"] = [left_ms(row, s.index, now) for s in row.seats]
    else:
        out["days"] = control.days
    return out


NOTHING = ""


def describe(clock: dict[str, Any] | None) -> Text:
    """The time control in a few words, for the lobby: ``5+3`` or ``3 days a move`` (a
    :class:`~ludoteca.core.messages.Text`, shown in the reader's language)."""
    control = TimeControl.of(clock)
    if control is None:
        return Text(NOTHING)
    if control.live:
        minutes = control.base_ms / 60000
        base = f"{minutes:g}" if minutes >= 1 else f"{control.base_ms / 1000:g}s"
        return Text(
            "{base}+{increment:g}", {"base": base, "increment": control.increment_ms / 1000}
        )
    if control.days == 1:
        return Text("1 day a move")
    return Text("{days:g} days a move", {"days": control.days})


async def sweep(
    expire: Callable[[], list[int]],
    publish: Callable[[int], Awaitable[None]],
    interval: float = SWEEP_SECONDS,
) -> None:
    """Forever: end the games whose player to move is out of time (``expire`` runs in a
    thread and returns the games it ended), then tell their viewers. Any number of server
    processes may sweep the same database: ``expire`` ends each game once."""
    await watch(expire, publish, interval, "the clock sweep")
