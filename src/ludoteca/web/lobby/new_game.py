"""Making a new game: the form, a quick game against the computer, and reading its fields."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ludoteca.core.messages import N_
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form_data, login_to, redirect
from ludoteca.web.kernel.requests import (
    check_csrf,
    club,
    current_user,
    render,
    require_user,
)
from ludoteca.web.round.catalog import (
    LEVEL_ABOUT,
    available_games,
    bot_levels,
    catalogue,
    players_for,
)
from ludoteca.web.round.errors import NewGameRefused
from ludoteca.web.round.service import GameSettings, SeatSpec

router = APIRouter()


@router.get("/games/new")
def new_game_page(request: Request):
    if current_user(request) is None:  # back to this form, for this game, once logged in
        query = request.url.query
        return login_to(request.url.path + (f"?{query}" if query else ""))
    chosen = request.query_params.get("game")
    against = request.query_params.get("against") == "computer"
    return new_game_form(request, chosen, against_computer=against)


def new_game_form(
    request: Request,
    chosen: str | None,
    *,
    status: int = 200,
    error: Any = None,
    against_computer: bool = False,
) -> Response:
    """The new-game form: the computer levels described, and ``easy`` offered first, the
    level at which a newcomer has a game (``random`` only teaches the rules)."""
    return render(
        request,
        "new_game.html",
        status=status,
        games=catalogue(),
        chosen=chosen,
        levels=bot_levels(),
        level_about=LEVEL_ABOUT,
        default_level=FIRST_LEVEL,
        against_computer=against_computer,
        error=error,
    )


FIRST_LEVEL = "easy"
"""The computer a newcomer meets first (the lobby's *Play the computer*, the form's default):
it plays the move that looks best now, without looking ahead, so it punishes a blunder yet
can be beaten in a first game."""


@router.post("/games/quick")
async def quick_game(request: Request):
    """*Play the computer* on a lobby card: one click to a game against the computer at the
    level chosen above the cards (:data:`FIRST_LEVEL` unless changed; the browser keeps the
    choice), untimed and casual, one computer opposite (Hexagone's solo table has no
    opponent, so it is two seats where a game allows two). Logged out, the click leads to
    the log-in page and from there to the new-game form for that game."""
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    game_id = data.get("game", "")
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    user = current_user(request)
    if user is None:
        return login_to("/games/new?" + urlencode({"game": game_id, "against": "computer"}))
    cls = available_games()[game_id]
    level = data.get("level") or FIRST_LEVEL  # the lobby's choice, else the newcomer's level
    if level not in bot_levels():
        level = FIRST_LEVEL if FIRST_LEVEL in bot_levels() else bot_levels()[0]
    players = min(max(2, cls.min_players), cls.max_players)
    seats = [SeatSpec("me"), *(SeatSpec("bot", bot=level) for _ in range(players - 1))]
    options = {"players": players} if cls.max_players != cls.min_players else {}
    games = club(request).games
    try:
        pk = await anyio.to_thread.run_sync(
            lambda: games.create(user, game_id, options, seats, GameSettings())
        )
    except NewGameRefused as exc:
        page = new_game_form(request, game_id, status=exc.status, error=exc.message)
        if exc.retry_after is not None:
            page.headers["Retry-After"] = str(exc.retry_after)
        return page
    club(request).hub.kick_bots(pk)
    return redirect(f"/games/{pk}")


def parse_seats(data: dict[str, str], players: int) -> list[SeatSpec]:
    specs = []
    for i in range(players):
        kind = data.get(f"seat{i}", "me" if i == 0 else "open")
        specs.append(
            SeatSpec(
                kind=kind,
                user=data.get(f"seat{i}_user", "")[:64],
                bot=data.get(f"seat{i}_bot", "")[:64],
            )
        )
    return specs


CLOCK_LIMITS = {
    "base": (1, 180, N_("The clock's base time is 1 to 180 minutes.")),
    "increment": (0, 60, N_("The clock's increment is 0 to 60 seconds a move.")),
    "days": (1, 14, N_("A correspondence game allows 1 to 14 days a move.")),
}


def _whole(data: dict[str, str], key: str, default: int) -> int:
    low, high, message = CLOCK_LIMITS[key]
    try:
        value = int(data.get(f"clock_{key}", "") or default)
    except ValueError:
        raise ClubError(message) from None
    if not low <= value <= high:
        raise ClubError(message)
    return value


def parse_settings(data: dict[str, str]) -> GameSettings:
    """Rated or casual, private or watchable, and the time control, from the new-game form.

    Live: ``clock_base`` minutes plus ``clock_increment`` seconds a move (Fischer);
    correspondence: ``clock_days`` days a move; ``none``: untimed."""
    kind = data.get("clock", "none")
    clock: dict[str, Any] | None
    if kind == "none":
        clock = None
    elif kind == "live":
        clock = {
            "kind": "live",
            "base": _whole(data, "base", 10) * 60,
            "increment": _whole(data, "increment", 5),
        }
    elif kind == "correspondence":
        clock = {"kind": "correspondence", "days": _whole(data, "days", 3)}
    else:
        raise ClubError(
            "Unknown time control {kind!r} (none, live or correspondence).", kind=kind[:20]
        )
    return GameSettings(
        rated=data.get("rated") == "on", private=data.get("private") == "on", clock=clock
    )


@router.post("/games")
async def create_game(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    user = require_user(request)
    game_id = data.get("game", "")
    if game_id not in available_games():
        raise ClubError("There is no game called {game_id!r}.", game_id=game_id[:40])
    cls = available_games()[game_id]
    options: dict[str, Any] = {}
    players = cls.min_players
    if cls.max_players != cls.min_players:
        players = players_for(cls, data.get("players", cls.min_players))
        options["players"] = players
    seats = parse_seats(data, players)
    settings = parse_settings(data)
    games = club(request).games
    try:
        pk = await anyio.to_thread.run_sync(
            lambda: games.create(user, game_id, options, seats, settings)
        )
    except NewGameRefused as exc:
        # A quota: the form again, with the reason (and, for a rate, when to come back).
        page = new_game_form(request, game_id, status=exc.status, error=exc.message)
        if exc.retry_after is not None:
            page.headers["Retry-After"] = str(exc.retry_after)
        return page
    club(request).hub.kick_bots(pk)
    return redirect(f"/games/{pk}")
