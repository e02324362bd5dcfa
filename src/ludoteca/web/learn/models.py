"""A member's progress through the courses. Must match migration ``0011``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
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
