"""Live play: the websocket per game, the JSON API, and the hub that tells every watcher.

The hub keeps the connections of this process by game. After a move is committed it sends
each connection a fresh view (the player to move also gets the legal moves). It is the one
place a future multi-process setup hooks in: :meth:`Hub.publish` would also notify the other
processes (PostgreSQL LISTEN/NOTIFY), each of which then calls :meth:`Hub.deliver`.

Every websocket message is validated: a JSON object of at most a few kilobytes with a known
``type``, the right field types, and the page's CSRF token.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from .accounts import ANON_COOKIE, SESSION_COOKIE
from .play import ClubError
from .seats import choose_move
from .store import User
from .views import game_view

if TYPE_CHECKING:
    from .club import Club

log = logging.getLogger("ludoteca.web")
router = APIRouter()
MAX_WS_MESSAGE = 4096


class Hub:
    def __init__(self) -> None:
        self.connections: dict[int, set[tuple[WebSocket, User | None]]] = defaultdict(set)
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.club: Club | None = None

    def view(self, pk: int, user: User | None) -> dict[str, Any]:
        assert self.club is not None
        games = self.club.games
        row, state = games.state(pk)
        return game_view(row, state, games.moves(pk), user)

    async def publish(self, pk: int) -> None:
        await self.deliver(pk)

    async def deliver(self, pk: int) -> None:
        conns = list(self.connections.get(pk, ()))
        if not conns:
            return
        views: dict[int | None, dict] = {}
        for ws, user in conns:
            key = user.id if user is not None else None
            if key not in views:
                views[key] = await anyio.to_thread.run_sync(self.view, pk, user)
            try:
                await ws.send_json(views[key])
            except Exception:  # a closed socket: forget it
                self.connections[pk].discard((ws, user))

    # --- computer seats ---------------------------------------------------------------------
    def kick_bots(self, pk: int) -> None:
        task = self.bot_tasks.get(pk)
        if task is None or task.done():
            self.bot_tasks[pk] = asyncio.create_task(self._run_bots(pk))

    async def _run_bots(self, pk: int) -> None:
        assert self.club is not None
        club = self.club
        loop = asyncio.get_running_loop()
        while True:
            turn = await anyio.to_thread.run_sync(club.games.bot_turn, pk)
            if turn is None:
                return
            job, ply = turn
            try:
                text = await loop.run_in_executor(club.extra["pool"], choose_move, job)
                if club.bot_delay:
                    await asyncio.sleep(club.bot_delay)
                await anyio.to_thread.run_sync(
                    lambda t=text, p=ply: club.games.submit(pk, None, t, bot=True, expected_ply=p)
                )
            except ClubError as exc:
                log.warning("game %s: computer move refused: %s", pk, exc.message)
                return
            except Exception:
                log.exception("game %s: the computer player failed", pk)
                return
            await self.publish(pk)


def _hub(request_or_ws) -> Hub:
    return request_or_ws.app.state.club.hub


# --- JSON API -------------------------------------------------------------------------------------
@router.get("/api/games/{pk}")
def api_game(pk: int, request: Request) -> JSONResponse:
    from .club import current_user

    return JSONResponse(_hub(request).view(pk, current_user(request)))


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise ClubError("The request body must be a JSON object.") from None
    if not isinstance(data, dict):
        raise ClubError("The request body must be a JSON object.")
    return data


@router.post("/api/games/{pk}/move")
async def api_move(pk: int, request: Request) -> JSONResponse:
    from .club import check_csrf, require_user

    data = await _json_body(request)
    user = await anyio.to_thread.run_sync(require_user, request)
    check_csrf(request, request.headers.get("x-csrf-token"))
    ply = data.get("ply")
    if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
        raise ClubError("'ply' must be a whole number.")
    games = request.app.state.club.games
    new_ply = await anyio.to_thread.run_sync(
        lambda: games.submit(pk, user, data.get("move"), expected_ply=ply)
    )
    hub = _hub(request)
    await hub.publish(pk)
    hub.kick_bots(pk)
    return JSONResponse({"ok": True, "ply": new_ply})


@router.post("/api/games/{pk}/resign")
async def api_resign(pk: int, request: Request) -> JSONResponse:
    from .club import check_csrf, require_user

    user = await anyio.to_thread.run_sync(require_user, request)
    check_csrf(request, request.headers.get("x-csrf-token"))
    games = request.app.state.club.games
    await anyio.to_thread.run_sync(games.resign, pk, user)
    await _hub(request).publish(pk)
    return JSONResponse({"ok": True})


# --- websocket ------------------------------------------------------------------------------------
def _origin_ok(ws: WebSocket) -> bool:
    """Browsers always send Origin on websockets; it must be this server."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (scripts, tests); the CSRF token still guards each move
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def validate_message(raw: str) -> dict[str, Any]:
    if len(raw) > MAX_WS_MESSAGE:
        raise ClubError("Message too long.")
    try:
        data = json.loads(raw)
    except ValueError:
        raise ClubError("A message must be a JSON object.") from None
    if not isinstance(data, dict):
        raise ClubError("A message must be a JSON object.")
    kind = data.get("type")
    if kind not in {"move", "resign", "ping", "refresh"}:
        raise ClubError(f"Unknown message type {kind!r}.")
    if kind in {"move", "resign"} and not isinstance(data.get("csrf"), str):
        raise ClubError("The message has no security (CSRF) token; reload the page.")
    if kind == "move":
        if not isinstance(data.get("move"), str):
            raise ClubError("A move message needs 'move', the move in notation.")
        ply = data.get("ply")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ClubError("'ply' must be a whole number.")
    return data


@router.websocket("/ws/games/{pk}")
async def game_socket(ws: WebSocket, pk: int) -> None:
    club = ws.app.state.club
    hub: Hub = club.hub
    if not _origin_ok(ws):
        await ws.close(code=4403)
        return
    session = ws.cookies.get(SESSION_COOKIE)
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    base_token = session if user is not None else ws.cookies.get(ANON_COOKIE)
    await ws.accept()
    try:
        view = await anyio.to_thread.run_sync(hub.view, pk, user)
    except ClubError as exc:
        await ws.send_json({"type": "error", "message": exc.message})
        await ws.close(code=4404)
        return
    entry = (ws, user)
    hub.connections[pk].add(entry)
    try:
        await ws.send_json(view)
        while True:
            raw = await ws.receive_text()
            try:
                data = validate_message(raw)
                kind = data["type"]
                if kind == "ping":
                    await ws.send_json({"type": "pong"})
                    continue
                if kind == "refresh":
                    await ws.send_json(await anyio.to_thread.run_sync(hub.view, pk, user))
                    continue
                if user is None:
                    raise ClubError("Please log in to play.", 401)
                if not club.accounts.csrf_ok(base_token, data.get("csrf")):
                    raise ClubError(
                        "The security (CSRF) token is wrong or out of date; reload the page.", 403
                    )
                if kind == "move":
                    await anyio.to_thread.run_sync(
                        lambda d=data: club.games.submit(
                            pk, user, d["move"], expected_ply=d.get("ply")
                        )
                    )
                else:
                    await anyio.to_thread.run_sync(club.games.resign, pk, user)
            except ClubError as exc:
                await ws.send_json({"type": "error", "message": exc.message})
                continue
            await hub.publish(pk)
            hub.kick_bots(pk)
    except WebSocketDisconnect:
        pass
    finally:
        hub.connections[pk].discard(entry)
