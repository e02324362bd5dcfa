"""Game chat: who may read and write which channel, writing a line, mutes and reports.

Each game has two channels. Its players write in ``players``; everyone else signed in
writes in ``spectators``. While the game is open or being played the channels are kept
apart: players see only theirs, spectators only theirs, so a watcher cannot whisper advice
to a player. Once it is over both are shown to everyone, beside the replay, except that a
player may mute the spectators' channel for themselves. Lines of someone a reader blocks
are never shown to that reader, and lines a moderator hid are shown to no one.

Writing is limited per account (:data:`LINES`, lower for new accounts) and refused to an
account suspended by the moderators.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ludoteca.web.chat.models import PLAYERS, SPECTATORS, ChatLine, ChatMute, ChatReport
from ludoteca.web.forum.limits import NEW_ACCOUNT, lock_author
from ludoteca.web.infra.store import GameRow, User, utcnow
from ludoteca.web.infra.visible import has_something_visible, visible_text
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation import service as moderation
from ludoteca.web.round.access import check_may_watch, may_watch

MAX_LINE = 300
LINES = (20, 60)
"""An established account may write this many lines in this many seconds (over all games)."""
NEW_LINES = (6, 60)
"""A new account (younger than a day) may write this many lines in this many seconds."""
HISTORY = 200
"""Lines of each channel a page is sent."""


def is_player(row: GameRow, user: User | None) -> bool:
    return user is not None and any(s.user_id == user.id for s in row.seats)


def channel_for(row: GameRow, user: User) -> str:
    """The channel ``user`` writes in at ``row``."""
    return PLAYERS if is_player(row, user) else SPECTATORS


def readable(row: GameRow, user: User | None, muted: bool) -> set[str]:
    """The channels ``user`` reads at ``row``."""
    player = is_player(row, user)
    if row.status != "finished":
        return {PLAYERS} if player else {SPECTATORS}
    if player and muted:
        return {PLAYERS}
    return {PLAYERS, SPECTATORS}


def is_muted(db: Session, row: GameRow, user: User | None) -> bool:
    return user is not None and db.get(ChatMute, (user.id, row.id)) is not None


def line_json(line: ChatLine) -> dict[str, Any]:
    return {
        "id": line.id,
        "channel": line.channel,
        "author": line.author.name if line.author is not None else "?",
        "body": line.body,
        "at": line.created.strftime("%H:%M"),  # UTC, for pages without scripts
        "time": line.created.isoformat(timespec="seconds") + "Z",  # shown in local time
    }


def history(db: Session, row: GameRow, user: User | None) -> dict[str, Any]:
    """What the chat panel of ``row`` shows ``user``: the lines of the channels they read
    (oldest first), where they write, and whether they muted the spectators."""
    check_may_watch(row, user)
    muted = is_muted(db, row, user)
    channels = readable(row, user, muted)
    blocked = moderation.blocked_ids(db, user)
    lines = db.scalars(
        select(ChatLine)
        .where(
            ChatLine.game_id == row.id,
            ChatLine.channel.in_(channels),
            ChatLine.hidden.is_(False),
        )
        .order_by(ChatLine.id.desc())
        .limit(HISTORY * 2)
    ).all()
    shown = [line_json(line) for line in reversed(lines) if line.author_id not in blocked]
    return {
        "lines": shown,
        "channels": sorted(channels),
        "writes": channel_for(row, user) if user is not None else None,
        "player": is_player(row, user),
        "muted": muted,
    }


def clean(text: object) -> str:
    """A line as others will read it: one line, without control or deceptive characters
    (the forum's cleaning, :mod:`ludoteca.web.infra.visible`), and something to see."""
    if not isinstance(text, str):
        raise ClubError("A chat line is text.")
    text = " ".join(visible_text(text).split())
    if not has_something_visible(text):
        raise ClubError("A chat line cannot be empty.")
    if len(text) > MAX_LINE:
        raise ClubError("A chat line has at most {MAX_LINE} characters.", MAX_LINE=MAX_LINE)
    return text


def check_rate(db: Session, user: User) -> None:
    lock_author(db, user.id)
    now = utcnow()
    count, seconds = NEW_LINES if now - user.created < NEW_ACCOUNT else LINES
    recent = db.scalars(
        select(ChatLine.created)
        .where(ChatLine.author_id == user.id, ChatLine.created > now - timedelta(seconds=seconds))
        .order_by(ChatLine.created.desc())
        .limit(count)
    ).all()
    if len(recent) >= count:
        wait = max(1, math.ceil((recent[-1] + timedelta(seconds=seconds) - now).total_seconds()))
        raise ClubError(
            "You have written {count} chat lines in the last {seconds} seconds, the most your "
            "account may: wait {wait} s.",
            429,
            retry_after=wait,
            count=count,
            seconds=seconds,
            wait=wait,
        )


def write(db: Session, row: GameRow, user: User, text: object) -> ChatLine:
    """Add ``user``'s line to ``row``'s chat (committed by the caller)."""
    body = clean(text)
    check_may_watch(row, user)
    moderation.check_not_suspended(db, user)
    check_rate(db, user)
    line = ChatLine(
        game_id=row.id,
        channel=channel_for(row, user),
        author_id=user.id,
        body=body,
        created=utcnow(),
    )
    db.add(line)
    db.flush()
    return line


def set_muted(db: Session, row: GameRow, user: User, muted: bool) -> None:
    if not is_player(row, user):
        raise ClubError("Only the game's players can mute its spectators.", 403)
    existing = db.get(ChatMute, (user.id, row.id))
    if muted and existing is None:
        db.add(ChatMute(user_id=user.id, game_id=row.id))
    elif not muted and existing is not None:
        db.delete(existing)


def report(db: Session, user: User, line_id: int, reason: str) -> None:
    """Ask the moderators to look at a line ``user`` can read: one of a game they may watch,
    in a channel shown to them, by someone they do not block; never their own, and each line
    once. Any other line is "no such line" (its existence is not told)."""
    line = db.get(ChatLine, line_id)
    row = db.get(GameRow, line.game_id) if line is not None else None
    if (
        line is None
        or row is None
        or line.hidden
        or not may_watch(row, user)
        or line.channel not in readable(row, user, is_muted(db, row, user))
        or line.author_id in moderation.blocked_ids(db, user)
    ):
        raise ClubError("There is no such chat line.", 404)
    if line.author_id == user.id:
        raise ClubError("You cannot report your own line.", 400)
    moderation.check_not_suspended(db, user)
    reason = moderation.reason_text(reason)
    again = db.scalar(
        select(ChatReport.id).where(
            ChatReport.line_id == line_id, ChatReport.reporter_id == user.id
        )
    )
    if again is not None:
        raise ClubError("You have already reported this line.", 409)
    already = db.scalar(
        select(func.count())
        .select_from(ChatReport)
        .where(
            ChatReport.reporter_id == user.id, ChatReport.created > utcnow() - timedelta(hours=1)
        )
    )
    if (already or 0) >= 20:
        raise ClubError("You have sent 20 reports in the last hour; thank you, wait a little.", 429)
    db.add(ChatReport(line_id=line_id, reporter_id=user.id, reason=reason, created=utcnow()))


def open_reports(db: Session, limit: int = 100) -> list[ChatReport]:
    return list(
        db.scalars(
            select(ChatReport)
            .where(ChatReport.resolved.is_(None))
            .order_by(ChatReport.id)
            .limit(limit)
        )
    )


def hide(db: Session, moderator: User, line_id: int, reason: str) -> None:
    moderation.require_moderator(db, moderator)
    line = db.get(ChatLine, line_id)
    if line is None:
        raise ClubError("There is no such chat line.", 404)
    reason = moderation.reason_text(reason)
    line.hidden = True
    for rep in db.scalars(
        select(ChatReport).where(ChatReport.line_id == line_id, ChatReport.resolved.is_(None))
    ):
        rep.resolved = utcnow()
    moderation.log(
        db, moderator, "hide chat", f"chat line {line_id} in game {line.game_id}", reason
    )


def dismiss(db: Session, moderator: User, line_id: int) -> None:
    moderation.require_moderator(db, moderator)
    for rep in db.scalars(
        select(ChatReport).where(ChatReport.line_id == line_id, ChatReport.resolved.is_(None))
    ):
        rep.resolved = utcnow()
    moderation.log(db, moderator, "dismiss chat", f"chat line {line_id}")
