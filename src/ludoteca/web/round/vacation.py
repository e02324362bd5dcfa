"""Vacations: a member pauses their correspondence clocks (and the abandonment watch of
their untimed games) for some days, as Board Game Arena allows, out of a yearly allowance of
:data:`DAYS_A_YEAR` days.

A vacation starts now and lasts the days asked for (at least one, at most what is left of
the year's allowance, counted by the calendar year it starts in); one runs at a time, and
it cannot be ended early (the days would otherwise be a free extension of every clock).
While it runs:

- every correspondence or untimed game in which the member is to move has its deadline
  pushed back by the vacation's length, at once (:func:`start`); the other server processes
  hear of it as of any change to a game, and show the new deadline;
- a turn that reaches the member during the vacation (a move passed it to them, a game
  started with them to move, a takeback gave it back) gets its full time from the
  vacation's end: the days a move of a correspondence game, the
  :data:`~ludoteca.web.round.clocks.ABANDONED_AFTER` of an untimed one (:func:`turn_hook`,
  run as each turn begins, before its deadline is written).

Live games are not paused: their clocks run while people watch the board.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session as OrmSession

from ludoteca.web.infra.store import GameRow, Seat, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import SignedIn, club
from ludoteca.web.round import clocks
from ludoteca.web.round.vacation_models import Vacation

if TYPE_CHECKING:
    from ludoteca.web.round.service import GameService

DAYS_A_YEAR = 30
"""Days of vacation each member may take in a calendar year (Board Game Arena's order)."""


def _year_start(now: datetime) -> datetime:
    return datetime(now.year, 1, 1)


def days_left(db, user_id: int, now: datetime) -> int:
    """What is left of ``user_id``'s allowance for ``now``'s year."""
    taken = db.scalar(
        select(func.coalesce(func.sum(Vacation.days), 0)).where(
            Vacation.user_id == user_id,
            Vacation.starts >= _year_start(now),
            Vacation.starts < _year_start(now).replace(year=now.year + 1),
        )
    )
    return max(0, DAYS_A_YEAR - int(taken or 0))


RUNNING = (
    select(Vacation)
    .where(
        Vacation.user_id == bindparam("user_id"),
        Vacation.starts <= bindparam("now"),
        Vacation.ends > bindparam("now"),
    )
    .limit(1)
)
"""The vacation of a member running at a moment (no row: none runs)."""
RUNNING_ENDS = RUNNING.with_only_columns(Vacation.ends)
"""When it ends. Built once: every move that gives someone the turn in a game without a
live clock asks it."""


def running(db, user_id: int, now: datetime) -> Vacation | None:
    """``user_id``'s vacation running at ``now``, if any."""
    return db.scalar(RUNNING, {"user_id": user_id, "now": now})


def running_ends(db, user_id: int, now: datetime) -> datetime | None:
    """When ``user_id``'s vacation running at ``now`` ends, if one runs: :func:`running` for
    the turn hook, a Core statement on ``db``'s connection. Through the ORM it cost more than
    the rest of a move's statements, and made the session flush the clock's new values in an
    ``UPDATE`` of its own before the move's claim, which writes them anyway."""
    conn = db.connection() if isinstance(db, OrmSession) else db  # connection(): no flush
    return conn.execute(RUNNING_ENDS, {"user_id": user_id, "now": now}).scalar()


def _turn_time(row: GameRow) -> timedelta | None:
    """The time a turn of ``row`` gives its player, if a vacation pauses it: a
    correspondence game's days a move, an untimed game's abandonment watch (None for a live
    clock, which runs while people watch the board)."""
    control = clocks.TimeControl.of(row.clock)
    if control is None:
        return clocks.ABANDONED_AFTER
    if control.kind == clocks.CORRESPONDENCE:
        return timedelta(days=control.days)
    return None


class Started(NamedTuple):
    """A vacation just taken, and the games whose deadlines it pushed back (their watchers in
    this process are to be shown them: the other processes hear of them by themselves)."""

    vacation: Vacation
    games: list[int]


def start(games: GameService, user: User, days: Any, *, now: datetime | None = None) -> Started:
    """Start ``user``'s vacation of ``days`` days now; refused with why if they have not
    that many left, or are on vacation already."""
    if isinstance(days, str) and days.strip().isdigit() and len(days.strip()) < 4:
        days = int(days.strip())
    if not isinstance(days, int) or isinstance(days, bool) or days < 1:
        raise ClubError("A vacation is a whole number of days, at least one.")
    now = now or utcnow()
    changed: list[int] = []
    with games.store.session() as db:
        if running(db, user.id, now) is not None:
            raise ClubError("You are on vacation already.", 409)
        left = days_left(db, user.id, now)
        if days > left:
            raise ClubError(
                "You have {left} days of vacation left this year (of {allowance}).",
                409,
                left=left,
                allowance=DAYS_A_YEAR,
            )
        vacation = Vacation(user_id=user.id, starts=now, ends=now + timedelta(days=days), days=days)
        db.add(vacation)
        waiting = db.scalars(
            select(GameRow)
            .join(Seat, (Seat.game_id == GameRow.id) & (Seat.index == GameRow.to_move))
            .where(GameRow.status == "active", Seat.user_id == user.id)
        ).all()
        for row in waiting:
            if _turn_time(row) is not None and row.deadline is not None:
                row.deadline = row.deadline + timedelta(days=days)
                changed.append(row.id)
        db.commit()
        db.refresh(vacation)
    for pk in changed:  # the kept rows hold the old deadlines
        games.cache.drop_row(pk)
    return Started(vacation, changed)


def turn_hook(db, row: GameRow, to_move: int, now: datetime) -> None:
    """As a turn begins (:data:`~ludoteca.web.round.reading.TurnHook`): a turn that reached a
    member on vacation starts counting when the vacation ends."""
    turn = _turn_time(row)
    if turn is None or row.deadline is None or not 0 <= to_move < len(row.seats):
        return
    seat = row.seats[to_move]
    if seat.kind == "bot" or seat.user_id is None:
        return
    ends = running_ends(db, seat.user_id, now)
    if ends is None:
        return
    paused = ends + turn
    if paused > row.deadline:
        row.deadline = paused


def summary(db, user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """What a profile shows: the running vacation's end, and the days left this year."""
    now = now or utcnow()
    away = running(db, user_id, now)
    return {
        "until": away.ends if away is not None else None,
        "left": days_left(db, user_id, now),
        "allowance": DAYS_A_YEAR,
    }


# --- the form on one's own profile ------------------------------------------------------------
router = APIRouter()


@router.post("/vacation")
async def take_vacation(request: Request, user: SignedIn):
    data = await form(request)
    hub = club(request).hub
    started = await anyio.to_thread.run_sync(lambda: start(hub.games, user, data.get("days", "")))
    for pk in started.games:  # the pages open on them show the new deadline at once
        await hub.publish(pk)
    return RedirectResponse(f"/users/{quote(user.name)}#vacation", status_code=303)
