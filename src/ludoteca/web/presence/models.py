"""Follows, and each member's last sign of life.

Presence is shared between server processes through the database: each process writes
``seen`` for the members with a page open on it (their ``/ws/me`` socket) when it opens
and every :data:`~.service.BEAT_SECONDS` after, so a member is online while ``seen`` is
recent, whichever process holds their pages, and drops off by themselves when a process
dies.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class Follow(Base):
    """``user_id`` follows ``followed_id``: sees them on ``/following``."""

    __tablename__ = "follows"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Presence(Base):
    __tablename__ = "presence"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    seen: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """The member's setting: nobody sees them online (they still count in the lobby's
    anonymous number)."""
