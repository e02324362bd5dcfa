"""Challenges: one user asks another to a game with given settings.

They must match migrations ``0005`` and ``0010``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ludoteca.web.infra.store import Base, User, utcnow


class Challenge(Base):
    __tablename__ = "challenges"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    challenger_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    challenged_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seat: Mapped[str] = mapped_column(String(8))
    """Where the challenger sits: ``first``, ``second`` or ``random`` (drawn on accepting)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(12), default="pending", index=True)
    """``pending``, ``accepted``, ``declined`` or ``cancelled``."""
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """The challenged user blocks the challenger: they never see it (the challenger is not
    told, so a block is not announced)."""
    rematch_of: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True, index=True
    )
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    """The game made when it was accepted."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    answered: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    challenger: Mapped[User] = relationship(foreign_keys=[challenger_id], lazy="joined")
    challenged: Mapped[User] = relationship(foreign_keys=[challenged_id], lazy="joined")
    __table_args__ = (
        # One rematch offer waits per finished game, whoever made it (migration 0010).
        Index(
            "ux_challenges_pending_rematch",
            "rematch_of",
            unique=True,
            sqlite_where=text("status = 'pending'"),
            postgresql_where=text("status = 'pending'"),
        ),
    )
