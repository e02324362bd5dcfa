"""The forum's tables: threads, posts and what each reader has read.

A post keeps its Markdown source and the HTML rendered from it when it was written or
edited (sanitised, with embedded boards drawn then): pages never render Markdown on the
way out, and a board embedded from a game shows the game as it stood when it was cited.
The tables here must match migration ``0004``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ludoteca.web.infra.store import Base, User, utcnow


class ForumThread(Base):
    __tablename__ = "forum_threads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    category: Mapped[str] = mapped_column(String(32), index=True)
    title: Mapped[str] = mapped_column(String(200))
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_post_id: Mapped[int] = mapped_column(Integer, default=0)
    """The newest visible post: the unread markers compare it with what a reader has read."""
    last_post_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    posts: Mapped[int] = mapped_column(Integer, default=0)
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """Set when a moderator hides the opening post: the whole thread leaves the lists."""
    author: Mapped[User] = relationship(lazy="joined")


class ForumPost(Base):
    __tablename__ = "forum_posts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    thread_id: Mapped[int] = mapped_column(
        ForeignKey("forum_threads.id", ondelete="CASCADE"), index=True
    )
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    body: Mapped[str] = mapped_column(Text)
    """The Markdown as its author wrote it."""
    html: Mapped[str] = mapped_column(Text)
    """``body`` rendered and sanitised (:mod:`ludoteca.web.forum.markup`)."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    edited: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    hidden_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    author: Mapped[User] = relationship(lazy="joined")


class ForumRead(Base):
    """How far a reader has read a thread: the newest post id they have been shown."""

    __tablename__ = "forum_reads"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    thread_id: Mapped[int] = mapped_column(
        ForeignKey("forum_threads.id", ondelete="CASCADE"), primary_key=True
    )
    last_post_id: Mapped[int] = mapped_column(Integer, default=0)
