"""The table of members' vacations from their correspondence clocks (migration ``0013``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.web.infra.store import Base


class Vacation(Base):
    """A member's correspondence clocks paused from ``starts`` to ``ends`` (``days`` of their
    yearly allowance)."""

    __tablename__ = "vacations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    starts: Mapped[datetime] = mapped_column(DateTime)
    ends: Mapped[datetime] = mapped_column(DateTime, index=True)
    days: Mapped[int] = mapped_column(Integer)
