"""The ``seeks`` table: one row per person waiting in the quick-pairing pool.

A seek lives while its person's page does: the socket that made it refreshes ``alive`` and
deletes it when it closes, and a seek not refreshed for :data:`~.pool.ABSENT_SECONDS` is
nobody's (its page or its server process is gone) and is never paired. Pairing first
*claims* the seeks of a table with one conditional ``UPDATE`` (``claim IS NULL``), so two
server processes matching the same seeks at once cannot both make a game of them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class Seek(Base):
    __tablename__ = "seeks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    control: Mapped[str] = mapped_column(String(16))
    """The grid's key of the time control (:data:`~.controls.CONTROLS`)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[float] = mapped_column(Float)
    """The seeker's rating in the game's pool when the seek was made."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    alive: Mapped[datetime] = mapped_column(DateTime, default=utcnow, index=True)
    """Last refreshed by the seeker's open socket."""
    claim: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The token of the pairing that took this seek; None while it waits."""
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The game the seek was paired into."""
    __table_args__ = (Index("ix_seeks_bucket", "game", "players", "control", "rated"),)
