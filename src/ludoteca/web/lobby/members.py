"""A member's own part of the lobby: their games in progress, their last finished games and
the private games waiting for them, read with one Core statement built once.

The ORM read these with three queries, each loading every game's seats and players with a
query of its own, and built a mapped object per game, seat and player: 1.2 ms of a member's
2.5 ms lobby, read afresh on every visit (what is one person's is never kept; see
:mod:`ludoteca.web.infra.briefly`). One join of the member's games with their seats and
players, into plain slotted objects that :func:`~ludoteca.web.lobby.summary.game_summary`
reads as it reads mapped rows, does the same reading in a fraction of that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import aliased

from ludoteca.web.infra.store import GameRow, Seat, Store, User

FINISHED_SHOWN = 30
"""How many of a member's finished games the lobby lists, the latest first."""


@dataclass(slots=True)
class Player:
    """Who sits in a listed seat, as far as a list names them."""

    id: int
    name: str


@dataclass(slots=True)
class ListedSeat:
    """A seat as the lobby's lists show it (the fields of :class:`Seat` they read)."""

    index: int
    kind: str
    user_id: int | None
    reserved_for: int | None
    bot: str | None
    user: Player | None
    reserved: Player | None


@dataclass(slots=True)
class ListedGame:
    """A game as the lobby's lists show it (the fields of :class:`GameRow` they read)."""

    id: int
    game: str
    status: str
    to_move: int
    result: dict[str, Any] | None
    options: dict[str, Any]
    clock: dict[str, Any] | None
    private: bool
    finished: datetime | None
    seats: list[ListedSeat] = field(default_factory=list)


@dataclass(slots=True)
class MemberGames:
    """The three lists of one member's own games."""

    invited: list[ListedGame]
    """Private games waiting for this member to take the seat reserved for them."""
    playing: list[ListedGame]
    """Games in progress or waiting for players, where they sit; the newest first."""
    finished: list[ListedGame]
    """Their last finished games, the latest first."""


def _statement():
    games, seats = GameRow.__table__, Seat.__table__
    players, reserved = aliased(User.__table__), aliased(User.__table__)
    member = bindparam("member")
    mine = select(seats.c.game_id).where(seats.c.user_id == member)
    invited = select(seats.c.game_id).where(
        seats.c.reserved_for == member, seats.c.user_id.is_(None)
    )
    last_finished = (
        select(games.c.id)
        .where(games.c.id.in_(mine), games.c.status == "finished")
        .order_by(games.c.finished.desc())
        .limit(FINISHED_SHOWN)
    )
    wanted = or_(
        and_(games.c.id.in_(mine), games.c.status.in_(["active", "open"])),
        games.c.id.in_(last_finished),
        and_(games.c.status == "open", games.c.private.is_(True), games.c.id.in_(invited)),
    )
    return (
        select(
            games.c.id,
            games.c.game,
            games.c.status,
            games.c.to_move,
            games.c.result,
            games.c.options,
            games.c.clock,
            games.c.private,
            games.c.finished,
            seats.c.index,
            seats.c.kind,
            seats.c.user_id,
            seats.c.reserved_for,
            seats.c.bot,
            players.c.name.label("player_name"),
            reserved.c.name.label("reserved_name"),
        )
        .join(seats, seats.c.game_id == games.c.id)
        .outerjoin(players, players.c.id == seats.c.user_id)
        .outerjoin(reserved, reserved.c.id == seats.c.reserved_for)
        .where(wanted)
        .order_by(games.c.id.desc(), seats.c.index)
    )


MEMBER_GAMES = _statement()


def member_games(store: Store, member: int) -> MemberGames:
    """The games of member ``member`` that their lobby lists, read in one statement."""
    with store.read_connection() as conn:
        rows = conn.execute(MEMBER_GAMES, {"member": member}).all()
    listed: list[ListedGame] = []
    for row in rows:
        if not listed or listed[-1].id != row.id:
            listed.append(
                ListedGame(
                    row.id,
                    row.game,
                    row.status,
                    row.to_move,
                    row.result,
                    row.options or {},
                    row.clock,
                    row.private,
                    row.finished,
                )
            )
        listed[-1].seats.append(
            ListedSeat(
                row.index,
                row.kind,
                row.user_id,
                row.reserved_for,
                row.bot,
                None if row.user_id is None else Player(row.user_id, row.player_name),
                None if row.reserved_for is None else Player(row.reserved_for, row.reserved_name),
            )
        )
    playing, finished, invited = [], [], []
    for game in listed:
        seated = any(s.user_id == member for s in game.seats)
        if seated and game.status in ("active", "open"):
            playing.append(game)
        elif seated and game.status == "finished":
            finished.append(game)
        if (
            game.status == "open"
            and game.private
            and any(s.reserved_for == member and s.user_id is None for s in game.seats)
        ):
            invited.append(game)
    finished.sort(key=lambda g: g.finished or datetime.min, reverse=True)
    return MemberGames(invited, playing, finished[:FINISHED_SHOWN])
