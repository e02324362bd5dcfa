"""Pictures of moves before they are played: ``POST /api/games/{pk}/preview``.

When one click leaves several moves on the same cells (Comune's angles), the page shows a
small drawing of each instead of its notation: the engine draws the board after the move,
and the page crops it around the clicked cells. Only the player to move may ask, only for
legal moves of the position they see, and at most :data:`MAX_PREVIEWS` at a time.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ludoteca.core.errors import GameError
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import SignedIn, check_csrf, club
from ludoteca.web.round.playing import probe
from ludoteca.web.round.view import board_svg

router = APIRouter()
MAX_PREVIEWS = 12


def previews(
    request: Request, pk: int, user, texts: list[str], ply: object
) -> dict[str, str] | None:
    """The drawings, or ``None`` when the game has moved on since the asking page's
    position (a move, or the end, arrived meanwhile): an everyday race, answered as such
    rather than as an error, since the page is about to draw the new position anyway."""
    row, state, _ = club(request).games.snapshot(pk)
    if not any(s.user_id == user.id for s in row.seats):
        raise ClubError("Previews are for the player to move.", 403)
    if ply != row.ply and isinstance(ply, int) and 0 <= ply < row.ply:
        return None
    if row.status != "active" or not 0 <= state.to_move < len(row.seats):
        raise ClubError("Previews are for a game in progress.", 409)
    if row.seats[state.to_move].user_id != user.id:
        raise ClubError("Previews are for the player to move.", 403)
    if ply != row.ply:
        raise ClubError("The game has moved on; look again.", 409)
    out = {}
    for text in texts:
        try:
            tried = probe(state, text)
            cells = state.move_cells(tried.move)
        except GameError as exc:
            raise ClubError(
                "{text!r} is not a move here: {why}", text=text[:40], why=exc.text
            ) from None
        out[text] = board_svg(tried.after, highlight=cells)
    return out


@router.post("/api/games/{pk:id}/preview")
async def preview(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    data = json_object(await request.body())
    check_csrf(request, request.headers.get("x-csrf-token"))
    texts = data.get("moves")
    if (
        not isinstance(texts, list)
        or not texts
        or len(texts) > MAX_PREVIEWS
        or not all(isinstance(t, str) and 0 < len(t) <= 200 for t in texts)
    ):
        raise ClubError(
            "'moves' is a list of 1 to {MAX_PREVIEWS} moves in notation.", MAX_PREVIEWS=MAX_PREVIEWS
        )
    svgs = await anyio.to_thread.run_sync(
        lambda: previews(request, pk, user, texts, data.get("ply"))
    )
    if svgs is None:
        return JSONResponse({"svgs": {}, "moved_on": True})
    return JSONResponse({"svgs": svgs})
