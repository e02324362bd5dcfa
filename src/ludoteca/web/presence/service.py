"""Presence: who is online and playing, follows, and the lobby's live counts.

A member is online while a page of theirs is open: its ``/ws/me`` socket marks them on
opening (:func:`arrive`) and the process holding it marks all its members every
:data:`BEAT_SECONDS` (:func:`beat`); ``seen`` older than :data:`ONLINE_SECONDS` means
gone. The rows are in the database, so every server process sees everyone's presence.
A member is *playing* while seated at a game in progress whose last turn began within
:data:`PLAYING_MINUTES` (a correspondence game waiting days for a move is not play now).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ludoteca.web.infra.store import GameRow, Seat, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.presence.models import Follow, Presence

BEAT_SECONDS = 20.0
ONLINE_SECONDS = 60.0
"""Three beats: a member is online until three beats of their process were missed."""
PLAYING_MINUTES = 30
FOLLOWS_PER_MEMBER = 500
"""Enough for every friend; a limit so that ``/following`` stays one page."""


def arrive(store: Store, user_id: int) -> None:
    """``user_id`` opened a page: online from now."""
    now = utcnow()
    with store.session() as db:
        if db.execute(
            update(Presence).where(Presence.user_id == user_id).values(seen=now)
        ).rowcount:
            db.commit()
            return
        db.add(Presence(user_id=user_id, seen=now, hidden=False))
        try:
            db.commit()
        except IntegrityError:  # made meanwhile by another page of theirs
            db.rollback()


def beat(store: Store, user_ids: list[int]) -> None:
    """These members still have a page open on this process."""
    if not user_ids:
        return
    with store.session() as db:
        db.execute(update(Presence).where(Presence.user_id.in_(user_ids)).values(seen=utcnow()))
        db.commit()


def hidden(db: Session, user_id: int) -> bool:
    return bool(db.scalar(select(Presence.hidden).where(Presence.user_id == user_id)))


def set_hidden(store: Store, user_id: int, hide: bool) -> None:
    with store.session() as db:
        row = db.get(Presence, user_id)
        if row is None:
            db.add(Presence(user_id=user_id, seen=None, hidden=hide))
        else:
            row.hidden = hide
        db.commit()


def follows(db: Session, user_id: int, other_id: int) -> bool:
    return db.get(Follow, (user_id, other_id)) is not None


def follow(store: Store, user: User, other: User) -> None:
    if other.id == user.id:
        raise ClubError("You cannot follow yourself.")
    with store.session() as db:
        if db.get(Follow, (user.id, other.id)) is not None:
            return
        count = db.scalar(select(func.count()).where(Follow.user_id == user.id)) or 0
        if count >= FOLLOWS_PER_MEMBER:
            raise ClubError("You follow {count} members already, the most one may.", count=count)
        db.add(Follow(user_id=user.id, followed_id=other.id))
        try:
            db.commit()
        except IntegrityError:  # a second press at the same moment
            db.rollback()


def unfollow(store: Store, user: User, other: User) -> None:
    with store.session() as db:
        db.execute(delete(Follow).where(Follow.user_id == user.id, Follow.followed_id == other.id))
        db.commit()


@dataclass(frozen=True)
class Followed:
    name: str
    online: bool
    playing: bool
    watch: int | None
    """The game to watch them play, if it may be watched."""


def following(store: Store, user_id: int) -> list[Followed]:
    """The members ``user_id`` follows, online ones first, each with whether they play now.
    A member who hides their presence is shown neither online nor playing."""
    now = utcnow()
    online_after = now - timedelta(seconds=ONLINE_SECONDS)
    playing_after = now - timedelta(minutes=PLAYING_MINUTES)
    with store.reading() as db:
        rows = db.execute(
            select(User.id, User.name, Presence.seen, Presence.hidden)
            .join(Follow, Follow.followed_id == User.id)
            .outerjoin(Presence, Presence.user_id == User.id)
            .where(Follow.user_id == user_id)
            .order_by(User.name_key)
        ).all()
        visible = [r.id for r in rows if not r.hidden]
        games: dict[int, tuple[int, bool]] = {}
        if visible:
            for person, pk, private in db.execute(
                select(Seat.user_id, GameRow.id, GameRow.private)
                .join(GameRow, GameRow.id == Seat.game_id)
                .where(
                    Seat.user_id.in_(visible),
                    GameRow.status == "active",
                    GameRow.turn_started >= playing_after,
                )
                .order_by(GameRow.id)
            ).all():
                games[person] = (pk, private)
    out = []
    for r in rows:
        shown = not r.hidden
        online = shown and r.seen is not None and r.seen >= online_after
        game = games.get(r.id) if shown else None
        out.append(
            Followed(
                name=r.name,
                online=online,
                playing=game is not None,
                watch=game[0] if game is not None and not game[1] else None,
            )
        )
    out.sort(key=lambda f: (not f.playing, not f.online))
    return out


def counts(store: Store) -> dict[str, int]:
    """The lobby's live numbers: people online and games in play now."""
    now = utcnow()
    with store.reading() as db:
        online = db.scalar(
            select(func.count())
            .select_from(Presence)
            .where(Presence.seen >= now - timedelta(seconds=ONLINE_SECONDS))
        )
        playing = db.scalar(
            select(func.count())
            .select_from(GameRow)
            .where(
                GameRow.status == "active",
                GameRow.turn_started >= now - timedelta(minutes=PLAYING_MINUTES),
            )
        )
    return {"online": online or 0, "playing": playing or 0}
