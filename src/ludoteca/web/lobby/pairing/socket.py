"""``/ws/seek``: the lobby's quick-pairing socket. A seek lives exactly as long as it.

The lobby opens it when a member presses a cell of the grid and sends
``{"type": "seek", "game", "players", "control", "rated"}``; the answer is ``seeking``, and
later ``paired`` with the game's address, which the page then opens by itself. Pressing the
cell again sends ``cancel``. When the socket closes (the page left, the tab closed, the
network gone) the seek is deleted; while it is open this process refreshes it every
:data:`~.pool.REFRESH_SECONDS`, so a seek whose process died grows old and is never paired.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import suppress
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.core.messages import Text
from ludoteca.web.accounts.service import SESSION_COOKIE, hash_token
from ludoteca.web.i18n.catalogs import language
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.throttle import address_key
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.lobby.pairing.pool import REFRESH_SECONDS, TICK_SECONDS, Cell, Pool
from ludoteca.web.round.flood import MessageRate

log = logging.getLogger("ludoteca.web")
router = APIRouter()
MESSAGES_PER_SECOND = 10
"""More from one socket in a second is a flood (a person presses a cell now and then)."""
MAX_MESSAGE = 512
TOO_MANY_MESSAGES = Text(
    "Too many messages: at most {count} a second.", {"count": MESSAGES_PER_SECOND}
)


class Seekers:
    """This process's pairing sockets, by the seek each one holds."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.sockets: dict[int, Connection] = {}

    def tell(self, seek_id: int, pk: int) -> None:
        conn = self.sockets.pop(seek_id, None)
        if conn is not None:
            conn.send_reply(json.dumps({"type": "paired", "game": pk, "url": f"/games/{pk}"}))

    async def on_paired(self, pk: int) -> None:
        """Game ``pk`` was made of seeks (here or by another process): tell their pages."""
        if not self.sockets:
            return
        for seek_id in await anyio.to_thread.run_sync(self.pool.seeks_of_game, pk):
            self.tell(seek_id, pk)

    async def run(self) -> None:
        """Forever: match again (ranges widen as people wait), tell pages paired meanwhile,
        keep this process's seeks alive and drop everyone's absent ones."""
        loop = asyncio.get_running_loop()
        refreshed = loop.time()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await anyio.to_thread.run_sync(self.pool.match)
                mine = list(self.sockets)
                found = await anyio.to_thread.run_sync(self.pool.paired, mine)
                for seek_id, pk in found.items():
                    self.tell(seek_id, pk)
                if loop.time() - refreshed >= REFRESH_SECONDS:
                    refreshed = loop.time()
                    await anyio.to_thread.run_sync(self.pool.refresh, list(self.sockets))
                    await anyio.to_thread.run_sync(self.pool.sweep_absent)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the pairing pool's round failed")


def parse_seek(data: dict[str, Any]) -> Cell:
    game, players, control = data.get("game"), data.get("players"), data.get("control")
    rated = data.get("rated", False)
    if not isinstance(game, str) or not isinstance(control, str) or not isinstance(rated, bool):
        raise ClubError("A seek names a game, a table size and a time control.")
    if not isinstance(players, int) or isinstance(players, bool):
        raise ClubError("A seek names a game, a table size and a time control.")
    return Cell(game[:40], players, control[:20], rated)


@router.websocket("/ws/seek")
async def seek_socket(ws: WebSocket) -> None:
    club = ws.app.state.club
    seekers: Seekers = club.seekers
    session = ws.cookies.get(SESSION_COOKIE)
    origin = ws.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != ws.headers.get("host", ""):
        await ws.close(code=4403)
        return
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    if user is None or session is None:
        await ws.accept()
        await ws.close(code=4401)
        return
    await ws.accept()
    lang = language(choose(ws, user))
    address = address_key(ws.client.host if ws.client is not None else None)
    conn = Connection(ws, 0, user, hash_token(session), address)
    conn.start()
    seek_id: int | None = None
    rate = MessageRate(MESSAGES_PER_SECOND)

    def say(kind: str, **fields: Any) -> None:
        conn.send_reply(json.dumps({"type": kind, **fields}, ensure_ascii=False))

    def drop_seek() -> None:
        if seek_id is not None and seekers.sockets.get(seek_id) is conn:
            del seekers.sockets[seek_id]

    try:
        while not conn.finished.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text") or ""
            if not rate.allow() or len(raw) > MAX_MESSAGE:
                say("error", message=lang.text(TOO_MANY_MESSAGES))
                conn.close(1008)
                break
            try:
                data = json.loads(raw)
            except ValueError:
                data = None
            kind = data.get("type") if isinstance(data, dict) else None
            if kind == "ping":
                say("pong")
            elif kind == "cancel":
                if seek_id is not None:
                    drop_seek()
                    await anyio.to_thread.run_sync(seekers.pool.cancel, seek_id)
                    seek_id = None
                say("cancelled")
            elif kind == "seek" and isinstance(data, dict):
                try:
                    cell = parse_seek(data)
                    drop_seek()
                    seek_id = await anyio.to_thread.run_sync(seekers.pool.seek, user, cell)
                except ClubError as exc:
                    say("error", message=lang.text(exc.text))
                    continue
                seekers.sockets[seek_id] = conn
                say("seeking", seek=seek_id)
                await anyio.to_thread.run_sync(seekers.pool.match, cell)
            else:
                say("error", message=lang.gettext("That message is not understood here."))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        drop_seek()
        if seek_id is not None:
            with suppress(Exception):
                await anyio.to_thread.run_sync(seekers.pool.forget, seek_id)
        with suppress(Exception):
            await conn.closed()  # a flood's error and close code go out first
            await conn.stop()
