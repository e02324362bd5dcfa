"""Sending the e-mails waiting in ``mail_outbox`` through the SMTP server of ``--smtp URL``.

``smtp://[user:password@]host[:port]`` (plain, upgraded with STARTTLS when
``?starttls=1``), or ``smtps://…`` (TLS from the start); ``?from=club@example.org`` sets the
sender. Every server process runs a sender: each claims a message before sending it (an
``UPDATE`` only one process can win), so a message goes out once however many processes
share the database, and one whose sender died is claimed again after
:data:`CLAIM_SECONDS`. A message that fails is tried again later, up to
:data:`MAX_ATTEMPTS` times.

Each e-mail carries a one-click unsubscribe link (RFC 8058: ``List-Unsubscribe`` with
``List-Unsubscribe-Post``) signed with the club's secret, which turns off that kind of
e-mail for its user without logging in.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import smtplib
import ssl
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import anyio
from sqlalchemy import or_, select, update

from ludoteca.core.messages import Text
from ludoteca.web.i18n.catalogs import account_language
from ludoteca.web.infra.store import Store, User, utcnow
from ludoteca.web.notify.models import MailOut

log = logging.getLogger("ludoteca.web")
POLL_SECONDS = 2.0
CLAIM_SECONDS = 300
MAX_ATTEMPTS = 5
BATCH = 20
TIMEOUT_SECONDS = 20


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


def unsubscribe_signature(secret: bytes, user_id: int, setting: str) -> str:
    return hmac.new(
        secret, f"unsubscribe:{user_id}:{setting}".encode(), hashlib.sha256
    ).hexdigest()[:32]


def unsubscribe_ok(secret: bytes, user_id: int, setting: str, signature: str) -> bool:
    return hmac.compare_digest(unsubscribe_signature(secret, user_id, setting), signature)


class Mailer:
    """The sender of one server process."""

    def __init__(self, store: Store, server: SmtpServer, public_url: str, secret: bytes) -> None:
        self.store = store
        self.server = server
        self.public_url = public_url.rstrip("/")
        self.secret = secret
        self.sent = 0

    def unsubscribe_url(self, user_id: int, setting: str) -> str:
        sig = unsubscribe_signature(self.secret, user_id, setting)
        return f"{self.public_url}/unsubscribe/{user_id}/{setting}/{sig}"

    def message(self, row: MailOut) -> EmailMessage:
        unsubscribe = self.unsubscribe_url(row.user_id, row.kind)
        with self.store.reading() as db:
            words = account_language(db.get(User, row.user_id))
        what = {
            "turns": words.gettext("your turns in correspondence games"),
            "challenges": words.gettext("challenges and rematches"),
        }
        message = EmailMessage()
        message["From"] = self.server.sender
        message["To"] = row.to
        message["Subject"] = row.subject
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(
            f"{row.body}\n\n{self.public_url}{row.link}\n\n"
            + words.text(
                Text(
                    "You get this e-mail because you asked ludoteca to write about {what}.\n"
                    "Stop these e-mails with one click: {unsubscribe}\n"
                    "Change all your settings: {settings}\n",
                    {
                        "what": what.get(row.kind, row.kind),
                        "unsubscribe": unsubscribe,
                        "settings": f"{self.public_url}/settings/notifications",
                    },
                )
            )
        )
        return message

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

    def send_waiting(self) -> int:
        """Send what is waiting now; returns how many went out."""
        sent = 0
        for row in self.claim():
            try:
                self.server.send(self.message(row))
            except (OSError, smtplib.SMTPException) as exc:
                log.warning("e-mail %s to user %s failed: %s", row.id, row.user_id, exc)
                values = {"claimed": None, "attempts": row.attempts + 1, "error": str(exc)[:500]}
            else:
                values = {"sent": utcnow(), "error": None}
                sent += 1
            with self.store.session() as db:
                db.execute(update(MailOut).where(MailOut.id == row.id).values(**values))
                db.commit()
        self.sent += sent
        return sent

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
