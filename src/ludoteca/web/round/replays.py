"""Replays of games, a look back at any move, and the record download."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.record import Record
from ludoteca.web.chat.service import history as chat_history
from ludoteca.web.infra.store import GameRow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import (
    club,
    current_user,
    language,
    render,
)
from ludoteca.web.lobby.summary import game_summary
from ludoteca.web.round import offers
from ludoteca.web.round.access import check_may_watch
from ludoteca.web.round.log import game_log, log_names, steps_of, told
from ludoteca.web.round.service import GameService, PlayedMove
from ludoteca.web.round.view import board_svg, last_cells, localized

router = APIRouter()


# --- replays -------------------------------------------------------------------------------------
def _finished(request: Request, pk: int) -> GameRow:
    """A finished game the asker may replay: a private game's replay, like the game, is for
    its players only."""
    row = club(request).games.row(pk)
    check_may_watch(row, current_user(request))
    if row.status != "finished":
        raise ClubError("A replay opens once the game is over.", 409)
    return row


@router.get("/games/{pk:id}/replay")
def replay_page(pk: int, request: Request):
    _finished(request, pk)
    c = club(request)
    row, moves, state = c.games.states_along(pk)
    played = [(m.text, m.player) for m in moves]
    names = log_names(row, state)
    steps, entries = replay_steps(played, game_log(state, played, names))
    chosen = [0]  # the players' moves before each ply: the numbers people read
    for _text, player in played:
        chosen.append(chosen[-1] + (player >= 0))
    with c.store.reading() as db:
        chat = chat_history(db, row, current_user(request))
        offered = offers.replay_lines(db, pk, names)
    return render(
        request,
        "replay.html",
        game=game_summary(row, current_user(request)),
        moves=entries,
        steps=steps,
        numbers=[chosen[ply] for ply in steps],
        total=len(moves),
        chat=chat,
        offers=offered,
    )


def replay_steps(
    moves: list[tuple[str, int]], words: list[Any] | None = None
) -> tuple[list[int], list[dict]]:
    """The plies a replay stops at, and the game log's entries, one per step.

    A run of the table's draws is one step (Comino's deal: 21 draws, which took 21 presses
    before the first real move), told by its last draw's words; every other move is a step
    of its own. Plies stay those of the record: a step names the ply it ends at. ``words``
    holds the engine's words for each move (:func:`~ludoteca.web.round.log.game_log`)."""
    steps = [0]
    entries: list[dict] = []
    chosen = 0  # the players' moves so far: the log numbers those, not the table's draws
    for first, last in steps_of(moves):
        chosen += sum(1 for _t, p in moves[first : last + 1] if p >= 0)
        run = [t for t, _ in moves[first : last + 1]]
        label = (  # notation is not translated: a Text whose template is the move itself
            Text("{move}", {"move": run[0]})
            if len(run) == 1
            else Text("{count} draws", {"count": len(run)})
        )
        said = words[last] if words is not None else None
        entries.append(
            {
                "ply": last + 1,
                "number": chosen if moves[last][1] >= 0 else "",
                "text": label,
                "title": ", ".join(run),
                "words": said or "",
                "chance": moves[last][1] < 0,
            }
        )
        steps.append(last + 1)
    return steps, entries


@router.get("/api/games/{pk:id}/replay/{ply:id}")
def replay_step(pk: int, ply: int, request: Request):
    """The board at move ``ply`` of a game: a finished game's replay, or a look back at an
    earlier move of a game in progress (what its move list already shows to whoever may
    watch; nothing of the moves to come)."""
    row, moves, state = club(request).games.states_along(pk)
    check_may_watch(row, current_user(request))
    if not 0 <= ply <= len(moves):
        raise ClubError("Move number {ply} is outside 0..{count}.", 404, ply=ply, count=len(moves))
    for m in moves[:ply]:
        state.play(m.text)
    try:
        position = state.position()
    except GameError:
        position = ""
    scores = state.scores()
    words = language(request)
    return localized(
        {
            "ply": ply,
            "total": len(moves),
            "svg": board_svg(state, translate=words.text),
            "position": position,
            "last": moves[ply - 1].text if ply else "",
            "summary": (told(state, log_names(row, state)) if ply else None) or "",
            "scores": list(scores) if scores is not None else None,
            "to_move_side": state.side_name(state.to_move) if state.to_move >= 0 else "",
            "last_cells": last_cells(state, [PlayedMove.of(m) for m in moves[:ply]]),
        },
        words,
    )


def record_with_offers(games: GameService, pk: int) -> Record:
    """The game's record with the offers made during it and their answers."""
    record = games.record(pk)
    with games.store.reading() as db:
        record.offers = offers.record_entries(db, pk)
    return record


@router.get("/games/{pk:id}/record.json")
def record_download(pk: int, request: Request):
    _finished(request, pk)
    record = record_with_offers(club(request).games, pk)
    return Response(
        record.dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ludoteca-{record.game}-{pk}.json"'},
    )
