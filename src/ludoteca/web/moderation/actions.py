"""What moderators do to the forum, and the reports that ask them to: hide and show posts,
lock and unlock threads. Each action is logged with the moderator and the reason, in the
transaction that makes it, and settles the open reports on the post it concerns.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ludoteca.web.forum.limits import limits_for, lock_author
from ludoteca.web.forum.models import ForumPost, ForumThread
from ludoteca.web.infra.store import User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation.models import Report
from ludoteca.web.moderation.service import (
    ModerationError,
    check_not_suspended,
    log,
    reason_text,
    require_moderator,
    resolve_reports,
)


def _post(db: Session, post_id: int) -> ForumPost:
    post = db.get(ForumPost, post_id)
    if post is None:
        raise ClubError("There is no such post.", 404)
    return post


def _opening(db: Session, thread_id: int) -> int | None:
    return db.scalar(select(func.min(ForumPost.id)).where(ForumPost.thread_id == thread_id))


def report(db: Session, user: User, post_id: int, reason: str) -> Report:
    post = _post(db, post_id)
    if post.hidden:
        raise ModerationError("That post is already hidden.", 409)
    check_not_suspended(db, user)
    reason = reason_text(reason)
    lock_author(db, user.id)
    limit = limits_for(user).reports
    recent = db.scalar(
        select(func.count()).where(
            Report.reporter_id == user.id, Report.created > utcnow() - limit.window
        )
    )
    if recent >= limit.count:
        raise ModerationError(
            "You have sent {count} reports in the last {minutes} minutes, the most one account "
            "may; the moderators will get to them.",
            429,
            count=limit.count,
            minutes=limit.minutes,
        )
    row = Report(post_id=post.id, reporter_id=user.id, reason=reason)
    db.add(row)
    return row


def hide_post(db: Session, moderator: User, post_id: int, reason: str) -> ForumPost:
    require_moderator(db, moderator)
    reason = reason_text(reason)
    post = _post(db, post_id)
    post.hidden, post.hidden_reason = True, reason
    if _opening(db, post.thread_id) == post.id:
        thread = db.get(ForumThread, post.thread_id)
        if thread is not None:
            thread.hidden = True  # the title may be the offence: the thread leaves the lists
    resolve_reports(db, post.id)
    log(db, moderator, "hide", f"post {post.id} by {post.author.name}", reason)
    return post


def show_post(db: Session, moderator: User, post_id: int) -> ForumPost:
    require_moderator(db, moderator)
    post = _post(db, post_id)
    post.hidden, post.hidden_reason = False, None
    if _opening(db, post.thread_id) == post.id:
        thread = db.get(ForumThread, post.thread_id)
        if thread is not None:
            thread.hidden = False
    log(db, moderator, "unhide", f"post {post.id} by {post.author.name}")
    return post


def dismiss_reports(db: Session, moderator: User, post_id: int) -> None:
    require_moderator(db, moderator)
    post = _post(db, post_id)
    resolve_reports(db, post.id)
    log(db, moderator, "dismiss", f"reports on post {post.id}")


def set_locked(db: Session, moderator: User, thread_id: int, locked: bool, reason: str) -> None:
    require_moderator(db, moderator)
    thread = db.get(ForumThread, thread_id)
    if thread is None:
        raise ClubError("There is no such thread.", 404)
    thread.locked = locked
    reason = reason_text(reason, required=False)
    log(db, moderator, "lock" if locked else "unlock", f"thread {thread.id}", reason)
