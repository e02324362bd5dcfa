"""Computer reviews of finished games. Must match migration ``0006``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class Review(Base):
    __tablename__ = "reviews"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(12), index=True)
    """``queued``, ``running``, ``done`` or ``failed``."""
    requested_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    started: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    done: Mapped[int] = mapped_column(Integer, default=0)
    """Positions evaluated so far (of ``total``)."""
    total: Mapped[int] = mapped_column(Integer, default=0)
    values: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """Per ply (0 = the start), each player's expected result in that position."""
    marks: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """``{"ply", "player", "move", "kind", "drop"}`` for each inaccuracy, mistake, blunder."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
