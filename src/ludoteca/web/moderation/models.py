"""Moderation's tables: roles, suspensions, reports, blocks and the moderators' log.

They must match migration ``0004``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ludoteca.web.infra.store import Base, User, utcnow


class UserRole(Base):
    """A role granted to an account (``moderator``) by ``ludoteca admin grant``."""

    __tablename__ = "user_roles"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Suspension(Base):
    """An account may not post or report until ``until``; the reason is shown to it."""

    __tablename__ = "suspensions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    until: Mapped[datetime] = mapped_column(DateTime)
    reason: Mapped[str] = mapped_column(Text)
    moderator_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Report(Base):
    """A post someone asked the moderators to look at; open until one of them acts on it."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(
        ForeignKey("forum_posts.id", ondelete="CASCADE"), index=True
    )
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    resolved: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    reporter: Mapped[User] = relationship(lazy="joined")


class Block(Base):
    """``user_id`` does not want to see what ``blocked_id`` writes."""

    __tablename__ = "blocks"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ModerationLog(Base):
    """One moderator's action: what, on what, and why. Nothing removes these rows."""

    __tablename__ = "moderation_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    moderator_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    moderator: Mapped[User | None] = relationship(lazy="joined")
