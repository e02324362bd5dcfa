"""Chat over the game's websocket, its JSON routes, and the moderators' forms for lines.

A page sends ``{"type": "chat", "text": …, "csrf": …}`` on the game socket it already
has. The line is stored, and once committed it is an event (:mod:`ludoteca.web.infra.fanout`):
each process with watchers of the game sends it to those who read its channel, so a
spectator's line never reaches a player's page during the game.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from sqlalchemy import select

from ludoteca.web.chat import service
from ludoteca.web.chat.models import ChatLine, ChatMute
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.store import GameRow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import (
    SignedIn,
    Visitor,
    check_csrf,
    club,
    in_transaction,
)
from ludoteca.web.moderation.models import Block

router = APIRouter()


def _game(db, pk: int) -> GameRow:
    row = db.get(GameRow, pk)
    if row is None:
        raise ClubError("There is no game #{pk}.", 404, pk=pk)
    return row


async def on_message(hub, conn: Connection, data: dict[str, Any]) -> None:
    """A ``chat`` message from a game socket (its CSRF token already checked)."""
    user = conn.user
    if user is None:
        raise ClubError("Please log in to chat.", 401)
    store = hub.store

    def write() -> None:
        with store.session() as db:
            service.write(db, _game(db, conn.pk), user, data.get("text"))
            db.commit()

    await anyio.to_thread.run_sync(write)


def validate(data: dict[str, Any]) -> None:
    if not isinstance(data.get("text"), str):
        raise ClubError("A chat message needs 'text'.")


async def deliver(hub, line_id: int) -> None:
    """A chat line was committed (here or in another process): send it to this process's
    watchers of its game who read its channel and do not block its author."""
    store = hub.store

    def plan() -> list[tuple[Connection, str]] | None:
        with store.reading() as db:
            line = db.get(ChatLine, line_id)
            if line is None or line.hidden:
                return None
            conns = list(hub.connections.get(line.game_id, ()))
            if not conns:
                return None
            row = _game(db, line.game_id)
            ids = {c.user_id for c in conns if c.user_id is not None}
            muting = set(
                db.scalars(
                    select(ChatMute.user_id).where(
                        ChatMute.game_id == row.id, ChatMute.user_id.in_(ids)
                    )
                )
            )
            blocking = set(
                db.scalars(
                    select(Block.user_id).where(
                        Block.blocked_id == line.author_id, Block.user_id.in_(ids)
                    )
                )
            )
            text = json.dumps({"type": "chat", "line": service.line_json(line)}, ensure_ascii=False)
            out = []
            for conn in conns:
                if conn.user_id in blocking:
                    continue
                if line.channel in service.readable(row, conn.user, conn.user_id in muting):
                    out.append((conn, text))
            return out

    for conn, text in await anyio.to_thread.run_sync(plan) or ():
        conn.send_reply(text)


@router.get("/api/games/{pk:id}/chat")
def chat_history(pk: int, request: Request, user: Visitor) -> JSONResponse:
    with club(request).store.reading() as db:
        return JSONResponse(service.history(db, _game(db, pk), user))


async def _body(request: Request) -> dict[str, Any]:
    data = json_object(await request.body())
    check_csrf(request, request.headers.get("x-csrf-token"))
    return data


@router.post("/api/games/{pk:id}/chat")
async def chat_post(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    """Write a line without the socket (scripts, or a page whose socket is reconnecting)."""
    data = await _body(request)
    await in_transaction(
        request, lambda db: service.write(db, _game(db, pk), user, data.get("text")).id
    )
    return JSONResponse({"ok": True})


@router.post("/api/games/{pk:id}/chat/mute")
async def chat_mute(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    data = await _body(request)
    muted = data.get("muted")
    if not isinstance(muted, bool):
        raise ClubError("'muted' must be true or false.")
    await in_transaction(request, lambda db: service.set_muted(db, _game(db, pk), user, muted))
    return JSONResponse({"ok": True, "muted": muted})


@router.post("/api/chat/{line_id:id}/report")
async def chat_report(line_id: int, request: Request, user: SignedIn) -> JSONResponse:
    data = await _body(request)
    reason = data.get("reason")
    if not isinstance(reason, str):
        raise ClubError("A report needs a 'reason'.")
    await in_transaction(request, lambda db: service.report(db, user, line_id, reason))
    return JSONResponse({"ok": True})


@router.post("/moderation/chat/{line_id:id}/hide")
async def chat_hide(line_id: int, request: Request, user: SignedIn):
    data = await form(request)
    await in_transaction(
        request, lambda db: service.hide(db, user, line_id, data.get("reason", ""))
    )
    return RedirectResponse("/moderation", status_code=303)


@router.post("/moderation/chat/{line_id:id}/dismiss")
async def chat_dismiss(line_id: int, request: Request, user: SignedIn):
    await form(request)
    await in_transaction(request, lambda db: service.dismiss(db, user, line_id))
    return RedirectResponse("/moderation", status_code=303)
