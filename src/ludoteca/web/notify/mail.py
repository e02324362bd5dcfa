"""Sending the e-mails waiting in ``mail_outbox`` through the SMTP server of ``--smtp URL``.

``smtp://[user:password@]host[:port]`` (plain, upgraded with STARTTLS when
``?starttls=1``), or ``smtps://…`` (TLS from the start); ``?from=club@example.org`` sets the
sender. Every server process runs a sender: each claims a message before sending it (an
``UPDATE`` only one process can win), so a message goes out once however many processes
share the database, and one whose sender died is claimed again after
:data:`CLAIM_SECONDS`. A message that fails is tried again later, up to
:data:`MAX_ATTEMPTS` times.

Each notification e-mail carries a one-click unsubscribe link (RFC 8058:
``List-Unsubscribe`` with ``List-Unsubscribe-Post``), signed with the club's secret
(:mod:`ludoteca.web.notify.links`), which turns off that kind of e-mail for its user without
logging in. Headers are written by ``email.policy.SMTP`` with lines up to RFC 5322's 998
characters, so a header holding an address stays plain ASCII that mail programs read, never
an RFC 2047 encoded word, however long the club's address.

Every e-mail is in its member's language (the one they registered in, or chose since).
A turn e-mail waits :attr:`Mailer.turn_delay` before it goes, and is dropped if its
notification has been read meanwhile (the player saw it on the club, or moved): mail is for
members who are away. Those of one member that are due together go out as one e-mail.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from urllib.parse import parse_qs, unquote, urlsplit

import anyio
from sqlalchemy import and_, or_, select, update

from ludoteca.core.messages import Text
from ludoteca.web.i18n.catalogs import Language, account_language
from ludoteca.web.infra.store import Store, User, utcnow
from ludoteca.web.notify.links import unsubscribe_token
from ludoteca.web.notify.models import SETTINGS, MailOut, Notification, NotificationPrefs

log = logging.getLogger("ludoteca.web")
POLL_SECONDS = 2.0
CLAIM_SECONDS = 300
MAX_ATTEMPTS = 5
BATCH = 20
TIMEOUT_SECONDS = 20
TURN_DELAY_SECONDS = 600.0
"""How long a turn e-mail waits for its player to come by before it goes."""
MAIL_POLICY = policy.SMTP.clone(max_line_length=998)
"""CRLF lines as SMTP wants, folded only beyond RFC 5322's hard limit: the default policy
folds at 78 and, finding no space in a long ``<https://…>``, encodes it as an RFC 2047
word that no mail program reads as an address."""
URL_HEADERS = ("List-Unsubscribe",)


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = "ludoteca@localhost"

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """Read ``--smtp``; a URL that cannot be used is refused with what is wrong."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"--smtp must start with smtp:// or smtps://, not {url[:40]!r}")
        if not parts.hostname:
            raise ValueError("--smtp needs a host: smtp://HOST[:PORT]")
        try:
            port = parts.port
        except ValueError:
            raise ValueError("--smtp has a port that is not a number") from None
        query = parse_qs(parts.query)
        tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname,
            port=port or (465 if tls else 25),
            tls=tls,
            starttls=query.get("starttls", ["0"])[0] in ("1", "true", "yes"),
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            sender=query.get("from", ["ludoteca@localhost"])[0],
        )

    def send(self, message: EmailMessage) -> None:
        if self.tls:
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=TIMEOUT_SECONDS, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT_SECONDS)
        with client:
            if self.starttls:
                client.starttls(context=ssl.create_default_context())
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(message)


class Mailer:
    """The sender of one server process."""

    def __init__(
        self,
        store: Store,
        server: SmtpServer,
        public_url: str,
        secret: bytes,
        turn_delay: float = TURN_DELAY_SECONDS,
    ) -> None:
        self.store = store
        self.server = server
        self.public_url = public_url.rstrip("/")
        self.secret = secret
        self.turn_delay = turn_delay
        self.sent = 0
        self.failures = 0
        """E-mails the SMTP server did not take (each is tried again): for the metrics."""

    def unsubscribe_url(self, user_id: int, setting: str, epoch: int) -> str:
        token = unsubscribe_token(self.secret, user_id, setting, epoch)
        return f"{self.public_url}/unsubscribe/{token}"

    def message(self, rows: list[MailOut]) -> EmailMessage:
        """One e-mail for ``rows``, all to one member and of one kind (several turns)."""
        first = rows[0]
        with self.store.reading() as db:
            words = account_language(db.get(User, first.user_id))
            prefs = db.get(NotificationPrefs, first.user_id)
        epoch = prefs.mail_epoch if prefs is not None else 0
        message = EmailMessage(policy=MAIL_POLICY)
        message["From"] = self.server.sender
        message["To"] = first.to
        message["Date"] = formatdate(usegmt=True)
        # The sender's domain names the message (without it, make_msgid asks DNS for ours).
        domain = parseaddr(self.server.sender)[1].rpartition("@")[2]
        message["Message-ID"] = make_msgid(domain=domain or "ludoteca.invalid")
        if len(rows) == 1:
            message["Subject"] = first.subject
            body = f"{first.body}\n\n{self._url(first.link)}\n"
        else:
            message["Subject"] = "ludoteca: " + words.ngettext(
                "Your turn in {n} game", "Your turn in {n} games", len(rows)
            ).format(n=len(rows))
            body = "".join(f"{row.body}\n{self._url(row.link)}\n\n" for row in rows)
        if first.kind in SETTINGS:
            unsubscribe = self.unsubscribe_url(first.user_id, first.kind, epoch)
            message["List-Unsubscribe"] = f"<{unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            body += "\n" + self._footer(words, first.kind, unsubscribe)
        message.set_content(body)
        for name in URL_HEADERS:
            value = message[name]
            if value is not None and not str(value).isascii():
                raise ValueError(f"{name} must be ASCII")
        return message

    def _url(self, link: str) -> str:
        """A club path as a whole address; a row's link may already be one."""
        return link if link.startswith(("http://", "https://")) else f"{self.public_url}{link}"

    def _footer(self, words: Language, setting: str, unsubscribe: str) -> str:
        what = {
            "turns": words.gettext("your turns in correspondence games"),
            "challenges": words.gettext("challenges and rematches"),
            "tournaments": words.gettext("the tournaments you play in"),
        }
        return words.text(
            Text(
                "You get this e-mail because you asked ludoteca to write about {what}.\n"
                "Stop these e-mails with one click: {unsubscribe}\n"
                "Change all your settings: {settings}\n",
                {
                    "what": what.get(setting, setting),
                    "unsubscribe": unsubscribe,
                    "settings": f"{self.public_url}/settings/notifications",
                },
            )
        )

    def claim(self) -> list[MailOut]:
        """Take up to :data:`BATCH` messages to send; another process cannot take them."""
        now = utcnow()
        stale = now - timedelta(seconds=CLAIM_SECONDS)
        taken: list[MailOut] = []
        with self.store.session() as db:
            candidates = db.scalars(
                select(MailOut)
                .where(
                    MailOut.sent.is_(None),
                    MailOut.attempts < MAX_ATTEMPTS,
                    or_(MailOut.claimed.is_(None), MailOut.claimed < stale),
                    or_(
                        MailOut.kind != "turns",
                        MailOut.created <= now - timedelta(seconds=self.turn_delay),
                    ),
                )
                .order_by(MailOut.id)
                .limit(BATCH)
            ).all()
            for row in candidates:
                won = db.execute(
                    update(MailOut)
                    .where(
                        MailOut.id == row.id,
                        or_(MailOut.claimed.is_(None), MailOut.claimed < stale),
                    )
                    .values(claimed=now),
                    execution_options={"synchronize_session": False},
                ).rowcount
                if won:
                    taken.append(row)
            db.commit()
        return taken

    def _not_wanted(self, rows: list[MailOut]) -> set[int]:
        """The ids of the e-mails that would tell their member nothing or that they no
        longer want: a turn whose notification has been read (or pruned) since, as the
        player saw it on the club or moved; and any e-mail of a kind they have turned off
        since it was queued, or for an address that is no longer their confirmed one."""
        subscribed = [row for row in rows if row.kind in SETTINGS]
        if not subscribed:
            return set()
        notes = {row.note_id for row in subscribed if row.kind == "turns" and row.note_id}
        with self.store.reading() as db:
            unread = set(
                db.scalars(
                    select(Notification.id).where(
                        and_(Notification.id.in_(notes), Notification.read.is_(False))
                    )
                )
            )
            prefs = {
                p.user_id: p
                for p in db.scalars(
                    select(NotificationPrefs).where(
                        NotificationPrefs.user_id.in_({row.user_id for row in subscribed})
                    )
                )
            }
        dropped = set()
        for row in subscribed:
            wanted = prefs.get(row.user_id)
            if (
                wanted is None
                or not wanted.email_confirmed
                or wanted.email != row.to
                or not getattr(wanted, f"email_{row.kind}")
                or (row.kind == "turns" and row.note_id not in unread)
            ):
                dropped.add(row.id)
        return dropped

    def send_waiting(self) -> int:
        """Send what is waiting now; returns how many e-mails went out."""
        rows = self.claim()
        seen = self._not_wanted(rows)
        skipped = [row for row in rows if row.id in seen]
        if skipped:
            self._finish(skipped, {"sent": utcnow(), "error": "no longer wanted: not sent"})
        groups: dict[tuple[int, str, str], list[MailOut]] = defaultdict(list)
        for row in rows:
            if row.id in seen:
                continue
            key = (row.user_id, row.to, row.kind) if row.kind == "turns" else (row.id, "", "")
            groups[key].append(row)
        sent = 0
        for group in groups.values():
            try:
                self.server.send(self.message(group))
            except (OSError, smtplib.SMTPException, ValueError) as exc:
                log.warning("e-mail to user %s failed: %s", group[0].user_id, exc)
                self.failures += 1
                for row in group:
                    self._finish(
                        [row],
                        {"claimed": None, "attempts": row.attempts + 1, "error": str(exc)[:500]},
                    )
            else:
                self._finish(group, {"sent": utcnow(), "error": None})
                sent += 1
        self.sent += sent
        return sent

    def _finish(self, rows: list[MailOut], values: dict) -> None:
        with self.store.session() as db:
            db.execute(
                update(MailOut).where(MailOut.id.in_([row.id for row in rows])).values(**values)
            )
            db.commit()

    async def run(self) -> None:
        """Forever: send what waits, then look again in :data:`POLL_SECONDS`."""
        while True:
            try:
                await anyio.to_thread.run_sync(self.send_waiting)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sending e-mail failed; trying again")
            await asyncio.sleep(POLL_SECONDS)
