"""How many games one account may start: a rate, and a cap on games waiting for players.

Both are counted from the games table itself, so they hold however many server processes
share the club, and a game only counts once it exists. The creator's row is locked for the
check (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite serves one process, where the game
service takes a lock of its own), so two creations at once cannot both pass the last place.

Without them one account made 50 open games in 4 s and pushed everyone else's out of the
lobby, and a dozen games against ``master`` kept the computer players busy for minutes.
"""

from __future__ import annotations

import math
from datetime import datetime

from sqlalchemy import func, select

from ludoteca.core.messages import Text
from ludoteca.web.infra.store import GameRow, User, utcnow
from ludoteca.web.infra.throttle import Limit, when

GAMES_CREATED_PER_USER = Limit(60, 10)
"""New games one account may start in any 10 minutes. Even the quickest game (a solo
Hexagone of 15 rolls, or a lost game against a computer) takes a person a minute or more, so
sixty in ten minutes is far beyond play. The load benchmark's simulated players are the
fastest real users: at ``--think 0.3`` a Kuniumi game lasts about ten seconds and each
player starts some 3.3 games a minute (``bench/load.py --games 10 --think 0.3``), which a
limit of 30 would have cut off after ten minutes. A script starting games as fast as it can
is held to six a minute; what it could still do with them is bounded by the other limits
(waiting games, and one computer worker per account)."""
OPEN_GAMES_PER_USER = 5
"""Games one account may have waiting for players at once (open seats, or seats reserved for
someone who has not joined yet). A person waits for a few opponents at a time; the lobby
shows the newest fifty open games, so one account could otherwise push everyone else's out
of it (50 games in 4 s did). A waiting game can be cancelled from its page to make room."""


class QuotaExceeded(Exception):
    """A new game refused by a quota: the message, its HTTP status, and for a rate the
    seconds after which a new game would pass (for ``Retry-After``)."""

    def __init__(self, message: Text, status: int, retry_after: int | None = None) -> None:
        super().__init__(str(message))
        self.text = message
        self.message = str(message)
        self.status = status
        self.retry_after = retry_after


def lock_creator(db, user_id: int) -> None:
    """Hold the creator's row until the transaction ends: the count below and the new game
    are then one step for this account, also across processes (PostgreSQL)."""
    db.execute(select(User.id).where(User.id == user_id).with_for_update())


def check_new_game(
    db,
    user_id: int,
    *,
    waits_for_players: bool,
    rate: Limit = GAMES_CREATED_PER_USER,
    open_cap: int = OPEN_GAMES_PER_USER,
    now: datetime | None = None,
) -> None:
    """Refuse (:class:`QuotaExceeded`) a new game by ``user_id`` beyond the quotas;
    ``waits_for_players`` says whether the new game would be open (an empty seat)."""
    now = now or utcnow()
    recent = db.scalars(
        select(GameRow.created)
        .where(GameRow.created_by == user_id, GameRow.created > now - rate.window)
        .order_by(GameRow.created.desc())
        .limit(rate.count)
    ).all()
    if len(recent) >= rate.count:
        retry_at = recent[-1] + rate.window  # when the oldest of them stops counting
        seconds = max(1, math.ceil((retry_at - now).total_seconds()))
        raise QuotaExceeded(
            Text(
                "You have started {count} games in the last {minutes} minutes, the most one "
                "account may: try again {when}.",
                {"count": rate.count, "minutes": rate.minutes, "when": when(retry_at)},
            ),
            429,
            seconds,
        )
    if not waits_for_players:
        return
    waiting = db.scalar(
        select(func.count())
        .select_from(GameRow)
        .where(GameRow.created_by == user_id, GameRow.status == "open")
    )
    if waiting >= open_cap:
        raise QuotaExceeded(
            Text(
                "You already have {waiting} games waiting for players, the most one account "
                "may have ({cap}): wait for someone to join one, or cancel one on its page, "
                "before opening another.",
                {"waiting": waiting, "cap": open_cap},
            ),
            409,
        )
