"""Notifications, each user's notification settings, and the outbox of e-mails to send.

They must match migration ``0005``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow

SETTINGS = ("turns", "challenges", "tournaments")
"""The kinds of e-mail a member subscribes to (and can unsubscribe from): each is a column
``email_<setting>`` of :class:`NotificationPrefs`."""


class Notification(Base):
    """One thing a user should know about: their turn, a challenge, a reply, a game's end."""

    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``turn``, ``challenge``, ``reply``, ``ended`` or ``rematch``."""
    text: Mapped[str] = mapped_column(Text)
    link: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    read: Mapped[bool] = mapped_column(Boolean, default=False)


class NotificationPrefs(Base):
    """A user's choices: an e-mail address, and which notifications are also e-mailed.

    No row means the defaults: no address, so no e-mail."""

    __tablename__ = "notification_prefs"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_turns: Mapped[bool] = mapped_column(Boolean, default=True)
    """E-mail when it is their turn in a correspondence game."""
    email_challenges: Mapped[bool] = mapped_column(Boolean, default=True)
    """E-mail when someone challenges them."""
    email_tournaments: Mapped[bool] = mapped_column(Boolean, default=True)
    """E-mail when a tournament they play in starts or ends, and when it pairs them in a
    correspondence game (migration ``0018``)."""
    email_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    """The owner of :attr:`email` opened the confirmation link sent to it: until then no
    other e-mail goes there (anyone could type a stranger's address)."""
    mail_epoch: Mapped[int] = mapped_column(Integer, default=0)
    """Counts the subscriptions: raised whenever e-mail is turned back on or the address
    changes, so that an unsubscribe link from before no longer works."""


class MailOut(Base):
    """An e-mail waiting to be sent, written in the same transaction as its cause so that a
    crash can neither lose it nor send one for a change that was rolled back. Any server
    process sends it (:mod:`ludoteca.web.notify.mail`)."""

    __tablename__ = "mail_outbox"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    to: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    link: Mapped[str] = mapped_column(String(200), default="/")
    """The club page it is about, as a path: the sender makes it a whole address."""
    kind: Mapped[str] = mapped_column(String(16))
    """Which setting it falls under (``turns``, ``challenges`` or ``tournaments``: the
    unsubscribe link turns that one off), or ``confirm`` / ``reset`` for the one-off
    e-mails a member asks for (confirming an address, resetting a password), which carry no
    unsubscribe link."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    note_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The notification the e-mail repeats, if any (no foreign key: pruning notifications
    must not wait on the outbox). A turn e-mail waits a while before it goes
    (:attr:`ludoteca.web.notify.mail.Mailer.turn_delay`) and is dropped if this
    notification was seen meanwhile: the player is on the club, or has moved."""
    claimed: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    sent: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
