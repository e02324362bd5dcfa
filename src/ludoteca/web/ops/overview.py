"""The club's figures as the database holds them, read in one short session: what the
metrics report at each scrape and the operator's page shows."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select

from ludoteca.web.infra.store import GameRow, Store


@dataclass
class ClubCounts:
    games: dict[str, int] = field(default_factory=dict)
    """Games by status (``open``, ``active``)."""
    outbox: int = 0
    """E-mails waiting to be sent."""
    outbox_failed: int = 0
    """E-mails given up on after every attempt failed."""
    open_reports: int = 0
    """Forum posts reported and not yet looked at by a moderator."""


def club_counts(store: Store) -> ClubCounts:
    from ludoteca.web.moderation.models import Report
    from ludoteca.web.notify.mail import MAX_ATTEMPTS
    from ludoteca.web.notify.models import MailOut

    with store.reading() as db:
        games = dict(
            db.execute(
                select(GameRow.status, func.count())
                .where(GameRow.status != "finished")
                .group_by(GameRow.status)
            ).all()
        )
        waiting = db.scalar(
            select(func.count()).where(MailOut.sent.is_(None), MailOut.attempts < MAX_ATTEMPTS)
        )
        failed = db.scalar(
            select(func.count()).where(MailOut.sent.is_(None), MailOut.attempts >= MAX_ATTEMPTS)
        )
        reports = db.scalar(select(func.count()).where(Report.resolved.is_(None)))
    return ClubCounts(
        games={str(k): int(v) for k, v in games.items()},
        outbox=int(waiting or 0),
        outbox_failed=int(failed or 0),
        open_reports=int(reports or 0),
    )
