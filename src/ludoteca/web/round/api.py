"""The JSON API of a game: its view, the moves naming a cell, a move, a resignation.

A page without a socket plays through these; the watchers are told by the hub
(:mod:`.hub`) as after a move on a socket.
"""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.routing import Route

from ludoteca.web.accounts.service import SESSION_COOKIE, hash_token
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import (
    SignedIn,
    Visitor,
    check_csrf,
    club,
    current_user,
    language,
    mover,
)
from ludoteca.web.round.access import check_may_watch, is_to_move
from ludoteca.web.round.messages import seen_ply
from ludoteca.web.round.view import completions, localized

router = APIRouter()


class HotRoute(Route):
    """A plain Starlette route for a request an API client makes several times a move,
    matched before every route of the application's routers (:data:`HOT_ROUTES`).

    Through FastAPI's routers, finding the route (after the health, metrics and operator
    routers) and handing the request to it (its dependencies, its parameters' validation)
    cost a third of what answering ``GET /api/games/N`` cost. The logs and metrics name
    the route by its template (``scope["route"]``) as for any other; the club's exception
    handlers answer what it raises."""

    async def handle(self, scope, receive, send) -> None:
        scope["route"] = self
        await super().handle(scope, receive, send)


async def api_game(request: Request) -> Response:
    """The game as the asker sees it. Whose session it is and the view are found in one
    trip to play's threads, where the views after moves are made (a dependency would make
    a trip of its own first, in the default pool's forty threads, which all take turns at
    the interpreter while a move holds the write lock): an API client, or a page without
    a socket, asks before every move."""
    pk: int = request.path_params["pk"]
    compact = request.query_params.get("compact") == "1"
    hub = club(request).hub

    def read() -> str:
        user = current_user(request)
        return hub.view(pk, user, language(request).code, compact)

    text = await hub.play(read)
    return Response(text, media_type="application/json")


@router.get("/api/games/{pk:id}/moves")
def api_moves_with_cell(pk: int, request: Request, user: Visitor) -> JSONResponse:
    """The legal moves naming a cell (``?cell=e5``), whole, for the player to move: what a
    page sent the compact form asks once that cell is clicked."""
    cell = request.query_params.get("cell", "")
    if not 0 < len(cell) <= 32:
        raise ClubError("Name the cell: ?cell=…")
    row, state, _ = club(request).games.snapshot(pk)
    check_may_watch(row, user)
    if not is_to_move(row, state, user):
        raise ClubError("It is not your turn.", 409)
    moves = localized(completions(state, cell), language(request))
    return JSONResponse({"ply": row.ply, "cell": cell, "moves": moves})


async def _json_body(request: Request) -> dict[str, Any]:
    return json_object(await request.body())


async def api_move(request: Request) -> Response:
    """Play a move. The answer is ``{"ok": true, "ply": N}``; with ``?view=1`` it also holds
    the mover's new view (``?compact=1`` as for ``GET /api/games/PK``), so that a page
    without a socket shows the board after its move without asking again. The watchers'
    views are made in the same trip to play's threads (:meth:`Hub.change_and_deliver`)."""
    pk: int = request.path_params["pk"]
    if not request.cookies.get(SESSION_COOKIE):
        raise ClubError("Please log in first.", 401)
    data = await _json_body(request)
    games = club(request).games
    hub = club(request).hub
    want_view = request.query_params.get("view") == "1"
    compact = request.query_params.get("compact") == "1"

    def move_then_view() -> tuple[int, str | None]:
        # One trip to play's threads, not three: whose session it is (a read, unless this
        # process read it a moment ago), the move and the view. A signed-in dependency would
        # make its read in a thread of its own first. The move's claim checks that the
        # session is still open, whichever process closed it.
        user = mover(request)
        check_csrf(request, request.headers.get("x-csrf-token"))
        ply = seen_ply(data, required=True)
        session = hash_token(request.cookies[SESSION_COOKIE])
        new_ply = games.submit(pk, user, data.get("move"), expected_ply=ply, session=session)
        lang = language(request).code
        if not want_view:
            return new_ply, None
        return new_ply, hub.view(pk, user, lang, compact, after_own_change=True)

    new_ply, text = await hub.change_and_deliver(pk, move_then_view)
    hub.kick_bots(pk)
    if text is None:
        return JSONResponse({"ok": True, "ply": new_ply})
    return Response(f'{{"ok":true,"ply":{new_ply},"view":{text}}}', media_type="application/json")


HOT_ROUTES = (
    HotRoute("/api/games/{pk:id}", api_game, methods=["GET"]),
    HotRoute("/api/games/{pk:id}/move", api_move, methods=["POST"]),
)
"""The game's view and a move, which :func:`ludoteca.web.app.create_app` puts before every
other route."""


@router.post("/api/games/{pk:id}/resign")
async def api_resign(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    data = await _json_body(request) if await request.body() else {}
    check_csrf(request, request.headers.get("x-csrf-token"))
    ply = seen_ply(data, required=False)
    games = club(request).games
    await anyio.to_thread.run_sync(lambda: games.resign(pk, user, expected_ply=ply))
    await club(request).hub.publish(pk)
    return JSONResponse({"ok": True})
