"""Tournaments, their players and their games. They must match migration ``0014``.

A tournament's standings are never stored: they are counted from its games' points, as
:mod:`ludoteca.tournaments.standings` counts them, so they cannot disagree with the games."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class Tournament(Base):
    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    form: Mapped[str] = mapped_column(String(16))
    """``arena``, ``swiss`` or ``round-robin``."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    status: Mapped[str] = mapped_column(String(12), default="upcoming", index=True)
    """``upcoming``, ``running``, ``finished`` or ``cancelled`` (too few players came)."""
    starts: Mapped[datetime] = mapped_column(DateTime)
    ends: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """An arena's end (no pairing after it); set when it starts."""
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """An arena's length."""
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A Swiss's rounds; a round-robin's, once it has started."""
    max_players: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The last round paired (an arena: pairings made). Pairing claims the next number
    with an update conditional on this one, so of two processes one pairs each round."""
    seed: Mapped[int] = mapped_column(BigInteger)
    repeat_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """A recurring tournament (the club's, scheduled by a moderator): when it starts, the
    next one is announced this many days later, in the same transaction."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class TournamentPlayer(Base):
    __tablename__ = "tournament_players"
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    joined: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentGame(Base):
    """One pairing: its players in seat order, the club game they play (made just after the
    pairing is stored, see :mod:`.director`) and, once it ends, the points each took. A
    bye has one player and no game."""

    __tablename__ = "tournament_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(JSON)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    making: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When a process began making its game: another takes over only long after."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    __table_args__ = (UniqueConstraint("game_id", name="uq_tournament_games_game"),)
