"""The challenges page and forms, and the rematch button of a finished game."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from ludoteca.web.challenges.service import Challenges
from ludoteca.web.forum.forms import form
from ludoteca.web.lobby.routes import parse_settings
from ludoteca.web.requests import SignedIn, back_to, club, current_user, render
from ludoteca.web.round.catalog import available_games

router = APIRouter()


def challenges(request: Request) -> Challenges:
    return club(request).challenges


def two_player_games() -> list[dict[str, str]]:
    return [
        {"id": gid, "title": cls.title}
        for gid, cls in sorted(available_games().items())
        if cls.min_players <= 2 <= cls.max_players
    ]


@router.get("/challenges")
def challenges_page(request: Request):
    user = current_user(request)
    if user is None:
        return RedirectResponse("/login?next=/challenges", status_code=303)
    incoming, outgoing = challenges(request).waiting(user)
    return render(
        request,
        "challenges.html",
        incoming=incoming,
        outgoing=outgoing,
        games=two_player_games(),
        to=request.query_params.get("to", "")[:32],
        sent=request.query_params.get("sent") == "1",
    )


@router.post("/challenges")
async def send_challenge(request: Request, user: SignedIn):
    data = await form(request)
    settings = parse_settings(data)
    name, game, seat = (
        data.get("name", "")[:64],
        data.get("game", "")[:40],
        data.get("seat", "random"),
    )
    await anyio.to_thread.run_sync(
        lambda: challenges(request).create(user, name, game, seat, settings)
    )
    return RedirectResponse("/challenges?sent=1", status_code=303)


@router.post("/challenges/{pk:id}/accept")
async def accept(pk: int, request: Request, user: SignedIn):
    await form(request)  # its CSRF token checked
    game = await anyio.to_thread.run_sync(lambda: challenges(request).accept(pk, user))
    club(request).hub.kick_bots(game)
    return RedirectResponse(f"/games/{game}", status_code=303)


@router.post("/challenges/{pk:id}/decline")
async def decline(pk: int, request: Request, user: SignedIn):
    data = await form(request)
    await anyio.to_thread.run_sync(lambda: challenges(request).decline(pk, user))
    return RedirectResponse(back_to(data, "/challenges"), status_code=303)


@router.post("/challenges/{pk:id}/cancel")
async def cancel(pk: int, request: Request, user: SignedIn):
    data = await form(request)
    await anyio.to_thread.run_sync(lambda: challenges(request).cancel(pk, user))
    return RedirectResponse(back_to(data, "/challenges"), status_code=303)


@router.post("/games/{pk:id}/rematch")
async def rematch(pk: int, request: Request, user: SignedIn):
    """Ask for a rematch: the new game at once (against the computer, or accepting the
    other player's offer), else back to the game page, which shows the offer waiting."""
    await form(request)  # its CSRF token checked
    outcome = await anyio.to_thread.run_sync(lambda: challenges(request).rematch(pk, user))
    if outcome.game is not None:
        club(request).hub.kick_bots(outcome.game)
        return RedirectResponse(f"/games/{outcome.game}", status_code=303)
    return RedirectResponse(f"/games/{pk}", status_code=303)
