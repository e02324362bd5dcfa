"""The computer's view on the analysis board, streamed: ``/ws/analysis``.

The page sends ``{"type": "start", "game", "players", "position", "csrf"}``; the club
searches the position in slices of :data:`SLICE_SECONDS` in its analysis worker (its own
pool, apart from the computer players' so that no analysis delays a live game's move) and
sends a report after each, growing one tree, for up to :data:`MAX_SECONDS` or until the page
sends ``{"type": "stop"}`` or another start. Analysis is for signed-in people, one board at
a time each.

**Shared fairly.** The worker is one process for the whole club: each slice waits in its
person's own line of :attr:`Club.analysis_queue`, which serves first whoever used the worker
least lately (:mod:`.sharing`), and a game review's positions wait in lines of their own in
the same queue. So people analysing non-stop, or reviewing long games, share the worker
between them, and someone starting an analysis after a while gets the next slice (eight
accounts analysing non-stop made an honest first report wait some 4 s; now about one slice).
A tree is bounded in nodes and in search time (:mod:`ludoteca.bots.position_analysis`).

A socket may *start* :data:`STARTS_BURST` times at once and then once every
:data:`STARTS_EVERY` seconds (playing moves on the board starts again after each move); more
is refused, and a socket that goes on sending refused starts (:data:`REFUSED_STARTS_CLOSE`)
is closed.

**No help in one's own game.** A position that is the current one of the caller's game in
progress (rated, or against another person) is refused (:mod:`.own_games`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from contextlib import suppress

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ludoteca.bots import position_analysis as analysis
from ludoteca.core.messages import N_
from ludoteca.web.accounts.service import ANON_COOKIE, SESSION_COOKIE
from ludoteca.web.analysis.own_games import check_not_own_live_game
from ludoteca.web.analysis.positions import options_for, state_of
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.kernel.errors import ClubError, socket_refusal

router = APIRouter()
SLICE_SECONDS = 0.5
MAX_SECONDS = 30.0
_keys = itertools.count(1)
STARTS_BURST = 10
"""Starts a socket may send at once (a person stepping quickly through moves)."""
STARTS_EVERY = 1.0
"""Seconds after which one more start is allowed, past the burst: a script sending *start*
50 times a second (432 in a row were all served) is refused after the first ten."""
REFUSED_STARTS_CLOSE = 50
"""Refused starts after which the socket is closed: a page never sends so many (it starts
once per move played), and each refusal still costs the server a message."""
_busy: set[int] = set()
"""Users with an analysis socket open in this process."""


class StartRate:
    """A token bucket: :data:`STARTS_BURST` starts at once, one more per
    :data:`STARTS_EVERY` seconds."""

    def __init__(self) -> None:
        self.tokens = float(STARTS_BURST)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(STARTS_BURST), self.tokens + (now - self.at) / STARTS_EVERY)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _run(ws: WebSocket, key: str, user_id: int, data: dict) -> None:
    club = ws.app.state.club
    loop = asyncio.get_running_loop()
    game_id = str(data.get("game", ""))
    options = options_for(game_id, data.get("players"))
    position = data.get("position")
    if not isinstance(position, str):
        raise ClubError("'position' is the position in the game's notation.")
    state = state_of(game_id, options, position)  # refused here, not in the worker
    position = state.position()
    await anyio.to_thread.run_sync(check_not_own_live_game, club, user_id, game_id, position)
    spent = 0.0
    while spent < MAX_SECONDS:
        async with club.analysis_queue.turn(("board", user_id)):
            job = loop.run_in_executor(
                club.analysis_pool, analysis.step, key, game_id, options, position, SLICE_SECONDS
            )
            report = await worker_result(job)
        spent += SLICE_SECONDS
        if "error" in report:
            await _refuse(ws, report["error"])
            return
        finished = spent >= MAX_SECONDS or bool(report.get("spent"))
        report.update(type="analysis", position=position, done=finished)
        await ws.send_text(json.dumps(report, ensure_ascii=False))
        if report["proven"] or state.is_over or finished:
            break
    await ws.send_text(json.dumps({"type": "done", "position": position}))


async def worker_result(job: asyncio.Future) -> dict:
    """The slice's report; cancelled (a new start, a stop, a closed socket), the turn is
    still held until the worker has finished the slice, which it cannot abandon: given back
    at once, each start sent in a flood left a slice running that no turn accounted for."""
    try:
        return await asyncio.shield(job)
    except asyncio.CancelledError:
        with suppress(BaseException):
            await asyncio.wait([job])
        raise


async def _refuse(ws: WebSocket, message: str) -> None:
    """Tell the page why, in its language (the page names it: ``?lang=``)."""
    await ws.send_text(socket_refusal(message, choose(ws, None)))


@router.websocket("/ws/analysis")
async def analysis_socket(ws: WebSocket) -> None:
    club = ws.app.state.club
    session = ws.cookies.get(SESSION_COOKIE)
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    origin = ws.headers.get("origin")
    await ws.accept()
    if origin is not None and origin.split("://", 1)[-1] != ws.headers.get("host", ""):
        await ws.close(code=4403)
        return
    if user is None:
        await _refuse(ws, N_("Log in to analyse."))
        await ws.close(code=4401)
        return
    if user.id in _busy:
        message = N_("You are analysing on another page; close it first.")
        await _refuse(ws, message)
        await ws.close(code=1008)
        return
    _busy.add(user.id)
    key = f"{id(club)}-{next(_keys)}"
    token = session or ws.cookies.get(ANON_COOKIE)
    task: asyncio.Task | None = None
    rate = StartRate()
    refused = 0
    try:
        while True:
            raw = await ws.receive_text()
            try:
                data = json_object(raw[:30_000], N_("A message"))
                if data.get("type") == "stop":
                    if task is not None:
                        task.cancel()
                    continue
                if data.get("type") != "start":
                    raise ClubError("Send 'start' (with a position) or 'stop'.")
                if not club.accounts.csrf_ok(token, data.get("csrf")):
                    raise ClubError("The security (CSRF) token is wrong; reload the page.", 403)
                if not rate.take():
                    refused += 1
                    if refused >= REFUSED_STARTS_CLOSE:
                        await ws.close(code=1008)
                        break
                    raise ClubError(
                        N_("Too many starts at once; wait a moment and start again."), 429
                    )
                if task is not None:
                    task.cancel()
                task = asyncio.create_task(_guarded(ws, key, user.id, data))
            except ClubError as exc:
                await _refuse(ws, exc.message)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        _busy.discard(user.id)
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await task
        with suppress(Exception):
            await asyncio.get_running_loop().run_in_executor(
                club.analysis_pool, analysis.forget, key
            )


async def _guarded(ws: WebSocket, key: str, user_id: int, data: dict) -> None:
    try:
        await _run(ws, key, user_id, data)
    except ClubError as exc:
        with suppress(Exception):
            await _refuse(ws, exc.message)
    except asyncio.CancelledError:
        raise
    except Exception:
        with suppress(Exception):
            await _refuse(ws, N_("The analysis failed."))
