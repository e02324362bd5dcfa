"""No help from the computer during one's own game: the analysis board refuses to search a
position that is the current position of a game the caller is playing against another
person, or of any rated game of theirs, however the position reached the board (a replay
step, a pasted position, or one rebuilt from the move list).

A game against the computer alone that is not rated is the caller's own practice, and
analysing it helps no one against anyone: it stays allowed. Finished games are always
allowed (that is what the board and the reviews are for).

Positions are compared as the engine writes them (``State.position()``), so spaces or
another spelling of the same position do not slip through.
"""

from __future__ import annotations

from sqlalchemy import select

from ludoteca.core.messages import N_
from ludoteca.web.infra.store import GameRow, Seat
from ludoteca.web.kernel.errors import ClubError

LIVE = ("active",)
"""The statuses of a game in play (an open game has no moves yet to help with)."""
MOST_GAMES = 200
"""Games in play looked at for one check: more than anyone plays at once by far."""
REFUSED = N_(
    "That is the position of your game in progress: the computer helps only once it is over."
)


def guarded_games(store, user_id: int) -> list[int]:
    """The games in play that ``user_id`` sits in and that the computer must not help with:
    rated ones, and those with another person seated."""
    with store.session() as db:
        mine = select(Seat.game_id).where(Seat.user_id == user_id)
        rows = db.scalars(
            select(GameRow)
            .where(GameRow.id.in_(mine), GameRow.status.in_(LIVE))
            .order_by(GameRow.id.desc())
            .limit(MOST_GAMES)
        ).all()
        return [
            row.id
            for row in rows
            if row.rated
            or any(s.kind == "user" and s.user_id not in (None, user_id) for s in row.seats)
        ]


def check_not_own_live_game(club, user_id: int, game_id: str, position: str) -> None:
    """Refuse (409) when ``position`` (already in the engine's spelling) of game
    ``game_id`` is the current position of one of the caller's guarded games."""
    for pk in guarded_games(club.store, user_id):
        row, state = club.games.state(pk)
        if row.game == game_id and state.position() == position:
            raise ClubError(REFUSED, 409)
