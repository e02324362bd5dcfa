"""What the lobby and the profiles show of a game, in one place."""

from __future__ import annotations

from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.round import clocks
from ludoteca.web.round.access import seat_label


def game_summary(row: GameRow, viewer: User | None) -> dict[str, Any]:
    """What the lobby shows of a game."""
    title = row.game
    try:
        from ludoteca.core.registry import game_class

        title = game_class(row.game).title
    except GameError:
        pass
    seats = [
        {
            "index": s.index,
            "label": seat_label(s),
            "user": s.user.name if s.user is not None else None,
            "kind": s.kind,
            "mine": viewer is not None and s.user_id == viewer.id,
        }
        for s in row.seats
    ]
    turn = None
    if row.status == "active" and 0 <= row.to_move < len(row.seats):
        turn = seat_label(row.seats[row.to_move])
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "status": row.status,
        "seats": seats,
        "turn": turn,
        "my_turn": viewer is not None
        and row.status == "active"
        and 0 <= row.to_move < len(row.seats)
        and row.seats[row.to_move].user_id == viewer.id,
        "players": len(row.seats),
        "result": row.result,
        "options": row.options,
        "clock": clocks.describe(row.clock),
        "private": row.private,
    }
