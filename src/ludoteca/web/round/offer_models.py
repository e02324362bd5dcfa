"""The table of offers during a game (migration ``0013``).

An offer is kept as the events that make it: offered, accepted (by one of the players it
asks), declined, agreed (everyone asked accepted, and the game changed), lapsed (the game
moved on before an answer). Rows are only ever added, so each one is an event the other
server processes hear (:func:`ludoteca.web.infra.fanout.register_event`), and the game's
record lists them as they are (:attr:`ludoteca.record.Record.offers`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class OfferEvent(Base):
    """One step of an offer in a game: who (``seat``), what (``kind``, ``action``), at which
    ply of the game."""

    __tablename__ = "offer_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(12))
    """``abort``, ``draw`` or ``takeback``."""
    action: Mapped[str] = mapped_column(String(12))
    """``offered``, ``accepted``, ``declined``, ``agreed`` or ``lapsed``."""
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    undone: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """An agreed takeback: the moves it took back, in notation, for the record."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
