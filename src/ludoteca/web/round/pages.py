"""The game page, and its forms that join, resign or cancel a game."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request

from ludoteca.web.kernel.forms import form_data, redirect
from ludoteca.web.kernel.requests import (
    check_csrf,
    club,
    current_user,
    language,
    render,
    require_user,
)
from ludoteca.web.ratings.service import read_seat_ratings
from ludoteca.web.round.access import may_cancel, may_join
from ludoteca.web.round.assets import page_module
from ludoteca.web.round.view import page_view, script_json
from ludoteca.web.rules.pages import rules_context

router = APIRouter()


async def _seat_form(request: Request, pk: int, action: str):
    """A checked form that joins, resigns or cancels a game, then tells its viewers."""
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    user = require_user(request)
    c = club(request)
    await anyio.to_thread.run_sync(getattr(c.games, action), pk, user)
    await c.hub.publish(pk)
    return c


@router.post("/games/{pk:id}/join")
async def join_game(pk: int, request: Request):
    c = await _seat_form(request, pk, "join")
    c.hub.kick_bots(pk)  # a full table may start with a computer to move
    return redirect(f"/games/{pk}")


@router.post("/games/{pk:id}/cancel")
async def cancel_game(pk: int, request: Request):
    """The creator withdraws a game nobody has joined yet; back to the lobby."""
    await _seat_form(request, pk, "cancel")
    return redirect("/")


@router.post("/games/{pk:id}/resign")
async def resign_game(pk: int, request: Request):
    await _seat_form(request, pk, "resign")
    return redirect(f"/games/{pk}")


@router.get("/games/{pk:id}")
def game_page(pk: int, request: Request):
    c = club(request)
    user = current_user(request)
    row, state, moves = c.games.snapshot(pk)  # one read of the game for the whole page
    view, view_text = page_view(row, state, moves, user, language(request), compact=True)
    can_join = may_join(row, user)
    can_cancel = may_cancel(row, user)
    rules = rules_context(row.game, language(request).code)
    players = c.lists.get(  # names link to profiles, with their rating (kept a second)
        ("players", pk, tuple(s.user_id for s in row.seats), c.games.listed),
        lambda: read_seat_ratings(c.store, row),
    )
    tournament = None
    if c.tournaments is not None:  # a game's tournament never changes: kept a second
        tournament = c.lists.get(("tournament", pk), lambda: c.tournaments.of_game(pk))
    to_me = mine = rematch_game = None
    if row.status == "finished" and c.challenges is not None:
        to_me, mine = c.challenges.rematch_offers(pk, user)
        rematch_game = c.challenges.rematch_game(pk)
    return render(
        request,
        "game.html",
        view=view,
        view_json=script_json(view_text),
        module=row.game if page_module(row.game) else "",
        can_join=can_join,
        can_cancel=can_cancel,
        rules=rules,
        players=players,
        rated=row.rated,
        rematch_to_me=to_me,
        rematch_mine=mine,
        rematch_game=rematch_game,
        tournament=tournament,
    )
