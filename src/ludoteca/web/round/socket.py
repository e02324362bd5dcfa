"""The websocket of a game page: its transport, and nothing else.

Every websocket message is validated: a JSON object of at most a few kilobytes with a known
``type``, the right field types, and the page's CSRF token; a connection sending more than
``WS_MESSAGES_PER_SECOND`` messages a second is told so and closed, and one address may
hold at most ``WS_CONNECTIONS_PER_ADDRESS`` connections to a process at once. A refresh
reads the game again, so refreshes are limited further, per connection and per address.
A move or resignation is only taken while the session the socket was opened with is still
open; a session that ends (log-out, expiry) closes its sockets.

The hub (:mod:`.hub`) tells the watchers, :mod:`.flood` bounds what a client may send,
:mod:`.messages` validates it, and the JSON API is :mod:`.api`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.core.messages import N_, Text
from ludoteca.web.accounts.service import ANON_COOKIE, SESSION_COOKIE, hash_token
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.throttle import address_key
from ludoteca.web.kernel.errors import SESSION_ENDED, ClubError, SessionEnded, socket_refusal
from ludoteca.web.ops.logs import bind_user
from ludoteca.web.round.flood import (
    MAX_WS_MESSAGE,
    REFRESHES_PER_ADDRESS,
    REFRESHES_PER_CONNECTION,
    REFRESHES_REFUSED_BEFORE_CLOSE,
    TOO_MANY_MESSAGES,
    TOO_MANY_REFRESHES,
    WS_CONNECTIONS_PER_ADDRESS,
    WS_MESSAGES_PER_SECOND,
    MessageRate,
)
from ludoteca.web.round.hub import SESSION_CLOSED, Hub
from ludoteca.web.round.messages import MISSING_PLY, validate_message

__all__ = [
    "MAX_WS_MESSAGE",
    "MISSING_PLY",
    "REFRESHES_PER_ADDRESS",
    "SESSION_CLOSED",
    "SESSION_ENDED",
    "SORRY",
    "TOO_MANY_REFRESHES",
    "WS_MESSAGES_PER_SECOND",
    "game_socket",
    "validate_message",
]

log = logging.getLogger("ludoteca.web")
router = APIRouter()

SORRY = N_("Something went wrong on the server; sorry. Reload the page to go on.")


def _origin_ok(ws: WebSocket) -> bool:
    """Browsers always send Origin on websockets; it must be this server."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (scripts, tests); the CSRF token still guards each move
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


@router.websocket("/ws/games/{pk:id}")
async def game_socket(ws: WebSocket, pk: int) -> None:
    hub: Hub = ws.app.state.club.hub
    if not _origin_ok(ws):
        await ws.close(code=4403)
        return
    address = address_key(ws.client.host if ws.client is not None else None)
    if hub.flood.paused(address):  # it flooded a moment ago: not even a handshake
        await ws.close(code=1008)
        return
    if hub.flood.sockets_per_address[address] >= WS_CONNECTIONS_PER_ADDRESS:
        await ws.accept()
        text = Text(
            "Too many open game pages from your address (at most {count}); close some and "
            "reload this one.",
            {"count": WS_CONNECTIONS_PER_ADDRESS},
        )
        await ws.send_text(socket_refusal(text, choose(ws, None)))
        await ws.close(code=1008)
        return
    hub.flood.sockets_per_address[address] += 1
    try:
        await _serve_socket(ws, pk, address)
    finally:
        hub.flood.sockets_per_address[address] -= 1
        if hub.flood.sockets_per_address[address] <= 0:
            del hub.flood.sockets_per_address[address]
            hub.flood.refreshes_per_address.pop(address, None)


async def _serve_socket(ws: WebSocket, pk: int, address: str) -> None:
    """One game websocket: the reader (this task's child) answers the client's messages,
    the connection's writer sends; it ends when the client leaves, or the club closes or
    drops the connection."""
    club = ws.app.state.club
    hub: Hub = club.hub
    session = ws.cookies.get(SESSION_COOKIE)
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    bind_user(user.id if user is not None else None)
    await ws.accept()
    session_hash = hash_token(session) if user is not None and session else None
    conn = Connection(ws, pk, user, session_hash, address)
    conn.lang = choose(ws, user)
    conn.compact = ws.query_params.get("compact") == "1"
    conn.start()
    reader: asyncio.Task | None = None
    try:
        try:
            await hub.join(conn)
        except ClubError as exc:
            conn.send_reply(socket_refusal(exc.message, conn.lang))
            conn.close(4403 if exc.status == 403 else 4404)
        except Exception:
            log.exception("game %s: the view for a new connection failed", pk)
            conn.send_reply(socket_refusal(SORRY, conn.lang))
            conn.close(1011)
        else:
            base_token = session if user is not None else ws.cookies.get(ANON_COOKIE)
            reader = asyncio.create_task(_read(conn, session, base_token))
        await conn.finished.wait()
    finally:
        hub.leave(conn)
        if reader is not None and not reader.done():
            reader.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await reader
        await conn.stop()


async def _read(conn: Connection, session: str | None, base_token: str | None) -> None:
    """Answer the client's messages until it leaves (or the connection is being closed)."""
    ws = conn.ws
    rate = MessageRate()
    refreshes = MessageRate(*REFRESHES_PER_CONNECTION)
    try:
        while not conn.closing and not conn.finished.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                conn.send_reply(socket_refusal(TOO_MANY_MESSAGES, conn.lang))
                conn.close(1008)
                ws.app.state.club.hub.flood.flooded(conn.address)
                break
            await answer(conn, message.get("text"), session, base_token, refreshes)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # receiving after the server's own close: the connection is over
        pass
    finally:
        if not conn.closing:  # else the writer ends it, once the last messages and close are out
            conn.finished.set()


async def answer(
    conn: Connection,
    raw: str | None,
    session: str | None,
    base_token: str | None,
    refreshes: MessageRate,
) -> None:
    """Act on one message from a game websocket and queue the answer: a pong, a view, or an
    error saying why the message was refused (a refusal changes nothing)."""
    club = conn.ws.app.state.club
    hub: Hub = club.hub
    pk, user = conn.pk, conn.user
    data: dict[str, Any] = {}
    try:
        data = validate_message(raw, hub.message_handlers)
        kind = data["type"]
        if kind == "ping":
            conn.send_reply('{"type":"pong"}')
            return
        if kind == "refresh":
            if not refreshes.allow() or not hub.flood.refresh_allowed(conn.address):
                conn.refused_refreshes += 1
                if conn.refused_refreshes >= REFRESHES_REFUSED_BEFORE_CLOSE:
                    conn.send_reply(socket_refusal(TOO_MANY_REFRESHES, conn.lang))
                    conn.close(1008)
                    hub.flood.flooded(conn.address)
                    return
                raise ClubError(TOO_MANY_REFRESHES, 429)
            conn.refused_refreshes = 0
            await hub.refresh(conn)
            return
        if user is None:
            if kind in hub.message_handlers:
                raise ClubError("Please log in to chat.", 401)
            raise ClubError("Please log in to play.", 401)
        if not club.accounts.csrf_ok(base_token, data.get("csrf")):
            raise ClubError(
                "The security (CSRF) token is wrong or out of date; reload the page.", 403
            )
        if kind in hub.message_handlers:
            await hub.message_handlers[kind].handle(hub, conn, data)
            return

        received = time.perf_counter()
        timings = club.metrics

        def act(d=data) -> None:
            # The session is checked again with every move: one that has ended plays no
            # more, whichever process it ended in. A move's claim on its game checks it in
            # the same statement (see Playing.submit).
            if not session:
                raise SessionEnded()
            if kind == "move":
                club.games.submit(
                    pk, user, d["move"], expected_ply=d.get("ply"), session=hash_token(session)
                )
                if timings is not None:
                    timings.move_seconds.labels("stored").observe(time.perf_counter() - received)
            elif club.accounts.session_user_id(session) != user.id:
                raise SessionEnded()
            else:
                club.games.resign(pk, user, expected_ply=d.get("ply"))

        await hub.change_and_deliver(pk, act)
        if kind == "move" and timings is not None:
            timings.move_seconds.labels("sent").observe(time.perf_counter() - received)
    except SessionEnded as exc:
        conn.send_reply(socket_refusal(exc.message, conn.lang))
        conn.close(SESSION_CLOSED)
        return
    except ClubError as exc:
        kind = data.get("type")
        if isinstance(kind, str) and kind in hub.message_handlers:
            conn.send_reply(socket_refusal(exc.message, conn.lang, kind, exc.retry_after))
            return
        conn.send_reply(socket_refusal(exc.message, conn.lang))
        if exc.changed:  # refused, but the game ended on time
            await hub.publish(pk)
        return
    except Exception:
        log.exception("game %s: a websocket message failed", pk)
        conn.send_reply(socket_refusal(SORRY, conn.lang))
        return
    hub.kick_bots(pk)
