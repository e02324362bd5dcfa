"""Moderators and what they do: roles, hiding posts, locking threads, suspending accounts,
reports and blocks. Every moderator's action is written to ``moderation_log`` in the same
transaction as the action itself, so nothing a moderator does goes unrecorded.

Everything is read from and written to the database, so it holds across server processes:
a moderator hiding a post on one machine hides it for readers of every other.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ludoteca.core.messages import Text
from ludoteca.web.infra.store import User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation.models import Block, ModerationLog, Report, Suspension, UserRole

MODERATOR = "moderator"
ROLES = (MODERATOR,)
MAX_REASON = 500
MAX_SUSPENSION_DAYS = 3650


class ModerationError(ClubError):
    """A moderation request refused, with a message for the person."""


def roles(db: Session, user_id: int) -> set[str]:
    return set(db.scalars(select(UserRole.role).where(UserRole.user_id == user_id)))


def is_moderator(db: Session, user: User | None) -> bool:
    return user is not None and MODERATOR in roles(db, user.id)


def require_moderator(db: Session, user: User | None) -> User:
    if user is None or not is_moderator(db, user):
        raise ModerationError("Only moderators may do that.", 403)
    return user


def grant(db: Session, user: User, role: str) -> bool:
    """Give ``role`` to ``user``; False if they had it already."""
    if role not in ROLES:
        raise ModerationError(
            "There is no role {role!r}; the roles are: {ROLES}.", role=role, ROLES=", ".join(ROLES)
        )
    if role in roles(db, user.id):
        return False
    db.add(UserRole(user_id=user.id, role=role))
    log(db, None, "grant", f"user {user.name}", role)
    return True


def revoke(db: Session, user: User, role: str) -> bool:
    """Take ``role`` from ``user``; False if they did not have it."""
    if role not in ROLES:
        raise ModerationError(
            "There is no role {role!r}; the roles are: {ROLES}.", role=role, ROLES=", ".join(ROLES)
        )
    gone = db.execute(
        delete(UserRole).where(UserRole.user_id == user.id, UserRole.role == role)
    ).rowcount
    if gone:
        log(db, None, "revoke", f"user {user.name}", role)
    return bool(gone)


def log(db: Session, moderator: User | None, action: str, target: str, reason: str = "") -> None:
    db.add(
        ModerationLog(
            moderator_id=moderator.id if moderator is not None else None,
            action=action,
            target=target[:200],
            reason=reason,
        )
    )


def reason_text(reason: str, required: bool = True) -> str:
    reason = " ".join(reason.split())
    if required and not reason:
        raise ModerationError("Please give a reason.")
    if len(reason) > MAX_REASON:
        raise ModerationError(
            "A reason has at most {MAX_REASON} characters.", MAX_REASON=MAX_REASON
        )
    return reason


# --- suspensions -----------------------------------------------------------------------------
def active_suspension(db: Session, user_id: int, now: datetime | None = None) -> Suspension | None:
    now = now or utcnow()
    return db.scalar(
        select(Suspension)
        .where(Suspension.user_id == user_id, Suspension.until > now)
        .order_by(Suspension.until.desc())
        .limit(1)
    )


def suspend(db: Session, moderator: User, target: User, hours: int, reason: str) -> Suspension:
    if not 1 <= hours <= MAX_SUSPENSION_DAYS * 24:
        raise ModerationError(
            "A suspension lasts from 1 hour to {MAX_SUSPENSION_DAYS} days.",
            MAX_SUSPENSION_DAYS=MAX_SUSPENSION_DAYS,
        )
    if target.id == moderator.id:
        raise ModerationError("Moderators cannot suspend themselves.")
    reason = reason_text(reason)
    row = Suspension(
        user_id=target.id,
        until=utcnow() + timedelta(hours=hours),
        reason=reason,
        moderator_id=moderator.id,
    )
    db.add(row)
    log(db, moderator, "suspend", f"user {target.name}", f"{hours} h: {reason}")
    return row


def lift_suspension(db: Session, moderator: User, target: User) -> None:
    now = utcnow()
    rows = db.scalars(
        select(Suspension).where(Suspension.user_id == target.id, Suspension.until > now)
    ).all()
    if not rows:
        raise ModerationError("{name} is not suspended.", 409, name=target.name)
    for row in rows:
        row.until = now
    log(db, moderator, "unsuspend", f"user {target.name}")


def active_suspensions(db: Session, limit: int = 200) -> list[tuple[Suspension, str]]:
    """The suspensions in force, soonest to end first, each with its member's name."""
    return [
        (row, name)
        for row, name in db.execute(
            select(Suspension, User.name)
            .join(User, User.id == Suspension.user_id)
            .where(Suspension.until > utcnow())
            .order_by(Suspension.until, Suspension.id)
            .limit(limit)
        ).all()
    ]


def check_not_suspended(db: Session, user: User) -> None:
    row = active_suspension(db, user.id)
    if row is not None:
        raise ModerationError(suspension_message(row), 403)


def suspension_message(row: Suspension) -> Text:
    return Text(
        "Your account may not write in the forum or chat until {until:%Y-%m-%d %H:%M} UTC. "
        "The moderators' reason: {reason}",
        {"until": row.until, "reason": row.reason},
    )


# --- reports -------------------------------------------------------------------------------------
def open_reports(db: Session, limit: int = 100) -> list[Report]:
    return list(
        db.scalars(select(Report).where(Report.resolved.is_(None)).order_by(Report.id).limit(limit))
    )


def resolve_reports(db: Session, post_id: int) -> None:
    for row in db.scalars(
        select(Report).where(Report.post_id == post_id, Report.resolved.is_(None))
    ):
        row.resolved = utcnow()


# --- blocks --------------------------------------------------------------------------------------
def blocked_ids(db: Session, user: User | None) -> set[int]:
    if user is None:
        return set()
    return set(db.scalars(select(Block.blocked_id).where(Block.user_id == user.id)))


def block(db: Session, user: User, other: User) -> None:
    if other.id == user.id:
        raise ModerationError("You cannot block yourself.")
    if db.get(Block, (user.id, other.id)) is None:
        db.add(Block(user_id=user.id, blocked_id=other.id))
        try:
            db.flush()
        except IntegrityError:  # blocked twice at once: once is enough
            db.rollback()


def unblock(db: Session, user: User, other: User) -> None:
    db.execute(delete(Block).where(Block.user_id == user.id, Block.blocked_id == other.id))


def recent_log(db: Session, limit: int = 100) -> list[ModerationLog]:
    return list(db.scalars(select(ModerationLog).order_by(ModerationLog.id.desc()).limit(limit)))
