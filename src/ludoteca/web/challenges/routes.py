"""The challenges page and forms, and the rematch button of a finished game."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from ludoteca.web.challenges.service import Challenges
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import SignedIn, Visitor, back_to, club, render
from ludoteca.web.lobby.new_game import parse_settings
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


FORM_DEFAULTS = {
    "name": "",
    "game": "",
    "seat": "random",
    "rated": "",
    "clock": "none",
    "clock_base": "10",
    "clock_increment": "5",
    "clock_days": "3",
}
"""The challenge form's fields and what they hold on a fresh page."""


def challenges_page_for(
    request: Request, user, *, status: int = 200, error=None, values: dict[str, str] | None = None
):
    """The challenges page; after a refusal, the form again with what was typed and why."""
    incoming, outgoing = challenges(request).waiting(user)
    filled = dict(FORM_DEFAULTS, name=request.query_params.get("to", "")[:32])
    filled.update({k: v[:64] for k, v in (values or {}).items() if k in FORM_DEFAULTS})
    return render(
        request,
        "challenges.html",
        status=status,
        incoming=incoming,
        outgoing=outgoing,
        games=two_player_games(),
        values=filled,
        error=error,
        sent=request.query_params.get("sent") == "1",
    )


@router.get("/challenges")
def challenges_page(request: Request, user: Visitor):
    if user is None:
        return RedirectResponse("/login?next=/challenges", status_code=303)
    return challenges_page_for(request, user)


@router.post("/challenges")
async def send_challenge(request: Request, user: SignedIn):
    """Send a challenge; a refusal (no such user, oneself, a limit, a bad clock) is shown on
    the form, with everything typed kept."""
    data = await form(request)
    name, game, seat = (
        data.get("name", "")[:64],
        data.get("game", "")[:40],
        data.get("seat", "random"),
    )
    try:
        settings = parse_settings(data)
        await anyio.to_thread.run_sync(
            lambda: challenges(request).create(user, name, game, seat, settings)
        )
    except ClubError as exc:
        response = challenges_page_for(
            request, user, status=exc.status, error=exc.text, values=data
        )
        if exc.retry_after:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
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
