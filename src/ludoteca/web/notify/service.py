"""Making, reading and marking notifications, each user's settings, and the hooks that
notify when a game needs a move or ends.

A notification is written in the transaction of what it announces (a move, a challenge, a
reply), so it exists exactly when that change does. The live bell hears of it after the
commit (:mod:`ludoteca.web.infra.fanout`), and an e-mail for it waits in ``mail_outbox``
for :mod:`ludoteca.web.notify.mail` to send.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ludoteca.core.messages import Text, from_stored, to_stored
from ludoteca.core.protocol import State
from ludoteca.web.i18n.catalogs import Language, account_language
from ludoteca.web.infra.store import GameRow, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.lobby.summary import result_line
from ludoteca.web.notify.links import address_mark
from ludoteca.web.notify.models import SETTINGS, MailOut, Notification, NotificationPrefs
from ludoteca.web.round.access import seat_label

KINDS = ("turn", "challenge", "reply", "ended", "rematch", "tournament", "pairing")
EMAIL_KINDS = {
    "turn": "turns",
    "challenge": "challenges",
    "rematch": "challenges",
    "tournament": "tournaments",
    "pairing": "tournaments",
}
"""Which notifications may also be e-mailed, and the setting each falls under."""
LIST_LENGTH = 50
KEPT = 4 * LIST_LENGTH
"""Notifications kept per user, read or not. The bell lists the latest :data:`LIST_LENGTH`;
older ones are deleted as new ones come and whenever the user reads (nothing shows them),
so neither a member of many correspondence games, told of every turn, nor someone
flooding a member grows the table without end."""
ENCODED_WORD = "=?"
"""The start of an RFC 2047 encoded word, refused in a local part."""
ACCOUNT_MAIL_GAP = timedelta(minutes=10)
"""One confirmation (or reset) e-mail per account in this time."""
ACCOUNT_MAILS_PER_ADDRESS = 3
"""Confirmation and reset e-mails one address may receive in a day, from all accounts."""


def notify(
    db: Session, user_id: int, kind: str, text: Text, link: str, *, mail: bool = True
) -> Notification:
    """Add a notification for ``user_id`` (in ``db``'s transaction), and queue its e-mail
    if the user asked for this kind by e-mail at an address they confirmed (and ``mail``:
    a live game's pairing opens on the player's page, an e-mail about it would come late).

    The notification keeps ``text`` as its template and fields (JSON), so each page shows
    it in its reader's language; the e-mail is written in the language of the account."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    row = Notification(user_id=user_id, kind=kind, text=to_stored(text), link=link[:200])
    db.add(row)
    db.flush()
    _prune(db, user_id)
    setting = EMAIL_KINDS.get(kind)
    if setting is not None and mail:
        prefs = db.get(NotificationPrefs, user_id)
        if (
            prefs is not None
            and prefs.email
            and prefs.email_confirmed
            and getattr(prefs, f"email_{setting}")
        ):
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
                    note_id=row.id,
                )
            )
    return row


def _prune(db: Session, user_id: int) -> None:
    """Delete the user's notifications beyond the newest :data:`KEPT`, read or not."""
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
                Notification.user_id == user_id, Notification.id < oldest_kept
            )
        )


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
its member's session and their count in one round trip (see ``ludoteca.web.kernel.requests``)."""


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


PAIRING_OPENS_WITHIN = timedelta(hours=1)
"""How old an unread pairing may be and still open its game when a page's bell connects."""
GAME_LINK = re.compile(r"/games/(\d+)")


def waiting_pairing(db: Session, user_id: int) -> Notification | None:
    """The user's newest unread pairing of the last :data:`PAIRING_OPENS_WITHIN` that opens
    its game by itself (:func:`opens_by_itself`): such a pairing opens its game on the
    player's page (``bell.js``), but only a page whose bell socket is open hears of it, and
    the socket is down for a moment whenever a page loads or its connection drops. A page's
    bell asks for this as it connects, so that a pairing made in that moment opens its game
    too, while the player's clock runs; the game's own page marks it read, and from then on
    it opens nothing."""
    rows = db.scalars(
        select(Notification)
        .where(
            Notification.user_id == user_id,
            Notification.kind == "pairing",
            Notification.read.is_(False),
            Notification.created >= utcnow() - PAIRING_OPENS_WITHIN,
        )
        .order_by(Notification.id.desc())
        .limit(3)
    )
    for row in rows:
        if opens_by_itself(db, row):
            return row
    return None


def opens_by_itself(db: Session, row: Notification) -> bool:
    """Whether the notification ``row`` is a pairing whose game the player's page opens by
    itself: its game is being played on a live clock, which runs. A correspondence pairing
    is e-mailed and waits for the player to open it: opened by itself, it would take them
    from whatever page they were reading, a game they were thinking about among them."""
    found = GAME_LINK.fullmatch(row.link)
    if row.kind != "pairing" or found is None:
        return False
    game = db.execute(
        select(GameRow.status, GameRow.clock).where(GameRow.id == int(found.group(1)))
    ).first()
    return game is not None and game.status == "active" and (game.clock or {}).get("kind") == "live"


def mark_read(db: Session, user_id: int, up_to: int | None = None, only: int | None = None) -> None:
    """Mark the user's notifications read (those up to id ``up_to``, just ``only``, or
    all), and delete those beyond the newest :data:`KEPT`."""
    query = update(Notification).where(
        Notification.user_id == user_id, Notification.read.is_(False)
    )
    if up_to is not None:
        query = query.where(Notification.id <= up_to)
    if only is not None:
        query = query.where(Notification.id == only)
    db.execute(query.values(read=True))
    _prune(db, user_id)


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
        user_id=user_id,
        email=None,
        email_turns=True,
        email_challenges=True,
        email_tournaments=True,
        email_confirmed=False,
        mail_epoch=0,
    )


def check_address(text: str) -> str:
    """The address ``text`` names, as the club will write it in ``To:``, or a refusal.

    ``email-validator`` reads it by the RFC's syntax as a mail server would, so an address
    that would be delivered elsewhere (``a:b@…``, ``(comment)c@…``, quoted or bracketed
    parts, a display name) or holds control characters is refused, not rewritten; so is a
    local part shaped like an RFC 2047 encoded word (``=?utf-8?q?f?=@…``), which RFC 5322
    allows but some relays decode. A local part beyond ASCII is refused too (few servers
    deliver it without SMTPUTF8, which the club's mail does not ask for); an international
    domain is written in its ASCII form."""
    text = text.strip()
    refused = ClubError("{email!r} does not look like an e-mail address.", email=text[:60])
    if not text or len(text) > 254 or not text.isprintable():
        raise refused
    try:
        found = validate_email(
            text,
            check_deliverability=False,
            allow_smtputf8=False,
            allow_quoted_local=False,
            allow_domain_literal=False,
            allow_display_name=False,
        )
    except EmailNotValidError:
        raise refused from None
    address = found.ascii_email or ""
    if not address or len(address) > 254 or ENCODED_WORD in found.local_part:
        raise refused  # RFC 5322 lets ``=?…?=`` be a local part; some relays decode it
    return address


def save_prefs(
    db: Session, user: User, email: str, turns: bool, challenges: bool, tournaments: bool = False
) -> NotificationPrefs:
    """Save the settings; a new address (checked by :func:`check_address`) is unconfirmed
    until its owner opens the link sent to it. Turning e-mail back on, or a new address,
    starts a new subscription: unsubscribe links from before no longer work."""
    address = check_address(email) if email.strip() else None
    row = db.get(NotificationPrefs, user.id)
    if row is None:
        row = NotificationPrefs(
            user_id=user.id,
            email=None,
            email_turns=False,
            email_challenges=False,
            email_tournaments=False,
            email_confirmed=False,
            mail_epoch=0,
        )
        db.add(row)
    resubscribed = (
        address != row.email
        or (turns and not row.email_turns)
        or (challenges and not row.email_challenges)
        or (tournaments and not row.email_tournaments)
    )
    if address != row.email:
        row.email_confirmed = False
    if resubscribed:
        row.mail_epoch = (row.mail_epoch or 0) + 1
    row.email = address
    row.email_turns = turns
    row.email_challenges = challenges
    row.email_tournaments = tournaments
    return row


def confirm_address(db: Session, user_id: int, mark: str) -> bool:
    """The owner of the address marked ``mark`` (:func:`~ludoteca.web.notify.links.address_mark`)
    opened its confirmation link: e-mail may go there now. False if the account's address
    has changed since the link was sent."""
    row = db.get(NotificationPrefs, user_id)
    if row is None or not row.email or address_mark(row.email) != mark:
        return False
    row.email_confirmed = True
    return True


def queue_account_mail(
    db: Session, user: User, to: str, kind: str, subject: Text, body: Text, link: str
) -> bool:
    """Queue a one-off e-mail the member asked for (``confirm``: an address's confirmation,
    ``reset``: a password reset), in their language, unless one of its kind went to them
    within :data:`ACCOUNT_MAIL_GAP` or :data:`ACCOUNT_MAILS_PER_ADDRESS` went to that
    address in the last day, from any account: typing a stranger's address again and again
    sends them no flood. Returns whether it was queued."""
    now = utcnow()
    recent = db.scalar(
        select(func.count())
        .select_from(MailOut)
        .where(
            MailOut.user_id == user.id,
            MailOut.kind == kind,
            MailOut.created > now - ACCOUNT_MAIL_GAP,
        )
    )
    to_address = db.scalar(
        select(func.count())
        .select_from(MailOut)
        .where(
            func.lower(MailOut.to) == to.lower(),
            MailOut.kind.in_(("confirm", "reset")),
            MailOut.created > now - timedelta(days=1),
        )
    )
    if recent or (to_address or 0) >= ACCOUNT_MAILS_PER_ADDRESS:
        return False
    words = account_language(db.get(User, user.id))
    db.add(
        MailOut(
            user_id=user.id,
            to=to,
            subject=f"ludoteca: {words.text(subject)}"[:200],
            body=words.text(body),
            link=link[:200],
            kind=kind,
            created=now,
        )
    )
    return True


def unsubscribe(db: Session, user_id: int, setting: str, epoch: int) -> bool:
    """Turn off ``setting``'s e-mail, if the link's subscription (``epoch``) is still the
    account's: a link from before a re-subscription does nothing (returns False)."""
    if setting not in SETTINGS:
        raise ClubError("That unsubscribe link is not one of ours.", 404)
    row = db.get(NotificationPrefs, user_id)
    if row is None or (row.mail_epoch or 0) != epoch:
        return False
    setattr(row, f"email_{setting}", False)
    return True


# --- hooks on games ------------------------------------------------------------------------------
def _title(row: GameRow, state: State) -> str:
    return f"{state.game.title} #{row.id}"  # a name and a number: the same in any language


def turn_hook(db: Session, row: GameRow, state: State, mover: int | None) -> None:
    """After moves in a correspondence game: tell the person now to move (unless they just
    moved themselves, as in Hexagone's runs of moves). The mover has seen their own turn:
    its notifications for this game are read, so no e-mail about it goes out."""
    clock = row.clock or {}
    if clock.get("kind") != "correspondence" or row.status != "active":
        return
    if mover is not None and 0 <= mover < len(row.seats) and row.seats[mover].user_id:
        db.execute(
            update(Notification)
            .where(
                Notification.user_id == row.seats[mover].user_id,
                Notification.kind == "turn",
                Notification.link == f"/games/{row.id}",
                Notification.read.is_(False),
            )
            .values(read=True)
        )
    if state.is_over:
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
    """A game ended: tell each person who played it how (bots need no telling). A game of
    one person against the computer is not announced: they played it out on its page, and
    the bell would fill with one entry per game."""
    people = {seat.user_id for seat in row.seats if seat.user_id is not None}
    if len(people) < 2:
        return
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
