"""Who sits where and who may watch: the seat rules every page and socket applies."""

from __future__ import annotations

from typing import Protocol

from ludoteca.core.messages import Text
from ludoteca.core.protocol import State
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.kernel.errors import ClubError


class Named(Protocol):
    @property
    def name(self) -> str: ...


class SeatLike(Protocol):
    """What naming a seat reads: a mapped :class:`Seat`, or a seat as the lobby lists it
    (:class:`ludoteca.web.lobby.members.ListedSeat`)."""

    @property
    def kind(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def user(self) -> Named | None: ...
    @property
    def reserved(self) -> Named | None: ...


def seat_label(seat: SeatLike) -> str:
    return str(seat_text(seat))


def seat_text(seat: SeatLike) -> Text:
    """Who sits in ``seat``, in words the page translates: a name, ``computer (hard)``..."""
    if seat.kind == "bot":
        return Text("computer ({level})", {"level": Text(seat.bot or "random")})
    if seat.user is not None:
        return Text("{name}", {"name": seat.user.name})
    if seat.reserved is not None:
        return Text("waiting for {name}", {"name": seat.reserved.name})
    return Text("open seat")


def is_to_move(row: GameRow, state: State, user: User | None) -> bool:
    """Whether ``user`` is the person to move in ``row``'s game in progress."""
    to_move = state.to_move
    return (
        row.status == "active"
        and 0 <= to_move < len(row.seats)
        and user is not None
        and row.seats[to_move].user_id == user.id
    )


def is_player(row: GameRow, user: User | None) -> bool:
    """Whether ``user`` holds a seat at the game, or has one reserved for them."""
    return user is not None and any(user.id in (s.user_id, s.reserved_for) for s in row.seats)


def may_watch(row: GameRow, user: User | None) -> bool:
    """Anyone may watch a game, in progress or replayed, unless its creator made it private:
    then only its players may, once it has started. While a private game waits for players
    its page stays open, so that whoever was given the link can take an open seat."""
    return not row.private or row.status == "open" or is_player(row, user)


def check_may_watch(row: GameRow, user: User | None) -> None:
    if not may_watch(row, user):
        raise ClubError(
            "Game #{id} is private: only its players may watch it or replay it.", 403, id=row.id
        )


def seated(seats, user: User) -> bool:
    """Whether ``user`` holds one of ``seats`` (a game's, or as the lobby lists them)."""
    return any(s.user_id == user.id for s in seats)


def free_seats(seats, user: User) -> list:
    """The seats ``user`` may take: open ones, and those reserved for them, still empty."""
    return [
        s
        for s in seats
        if s.user_id is None
        and (s.kind == "open" or (s.kind == "user" and s.reserved_for == user.id))
    ]


def joinable(seats, user: User) -> bool:
    """Whether ``user`` may join a game waiting for players with these seats."""
    return not seated(seats, user) and bool(free_seats(seats, user))


def may_join(row: GameRow, user: User | None) -> bool:
    """Whether the game page offers ``user`` to join: :meth:`.setup.SetUp.join` would seat them."""
    return user is not None and row.status == "open" and joinable(row.seats, user)


def cancel_refusal(row: GameRow, user: User) -> ClubError | None:
    """Why ``user`` may not cancel ``row``'s game, or None if they may: only its creator
    may, and only while it waits for players and nobody else has joined it."""
    if row.created_by != user.id:
        return ClubError("Only the player who created this game can cancel it.", 403)
    if row.status != "open":
        return ClubError(
            "This game has started: it can no longer be cancelled (resign instead).", 409
        )
    if any(s.user_id not in (None, user.id) for s in row.seats):
        return ClubError("Someone has joined this game: it can no longer be cancelled.", 409)
    return None


def may_cancel(row: GameRow, user: User | None) -> bool:
    return user is not None and cancel_refusal(row, user) is None
