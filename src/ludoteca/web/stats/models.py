"""The tallies behind ``/stats``: finished games counted by game, player count and month.

Each finished game adds itself to its row in the transaction that ends it, so the page
reads a few hundred rows however many games the club has played. Must match migration
``0005``.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base


class GameTally(Base):
    __tablename__ = "game_tallies"
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    month: Mapped[str] = mapped_column(String(7), primary_key=True)
    """``YYYY-MM`` of the game's end."""
    games: Mapped[int] = mapped_column(Integer, default=0)
    first_wins: Mapped[int] = mapped_column(Integer, default=0)
    """Games the first seat won alone."""
    draws: Mapped[int] = mapped_column(Integer, default=0)
    """Games every seat shared first place in."""
    decided: Mapped[int] = mapped_column(Integer, default=0)
    """Games ended by the rules (not resignation, time or abandonment)."""
    plies: Mapped[int] = mapped_column(BigInteger, default=0)
    """Total length (moves, chance included) of the games ended by the rules."""
    spread: Mapped[float] = mapped_column(Float, default=0.0)
    """Total score margin between first and second place, over scored games."""
    spread_sq: Mapped[float] = mapped_column(Float, default=0.0)
    scored: Mapped[int] = mapped_column(Integer, default=0)
