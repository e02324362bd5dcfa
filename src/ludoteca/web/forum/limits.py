"""How much one account may write: posts and new threads per window, lower for new accounts.

Counted from the posts and threads themselves, with the author's row locked for the check
(:func:`lock_author`),
so the limits hold across server processes and two posts at once cannot both pass the last
place. A new account is one younger than :data:`NEW_ACCOUNT`: most spam comes from accounts
made for it, and a newcomer with something to say is not held back by five posts in ten
minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ludoteca.core.messages import N_, Text
from ludoteca.web.forum.models import ForumPost, ForumThread
from ludoteca.web.infra.store import LoginAttempt, User, utcnow
from ludoteca.web.infra.throttle import Limit, when
from ludoteca.web.kernel.errors import ClubError

NEW_ACCOUNT = timedelta(hours=24)


@dataclass(frozen=True)
class PostingLimits:
    posts: Limit
    """Posts (opening posts included) in any ``minutes`` minutes."""
    threads: Limit
    """New threads in any ``minutes`` minutes."""
    reports: Limit = Limit(20, 60)
    edits: Limit = Limit(30, 10)
    """Edits (each one, of any post) in any ``minutes`` minutes: an edit is rendered as a post
    is, so it is counted as one."""


NEW = PostingLimits(posts=Limit(5, 10), threads=Limit(2, 60), edits=Limit(10, 10))
ESTABLISHED = PostingLimits(posts=Limit(30, 10), threads=Limit(10, 60), edits=Limit(30, 10))


def limits_for(user: User, now: datetime | None = None) -> PostingLimits:
    now = now or utcnow()
    return NEW if now - user.created < NEW_ACCOUNT else ESTABLISHED


def _refuse(what: str, limit: Limit, oldest: datetime, now: datetime, new: bool) -> ClubError:
    retry_at = oldest + limit.window
    seconds = max(1, math.ceil((retry_at - now).total_seconds()))
    fields = {"count": limit.count, "minutes": limit.minutes, "when": when(retry_at)}
    if what == "edits":
        template = (
            N_("A new account may make {count} edits in {minutes} minutes: try again {when}.")
            if new
            else N_("One account may make {count} edits in {minutes} minutes: try again {when}.")
        )
    elif what == "threads":
        template = (
            N_("A new account may open {count} threads in {minutes} minutes: try again {when}.")
            if new
            else N_("One account may open {count} threads in {minutes} minutes: try again {when}.")
        )
    else:
        template = (
            N_("A new account may write {count} posts in {minutes} minutes: try again {when}.")
            if new
            else N_("One account may write {count} posts in {minutes} minutes: try again {when}.")
        )
    return ClubError(Text(template, fields), 429, retry_after=seconds)


def lock_author(db: Session, user_id: int) -> None:
    """Hold the author's row until the transaction ends, so that the count and the new post
    are one step for this account: ``FOR UPDATE`` on PostgreSQL; on SQLite a write that
    changes nothing, which takes the database's write lock (and this process's writer
    queue, :mod:`ludoteca.web.infra.sqlite_writes`) before the count rather than after it."""
    if db.get_bind().dialect.name == "postgresql":
        db.execute(select(User.id).where(User.id == user_id).with_for_update())
    else:
        db.execute(update(User).where(User.id == user_id).values(name=User.name))


def check_posting(db: Session, user: User, *, new_thread: bool) -> None:
    """Refuse (429, with when to retry) a post or thread beyond ``user``'s limits."""
    lock_author(db, user.id)
    now = utcnow()
    limits = limits_for(user, now)
    checks = [("posts", limits.posts, ForumPost.created, ForumPost.author_id)]
    if new_thread:
        checks.append(("threads", limits.threads, ForumThread.created, ForumThread.author_id))
    for what, limit, created, author in checks:
        recent = db.scalars(
            select(created)
            .where(author == user.id, created > now - limit.window)
            .order_by(created.desc())
            .limit(limit.count)
        ).all()
        if len(recent) >= limit.count:
            raise _refuse(what, limit, recent[-1], now, limits is NEW)


def edit_key(user_id: int) -> str:
    return f"forum:edit:{user_id}"


def check_editing(db: Session, user: User) -> None:
    """Refuse (429) an edit beyond ``user``'s limit, else count it: one row in the shared
    ``login_attempts`` table (pruned with the others), written under the author's lock so
    that edits at once from several processes are counted one by one. The caller commits."""
    lock_author(db, user.id)
    now = utcnow()
    limits = limits_for(user, now)
    recent = db.scalars(
        select(LoginAttempt.created)
        .where(
            LoginAttempt.key == edit_key(user.id), LoginAttempt.created > now - limits.edits.window
        )
        .order_by(LoginAttempt.created.desc())
        .limit(limits.edits.count)
    ).all()
    if len(recent) >= limits.edits.count:
        raise _refuse("edits", limits.edits, recent[-1], now, limits is NEW)
    db.add(LoginAttempt(key=edit_key(user.id), created=now))
