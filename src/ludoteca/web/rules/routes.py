"""The rules pages, and the board drawn for each game's card."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import (
    language,
    render,
)
from ludoteca.web.round.catalog import available_games, catalogue
from ludoteca.web.rules.pages import diagrams, rules_context

router = APIRouter()


@router.get("/rules/{game_id}/board.svg", include_in_schema=False)
def board_picture(game_id: str) -> Response:
    """A game's board after a few moves of a sample game, drawn by its engine: the lobby's
    cards show it."""
    if game_id not in available_games():
        raise ClubError("There is no such game.", 404)
    pictures = diagrams(game_id)
    if not pictures:
        raise ClubError("This game has no drawing.", 404)
    return Response(
        pictures[-1][1],
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


# --- rules ---------------------------------------------------------------------------------------
@router.get("/rules")
def rules_index(request: Request):
    return render(request, "rules_index.html", games=catalogue())


@router.get("/rules/{game_id}")
def rules_page(game_id: str, request: Request):
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", 404, game_id=game_id[:40])
    return render(request, "rules.html", rules=rules_context(game_id, language(request).code))
