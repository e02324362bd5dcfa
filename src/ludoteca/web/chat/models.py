"""Chat lines, the players' mutes of the spectators' channel, and reports of lines.

They must match migration ``0005``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ludoteca.web.infra.store import Base, User, utcnow

PLAYERS = "players"
SPECTATORS = "spectators"


class ChatLine(Base):
    """One line of a game's chat, kept with the game and shown beside its replay."""

    __tablename__ = "chat_lines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    """``players`` or ``spectators``."""
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    author: Mapped[User] = relationship(lazy="joined")


class ChatMute(Base):
    """A player of ``game_id`` does not want to see its spectators' channel."""

    __tablename__ = "chat_mutes"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )


class ChatReport(Base):
    """A chat line someone asked the moderators to look at."""

    __tablename__ = "chat_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    line_id: Mapped[int] = mapped_column(
        ForeignKey("chat_lines.id", ondelete="CASCADE"), index=True
    )
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    resolved: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    reporter: Mapped[User] = relationship(lazy="joined")
    line: Mapped[ChatLine] = relationship(lazy="joined")
