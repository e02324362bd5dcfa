"""``/tournaments`` (the list and the form to create one) and ``/tournaments/ID`` (one
tournament: standings, pairings, podium; join, withdraw, pause)."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import SignedIn, Visitor, club, render
from ludoteca.web.lobby.new_game import parse_settings
from ludoteca.web.moderation.service import is_moderator
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.clocks import describe
from ludoteca.web.tournaments import limits
from ludoteca.web.tournaments.service import Tournaments, checked

router = APIRouter()

FORM_DEFAULTS = {
    "name": "",
    "game": "",
    "form": "arena",
    "table": "2",
    "starts_in": "5",
    "minutes": "30",
    "rounds": "5",
    "max_players": "",
    "rated": "",
    "clock": "live",
    "clock_base": "3",
    "clock_increment": "2",
    "clock_days": "3",
    "repeat_days": "",
}


def tournaments(request: Request) -> Tournaments:
    service = club(request).tournaments
    assert service is not None
    return service


def games_list() -> list[dict[str, object]]:
    return [
        {"id": gid, "title": cls.title, "tables": cls.max_players > 2}
        for gid, cls in sorted(available_games().items())
    ]


def list_page(request: Request, user, *, status: int = 200, error=None, values=None):
    filled = dict(FORM_DEFAULTS)
    filled.update({k: v[:80] for k, v in (values or {}).items() if k in FORM_DEFAULTS})
    lists = tournaments(request).lists()
    with club(request).store.reading() as db:
        moderator = is_moderator(db, user)
    return render(
        request,
        "tournaments.html",
        status=status,
        lists=lists,
        games=games_list(),
        titles={gid: cls.title for gid, cls in available_games().items()},
        values=filled,
        error=error,
        limits=limits,
        moderator=moderator,
    )


@router.get("/tournaments")
async def tournaments_page(request: Request, user: Visitor):
    return await anyio.to_thread.run_sync(lambda: list_page(request, user))


@router.post("/tournaments")
async def create_tournament(request: Request, user: SignedIn):
    data = await form(request)
    try:
        new = checked(data, parse_settings(data))
        pk = await anyio.to_thread.run_sync(lambda: tournaments(request).create(user, new))
    except ClubError as exc:
        refused = exc
    else:
        return RedirectResponse(f"/tournaments/{pk}", status_code=303)
    return await anyio.to_thread.run_sync(
        lambda: list_page(request, user, status=refused.status, error=refused.text, values=data)
    )


@router.get("/tournaments/{pk:id}")
async def tournament_page(pk: int, request: Request, user: Visitor):
    view = await anyio.to_thread.run_sync(lambda: tournaments(request).view(pk, user))
    cls = available_games().get(view.tournament.game)
    return render(
        request,
        "tournament.html",
        view=view,
        t=view.tournament,
        title=cls.title if cls is not None else view.tournament.game,
        clock_text=describe(view.tournament.clock),
    )


@router.post("/tournaments/{pk:id}/{action}")
async def act(pk: int, action: str, request: Request, user: SignedIn):
    await form(request)  # its CSRF token checked
    service = tournaments(request)
    work = {
        "join": service.join,
        "withdraw": service.withdraw,
        "pause": service.pause,
        "start": service.start_now,
    }.get(action)
    if work is None:
        raise ClubError("That action is not allowed here.", 404)
    await anyio.to_thread.run_sync(lambda: work(pk, user))
    return RedirectResponse(f"/tournaments/{pk}", status_code=303)
