"""The bell, live: ``/ws/me`` sockets of signed-in pages, told of each new notification.

Every page of a signed-in user opens one (``static/bell.js``). A new notification is an
event (:mod:`ludoteca.web.infra.fanout`): after its commit, the process that wrote it tells its
own sockets, and with PostgreSQL the other processes hear it and tell theirs. The socket
only listens; it answers a ping and ignores the rest, and closes a client that floods it.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from contextlib import suppress

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.web.accounts.service import SESSION_COOKIE, hash_token
from ludoteca.web.i18n.catalogs import Language, language
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.throttle import address_key
from ludoteca.web.notify import service
from ludoteca.web.notify.models import Notification
from ludoteca.web.presence.service import arrive
from ludoteca.web.round.flood import MessageRate

log = logging.getLogger("ludoteca.web")
router = APIRouter()
SOCKETS_PER_USER = 20
"""Open ``/ws/me`` sockets one user may hold in one process: one per open tab."""
MESSAGES_PER_SECOND = 10
"""More from one socket in a second is a flood (a page sends a ping now and then); it is
closed with code 1008."""


class Inbox:
    """This process's ``/ws/me`` sockets, by user."""

    def __init__(self, club) -> None:
        self.club = club
        self.sockets: dict[int, set[Connection]] = defaultdict(set)
        self.languages: dict[int, Language] = {}
        """Each user's language as their latest open page asked for it."""

    async def on_note(self, ident: int) -> None:
        """A notification was committed: tell its user's open pages, with the new count."""
        store = self.club.store

        def read() -> tuple[int, str] | None:
            with store.reading() as db:
                row = db.get(Notification, ident)
                if row is None or not self.sockets.get(row.user_id):
                    return None
                item = service.as_json(row, self.languages.get(row.user_id))
                if row.kind == "pairing":
                    item["opens"] = service.opens_by_itself(db, row)
                text = json.dumps(
                    {
                        "type": "notification",
                        "unread": service.unread(db, row.user_id),
                        "item": item,
                    },
                    ensure_ascii=False,
                )
                return row.user_id, text

        found = await anyio.to_thread.run_sync(read)
        if found is not None:
            user_id, text = found
            for conn in list(self.sockets.get(user_id, ())):
                conn.send_reply(text)

    def session_ended(self, hashes: set[str]) -> None:
        for conns in list(self.sockets.values()):
            for conn in list(conns):
                if conn.session in hashes:
                    conn.close(4401)


@router.websocket("/ws/me")
async def me_socket(ws: WebSocket) -> None:
    club = ws.app.state.club
    inbox: Inbox = club.inbox
    session = ws.cookies.get(SESSION_COOKIE)
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    origin = ws.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != ws.headers.get("host", ""):
        await ws.close(code=4403)
        return
    if user is None or session is None:  # a visitor, or logged out meanwhile: say so
        await ws.accept()
        await ws.close(code=4401)
        return
    if len(inbox.sockets.get(user.id, ())) >= SOCKETS_PER_USER:
        await ws.close(code=1008)
        return
    await ws.accept()
    address = address_key(ws.client.host if ws.client is not None else None)
    conn = Connection(ws, 0, user, hash_token(session), address)
    conn.start()
    inbox.sockets[user.id].add(conn)
    inbox.languages[user.id] = language(choose(ws, user))
    await anyio.to_thread.run_sync(arrive, club.store, user.id)  # online from now

    words = inbox.languages[user.id]

    def first_words() -> tuple[int, dict | None]:
        """The bell's count, and the pairing waiting to be opened (if any, see
        :func:`~ludoteca.web.notify.service.waiting_pairing`): looked for only when something
        is unread (a waiting pairing is), not on every page a member opens."""
        with club.store.reading() as db:
            unread = service.unread(db, user.id)
            waiting = service.waiting_pairing(db, user.id) if unread else None
            if waiting is None:
                return unread, None
            return unread, {**service.as_json(waiting, words), "opens": True}

    unread, waiting = await anyio.to_thread.run_sync(first_words)
    conn.send_reply(json.dumps({"type": "unread", "unread": unread}))
    if waiting is not None:
        conn.send_reply(json.dumps({"type": "pairing", "item": waiting}, ensure_ascii=False))
    rate = MessageRate(MESSAGES_PER_SECOND)
    try:
        while not conn.finished.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                conn.close(1008)
                break
            if message.get("text") == '{"type":"ping"}':
                conn.send_reply('{"type":"pong"}')
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conns = inbox.sockets.get(user.id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                inbox.sockets.pop(user.id, None)
                inbox.languages.pop(user.id, None)
        with suppress(Exception):
            await conn.closed()  # a flood's close code goes out first
            await conn.stop()
