"""Who sits where and who may watch: the seat rules every page and socket applies."""

from __future__ import annotations

from ludoteca.web.infra.store import GameRow, Seat, User
from ludoteca.web.round.errors import ClubError


def seat_label(seat: Seat) -> str:
    if seat.kind == "bot":
        return f"computer ({seat.bot})"
    if seat.user is not None:
        return seat.user.name
    if seat.reserved is not None:
        return f"waiting for {seat.reserved.name}"
    return "open seat"


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
            f"Game #{row.id} is private: only its players may watch it or replay it.", 403
        )
