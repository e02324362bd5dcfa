"""A member's progress through the courses, and the puzzles' ratings and tries. Must match
migration ``0011``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base, utcnow


class LessonProgress(Base):
    __tablename__ = "lesson_progress"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    steps_done: Mapped[int] = mapped_column(Integer, default=0)
    """How many steps of the game's course, from the first, the member has solved."""
    updated: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class PuzzleRating(Base):
    """A puzzle's Glicko-2 rating: it "wins" against a member who fails it."""

    __tablename__ = "puzzle_ratings"
    puzzle_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    deviation: Mapped[float] = mapped_column(Float, default=350.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    plays: Mapped[int] = mapped_column(Integer, default=0)


class PuzzlePlayer(Base):
    """A member's puzzle rating (one for all games, as lichess keeps) and streaks."""

    __tablename__ = "puzzle_players"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    deviation: Mapped[float] = mapped_column(Float, default=350.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleAttempt(Base):
    """A member's first try at a puzzle (only the first counts for the ratings)."""

    __tablename__ = "puzzle_attempts"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SoloEntry(Base):
    """A member's entry in a day's Hexagone solo challenge: its moves (replayed with the
    day's dice to check it) and the pieces captured. One per member and day."""

    __tablename__ = "solo_entries"
    __table_args__ = (UniqueConstraint("day", "user_id", name="ux_solo_entries_day_user"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[str] = mapped_column(String(10), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    score: Mapped[int] = mapped_column(Integer)
    moves: Mapped[list[str]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
