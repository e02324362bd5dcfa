"""What the lobby and the profiles show of a game, in one place."""

from __future__ import annotations

from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import Result, joined_names
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.lobby.members import ListedGame
from ludoteca.web.round import clocks
from ludoteca.web.round.access import seat_text


def game_summary(row: GameRow | ListedGame, viewer: User | None) -> dict[str, Any]:
    """What the lobby shows of a game, read from its mapped row or from its listing
    (:mod:`ludoteca.web.lobby.members`)."""
    title = row.game
    try:
        from ludoteca.core.registry import game_class

        title = game_class(row.game).title
    except GameError:
        pass
    seats = []
    for s in row.seats:
        text = seat_text(s)
        seats.append(
            {
                "index": s.index,
                "label": str(text),
                "label_text": text,
                "user": s.user.name if s.user is not None else None,
                "kind": s.kind,
            }
        )
    clock = clocks.describe(row.clock)
    turn = None
    if row.status == "active" and 0 <= row.to_move < len(row.seats):
        turn = seats[row.to_move]["label"]
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
        "result_text": result_line(row),
        "options": row.options,
        "clock": str(clock),
        "clock_text": clock,
        "private": row.private,
    }


def _names(row: GameRow | ListedGame, players: tuple[int, ...]) -> str:
    return joined_names([seat_text(row.seats[p]) for p in players if 0 <= p < len(row.seats)])


def result_line(row: GameRow | ListedGame) -> Text | None:
    """A finished game's result in a few translatable words, from the stored result's
    structure (who won, in :meth:`Result.headline`'s words, the scores, how it ended) rather
    than the engine's English reason."""
    if row.status != "finished" or not row.result or row.result.get("over") is not True:
        return None
    try:
        result = Result.from_json(row.result, len(row.seats))
    except (ValueError, TypeError):
        return None
    line = Text.of(result.headline([seat_text(s) for s in row.seats]))
    if result.scores is not None and result.num_players > 1:
        scores = " : ".join(f"{s:g}" for s in result.scores)
        line = Text("{result}, {scores}", {"result": line, "scores": scores})
    if result.resigned:
        line = Text(
            "{result} ({names} resigned)", {"result": line, "names": _names(row, result.resigned)}
        )
    elif result.timed_out:
        line = Text(
            "{result} ({names} ran out of time)",
            {"result": line, "names": _names(row, result.timed_out)},
        )
    return line
