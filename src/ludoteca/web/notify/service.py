"""Making, reading and marking notifications, each user's settings, and the hooks that
notify when a game needs a move or ends.

A notification is written in the transaction of what it announces (a move, a challenge, a
reply), so it exists exactly when that change does. The live bell hears of it after the
commit (:mod:`ludoteca.web.infra.fanout`), and an e-mail for it waits in ``mail_outbox``
for :mod:`ludoteca.web.notify.mail` to send.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ludoteca.core.messages import Text, from_stored, to_stored
from ludoteca.core.protocol import State
from ludoteca.web.i18n.catalogs import Language, account_language
from ludoteca.web.infra.store import GameRow, User, utcnow
from ludoteca.web.lobby.summary import result_line
from ludoteca.web.notify.models import MailOut, Notification, NotificationPrefs
from ludoteca.web.round.access import seat_label
from ludoteca.web.round.errors import ClubError

KINDS = ("turn", "challenge", "reply", "ended", "rematch")
EMAIL_KINDS = {"turn": "turns", "challenge": "challenges", "rematch": "challenges"}
"""Which notifications may also be e-mailed, and the setting each falls under."""
LIST_LENGTH = 50
KEPT = 4 * LIST_LENGTH
"""Notifications kept per user once read. The bell lists the latest :data:`LIST_LENGTH`;
older read ones are deleted whenever the user reads (nothing shows them), so a member of
many correspondence games, told of every turn, does not grow the table without end."""
EMAIL_RE = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,}$")


def notify(db: Session, user_id: int, kind: str, text: Text, link: str) -> Notification:
    """Add a notification for ``user_id`` (in ``db``'s transaction), and queue its e-mail
    if the user asked for this kind by e-mail.

    The notification keeps ``text`` as its template and fields (JSON), so each page shows
    it in its reader's language; the e-mail is written in the language of the account."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    row = Notification(user_id=user_id, kind=kind, text=to_stored(text), link=link[:200])
    db.add(row)
    setting = EMAIL_KINDS.get(kind)
    if setting is not None:
        prefs = db.get(NotificationPrefs, user_id)
        if prefs is not None and prefs.email and getattr(prefs, f"email_{setting}"):
            said = account_language(db.get(User, user_id)).text(text)
            db.add(
                MailOut(
                    user_id=user_id,
                    to=prefs.email,
                    subject=f"ludoteca: {said}"[:200],
                    body=said,
                    link=link[:200],
                    kind=setting,
                    created=utcnow(),
                )
            )
    return row


_NOTES = Notification.__table__
UNREAD = (
    select(func.count())
    .select_from(_NOTES)
    .where(_NOTES.c.user_id == bindparam("user_id"), _NOTES.c.read.is_(False))
)
"""The bell's count: every member's page asks, so the statement is built once."""


BELL = (
    select(func.count())
    .select_from(_NOTES)
    .where(_NOTES.c.user_id == User.__table__.c.id, _NOTES.c.read.is_(False))
    .scalar_subquery()
    .label("unread")
)
"""The bell's count as a column of a statement that reads the member's row: a page reads
its member's session and their count in one round trip (see ``ludoteca.web.requests``)."""


def unread(db: Session | Connection, user_id: int) -> int:
    return db.scalar(UNREAD, {"user_id": user_id}) or 0


def latest(db: Session, user_id: int, limit: int = LIST_LENGTH) -> list[Notification]:
    return list(
        db.scalars(
            select(Notification)
            .where(Notification.user_id == user_id)
            .order_by(Notification.id.desc())
            .limit(limit)
        )
    )


def mark_read(db: Session, user_id: int, up_to: int | None = None) -> None:
    """Mark the user's notifications read (those up to id ``up_to``, or all), and delete the
    read ones beyond the newest :data:`KEPT`."""
    query = update(Notification).where(
        Notification.user_id == user_id, Notification.read.is_(False)
    )
    if up_to is not None:
        query = query.where(Notification.id <= up_to)
    db.execute(query.values(read=True))
    oldest_kept = db.scalar(
        select(Notification.id)
        .where(Notification.user_id == user_id)
        .order_by(Notification.id.desc())
        .offset(KEPT - 1)
        .limit(1)
    )
    if oldest_kept is not None:
        db.execute(
            delete(Notification).where(
                Notification.user_id == user_id,
                Notification.read.is_(True),
                Notification.id < oldest_kept,
            )
        )


def stored_text(row: Notification) -> Text:
    """A notification's text as kept (notifications older than the languages are English)."""
    return from_stored(row.text)


def as_json(row: Notification, words: Language | None = None) -> dict[str, Any]:
    """The notification for a page or the bell, in ``words``'s language (English if none)."""
    text = stored_text(row)
    return {
        "id": row.id,
        "kind": row.kind,
        "text": words.text(text) if words is not None else str(text),
        "link": row.link,
        "read": row.read,
        "created": row.created.isoformat(timespec="seconds") + "Z",
    }


# --- settings ------------------------------------------------------------------------------------
def prefs_of(db: Session, user_id: int) -> NotificationPrefs:
    row = db.get(NotificationPrefs, user_id)
    return row or NotificationPrefs(
        user_id=user_id, email=None, email_turns=True, email_challenges=True
    )


def save_prefs(db: Session, user: User, email: str, turns: bool, challenges: bool) -> None:
    email = email.strip()
    if email and (len(email) > 254 or not EMAIL_RE.match(email)):
        raise ClubError("{email!r} does not look like an e-mail address.", email=email[:60])
    row = db.get(NotificationPrefs, user.id)
    if row is None:
        row = NotificationPrefs(user_id=user.id)
        db.add(row)
    row.email = email or None
    row.email_turns = turns
    row.email_challenges = challenges


def unsubscribe(db: Session, user_id: int, setting: str) -> None:
    if setting not in ("turns", "challenges"):
        raise ClubError("That unsubscribe link is not one of ours.", 404)
    row = db.get(NotificationPrefs, user_id)
    if row is not None:
        setattr(row, f"email_{setting}", False)


# --- hooks on games ------------------------------------------------------------------------------
def _title(row: GameRow, state: State) -> str:
    return f"{state.game.title} #{row.id}"  # a name and a number: the same in any language


def turn_hook(db: Session, row: GameRow, state: State, mover: int | None) -> None:
    """After moves in a correspondence game: tell the person now to move (unless they just
    moved themselves, as in Hexagone's runs of moves)."""
    clock = row.clock or {}
    if clock.get("kind") != "correspondence" or row.status != "active" or state.is_over:
        return
    to_move = state.to_move
    if not 0 <= to_move < len(row.seats) or to_move == mover:
        return
    seat = row.seats[to_move]
    if seat.kind != "user" or seat.user_id is None:
        return
    others = ", ".join(seat_label(s) for s in row.seats if s.index != to_move)
    notify(
        db,
        seat.user_id,
        "turn",
        Text(
            "Your turn in {game} against {others}", {"game": _title(row, state), "others": others}
        ),
        f"/games/{row.id}",
    )


def finish_hook(db: Session, row: GameRow, state: State) -> None:
    """A game ended: tell each person who played it how (bots need no telling)."""
    headline = result_line(row) or Text("the game is over")
    told: set[int] = set()
    for seat in row.seats:
        if seat.user_id is None or seat.user_id in told:
            continue
        told.add(seat.user_id)
        notify(
            db,
            seat.user_id,
            "ended",
            Text("{game} has ended: {result}", {"game": _title(row, state), "result": headline}),
            f"/games/{row.id}",
        )
