"""Live play: the websocket per game, the JSON API, and the hub that tells every watcher.

The hub keeps the connections of this process by game. After a change is committed it sends
each connection a fresh view (the player to move also gets the legal moves). With PostgreSQL
several processes are one club: the committing transaction itself notifies the others
(:mod:`ludoteca.web.fanout`), whose listeners call :meth:`Hub.deliver` for the games they
have watchers of. :meth:`Hub.publish` tells this process's own watchers at once, without
waiting for the round trip, and the listener skips this process's own notifications, so
each watcher is told once. Only the process that accepted a move starts the computer's
answer (:meth:`Hub.kick_bots`); a listener only delivers.

Every websocket message is validated: a JSON object of at most a few kilobytes with a known
``type``, the right field types, and the page's CSRF token; a connection sending more than
``WS_MESSAGES_PER_SECOND`` messages a second is told so and closed, and one address may
hold at most ``WS_CONNECTIONS_PER_ADDRESS`` connections to a process at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict, deque
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from .accounts import ANON_COOKIE, SESSION_COOKIE
from .botqueue import FairQueue
from .fanout import Listener, is_postgres, libpq_url, new_origin
from .inputs import json_object
from .periodic import watch
from .play import ClubError
from .ratings import seat_ratings
from .seats import choose_move
from .store import GameRow, User
from .throttle import address_key
from .views import game_view

if TYPE_CHECKING:
    from .club import Club

log = logging.getLogger("ludoteca.web")
router = APIRouter()
MAX_WS_MESSAGE = 4096
WS_MESSAGES_PER_SECOND = 20
"""More than this many messages in any second closes the connection: a page sends a few a
minute, so only a runaway or hostile client reaches it."""
WS_CONNECTIONS_PER_ADDRESS = 50
"""Open game connections one client address may hold in one process: a person has one per
open game page, so fifty is a household of busy players, while one machine opening
thousands to exhaust the server is turned away (counted as :func:`address_key` counts)."""
PLAY_THREADS = 4
"""Worker threads for the database work of play (moves, and the views sent after them).

Every thread that is ready to run takes turns at the interpreter, and a move holds the
database's write lock from its first write to its commit: with dozens of threads ready (the
default pool has 40), each hand-over of the interpreter inside that window waited behind
all of them, and every other move queued behind the lock. A few threads keep that window
short; pages, log-ins and the rest keep the default pool, so they never hold up play.
Measured with ``bench/load.py --games 200 --think 2`` on SQLite: p99 146 ms with the
default pool, 65 ms with 4 threads, 55 ms with 2 (but PostgreSQL, whose threads wait on the
network, wants a few)."""
SORRY = "Something went wrong on the server; sorry. Reload the page to go on."


class MessageRate:
    """At most ``limit`` messages in any ``seconds``: the times of the last ``limit`` ones."""

    def __init__(self, limit: int = WS_MESSAGES_PER_SECOND, seconds: float = 1.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque(maxlen=limit)

    def allow(self) -> bool:
        now = time.monotonic()
        if len(self.times) == self.limit and now - self.times[0] < self.seconds:
            return False
        self.times.append(now)
        return True


class Hub:
    def __init__(self) -> None:
        self.connections: dict[int, set[tuple[WebSocket, User | None]]] = defaultdict(set)
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.club: Club | None = None
        self.origin = new_origin()
        self.listener: Listener | None = None
        self._queued: set[int] = set()
        self._sending: dict[int, asyncio.Lock] = {}
        self._background: set[asyncio.Task] = set()
        self.sockets_per_address: dict[str, int] = defaultdict(int)
        self._play_limiter: anyio.CapacityLimiter | None = None
        self.bot_queue = FairQueue()
        """Computer turns wait here for a worker, in their game creator's line."""

    async def play(self, fn, *args):
        """Run ``fn(*args)`` (moves and views: the database work of play) in a worker thread
        of play's own small pool. See :data:`PLAY_THREADS`."""
        if self._play_limiter is None:
            self._play_limiter = anyio.CapacityLimiter(PLAY_THREADS)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._play_limiter)

    def view(self, pk: int, user: User | None) -> dict[str, Any]:
        assert self.club is not None
        row, state, moves = self.club.games.snapshot(pk)
        return self._with_line(game_view(row, state, moves, user), self.players_line(row))

    @staticmethod
    def _with_line(view: dict[str, Any], line: dict[str, Any] | None) -> dict[str, Any]:
        if line is not None:
            view["players_line"] = line
        return view

    def players_line(self, row: GameRow) -> dict[str, Any] | None:
        """The game page's line of players with their ratings, sent with the views of a game
        that is not being played (waiting for players, or over): the page then shows who
        joined, and the ratings a rated game has just changed, without a reload. During
        play it cannot change, and is left out so that a move costs no extra read."""
        if row.status == "active":
            return None
        assert self.club is not None
        with self.club.store.reading() as db:
            return {"rated": bool(row.rated), "players": seat_ratings(db, row)}

    def encoded_views(self, pk: int, users: dict[int | None, User | None]) -> dict[int | None, str]:
        """Each watcher's view of ``pk`` as JSON text, by user id, all from one read of the
        game: one database session per change, however many watch it."""
        assert self.club is not None
        row, state, moves = self.club.games.snapshot(pk)
        line = self.players_line(row)
        out: dict[int | None, str] = {}
        for key, user in users.items():
            try:
                view = self._with_line(game_view(row, state, moves, user), line)
            except ClubError as exc:
                view = {"type": "error", "message": exc.message}
            out[key] = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        return out

    # --- telling watchers ---------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for changes made by other processes (PostgreSQL only)."""
        assert self.club is not None
        store = self.club.store
        if not is_postgres(store):
            return
        self.listener = Listener(libpq_url(store), self.origin, self._heard, self._resync)
        self.listener.start()
        if not await self.listener.wait_connected(10):
            log.warning("not yet listening for game changes; retrying in the background")

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()
        for task in list(self._background):
            task.cancel()

    async def publish(self, pk: int) -> None:
        """Tell this process's watchers of ``pk`` after a change this process committed
        (the commit itself has told the other processes)."""
        await self.deliver(pk)

    def _heard(self, pk: int) -> None:
        if self.connections.get(pk):
            task = asyncio.create_task(self.deliver(pk))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def _resync(self) -> None:
        for pk in [pk for pk, conns in self.connections.items() if conns]:
            self._heard(pk)

    async def deliver(self, pk: int) -> None:
        """Send every watcher of ``pk`` in this process the game as stored now.

        Deliveries for one game run one at a time, so no watcher gets an older view after a
        newer one; a delivery that would wait behind another already waiting is dropped,
        since the waiting one reads the database after this change anyway. A failure to
        tell is logged, never raised: the change it reports is already committed."""
        if not self.connections.get(pk) or pk in self._queued:
            return
        self._queued.add(pk)
        lock = self._sending.setdefault(pk, asyncio.Lock())
        try:
            async with lock:
                self._queued.discard(pk)
                await self._send_views(pk)
        except Exception:
            log.exception("game %s: telling its watchers failed", pk)
        finally:
            self._queued.discard(pk)
            if not lock.locked() and pk not in self._queued:
                self._sending.pop(pk, None)

    async def _send_views(self, pk: int) -> None:
        conns = list(self.connections.get(pk, ()))
        users = {(user.id if user is not None else None): user for _, user in conns}
        try:
            texts = await self.play(self.encoded_views, pk, users)
        except ClubError as exc:
            error = json.dumps({"type": "error", "message": exc.message})
            texts = dict.fromkeys(users, error)
        for ws, user in conns:
            try:
                await ws.send_text(texts[user.id if user is not None else None])
            except Exception:  # a closed socket: forget it
                self.connections[pk].discard((ws, user))
        if not self.connections.get(pk):
            self.connections.pop(pk, None)

    # --- computer seats ---------------------------------------------------------------------
    def kick_bots(self, pk: int) -> None:
        assert self.club is not None
        if not self.club.games.may_have_bots(pk):
            return
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
                async with self.bot_queue.turn(job.owner):
                    text = await loop.run_in_executor(club.extra["pool"], choose_move, job)
                if club.bot_delay:
                    await asyncio.sleep(club.bot_delay)
                await self.play(
                    lambda t=text, p=ply: club.games.submit(pk, None, t, bot=True, expected_ply=p)
                )
            except ClubError as exc:
                log.warning("game %s: computer move refused: %s", pk, exc.message)
                return
            except Exception:
                log.exception("game %s: the computer player failed", pk)
                return
            await self.publish(pk)


BOT_STALL_SECONDS = 60.0
"""A computer turn with no move for this long is taken over: far beyond any level's budget."""
BOT_WATCH_SECONDS = 15.0


async def take_over_stalled_bots(
    hub: Hub, idle: float = BOT_STALL_SECONDS, interval: float = BOT_WATCH_SECONDS
) -> None:
    """Forever: start the computer's turn in games where it has stalled.

    The process that accepts a move starts the computer's reply; if that process dies while
    the computer thinks, no one else would. Every process runs this watch, so with several
    processes on one database a game never waits on a dead one for longer than ``idle``."""
    assert hub.club is not None
    games = hub.club.games
    await watch(
        partial(games.games_waiting_for_bots, idle),
        hub.kick_bots,
        interval,
        "the watch for stalled computer turns",
    )


def _hub(request_or_ws) -> Hub:
    return request_or_ws.app.state.club.hub


# --- JSON API -------------------------------------------------------------------------------------
@router.get("/api/games/{pk:id}")
def api_game(pk: int, request: Request) -> JSONResponse:
    from .club import current_user

    return JSONResponse(_hub(request).view(pk, current_user(request)))


async def _json_body(request: Request) -> dict[str, Any]:
    return json_object(await request.body(), "The request body")


@router.post("/api/games/{pk:id}/move")
async def api_move(pk: int, request: Request) -> JSONResponse:
    from .club import check_csrf, require_user

    data = await _json_body(request)
    user = await anyio.to_thread.run_sync(require_user, request)
    check_csrf(request, request.headers.get("x-csrf-token"))
    ply = seen_ply(data, required=True)
    games = request.app.state.club.games
    hub = _hub(request)
    new_ply = await hub.play(lambda: games.submit(pk, user, data.get("move"), expected_ply=ply))
    await hub.publish(pk)
    hub.kick_bots(pk)
    return JSONResponse({"ok": True, "ply": new_ply})


@router.post("/api/games/{pk:id}/resign")
async def api_resign(pk: int, request: Request) -> JSONResponse:
    from .club import check_csrf, require_user

    data = await _json_body(request) if await request.body() else {}
    user = await anyio.to_thread.run_sync(require_user, request)
    check_csrf(request, request.headers.get("x-csrf-token"))
    ply = seen_ply(data, required=False)
    games = request.app.state.club.games
    await anyio.to_thread.run_sync(lambda: games.resign(pk, user, expected_ply=ply))
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


MISSING_PLY = (
    "A move must say which position it answers: send 'ply', the move number of the position "
    "you saw (the 'ply' of the game's view). Reload the page if it does not."
)


def seen_ply(data: dict[str, Any], *, required: bool) -> int | None:
    """The ply of the position the client saw when it chose its move (or resignation).

    A move is only accepted at that ply, so a move sent twice, or chosen on a board that has
    changed since, is refused instead of being played on a position its sender never saw: in
    Hexagone the same player often moves several times in a row, and two moves without a
    ply, sent at once, were both accepted."""
    ply = data.get("ply")
    if ply is None:
        if required:
            raise ClubError(MISSING_PLY)
        return None
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise ClubError("'ply' must be a whole number, the move number of the position you saw.")
    return ply


def validate_message(raw: str | None) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise ClubError("A message must be a JSON object sent as text.")
    if len(raw) > MAX_WS_MESSAGE:
        raise ClubError("Message too long.")
    data = json_object(raw, "A message")
    kind = data.get("type")
    if kind not in {"move", "resign", "ping", "refresh"}:
        raise ClubError(f"Unknown message type {kind!r}.")
    if kind in {"move", "resign"} and not isinstance(data.get("csrf"), str):
        raise ClubError("The message has no security (CSRF) token; reload the page.")
    if kind == "move":
        if not isinstance(data.get("move"), str):
            raise ClubError("A move message needs 'move', the move in notation.")
        seen_ply(data, required=True)
    if kind == "resign":
        seen_ply(data, required=False)
    return data


@router.websocket("/ws/games/{pk:id}")
async def game_socket(ws: WebSocket, pk: int) -> None:
    hub: Hub = ws.app.state.club.hub
    if not _origin_ok(ws):
        await ws.close(code=4403)
        return
    address = address_key(ws.client.host if ws.client is not None else None)
    if hub.sockets_per_address[address] >= WS_CONNECTIONS_PER_ADDRESS:
        await ws.accept()
        text = (
            f"Too many open game pages from your address (at most {WS_CONNECTIONS_PER_ADDRESS}"
            "); close some and reload this one."
        )
        await ws.send_json({"type": "error", "message": text})
        await ws.close(code=1008)
        return
    hub.sockets_per_address[address] += 1
    try:
        await _serve_socket(ws, pk)
    finally:
        hub.sockets_per_address[address] -= 1
        if hub.sockets_per_address[address] <= 0:
            del hub.sockets_per_address[address]


async def _serve_socket(ws: WebSocket, pk: int) -> None:
    club = ws.app.state.club
    hub: Hub = club.hub
    session = ws.cookies.get(SESSION_COOKIE)
    user = await anyio.to_thread.run_sync(club.accounts.session_user, session)
    base_token = session if user is not None else ws.cookies.get(ANON_COOKIE)
    await ws.accept()
    try:
        view = await hub.play(hub.view, pk, user)
    except ClubError as exc:
        await ws.send_json({"type": "error", "message": exc.message})
        await ws.close(code=4403 if exc.status == 403 else 4404)
        return
    except Exception:
        log.exception("game %s: the view for a new connection failed", pk)
        await ws.send_json({"type": "error", "message": SORRY})
        await ws.close(code=1011)
        return
    entry = (ws, user)
    hub.connections[pk].add(entry)
    rate = MessageRate()
    try:
        await ws.send_json(view)
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                text = f"Too many messages: at most {WS_MESSAGES_PER_SECOND} a second."
                await ws.send_json({"type": "error", "message": text})
                await ws.close(code=1008)
                break
            try:
                data = validate_message(message.get("text"))
                kind = data["type"]
                if kind == "ping":
                    await ws.send_json({"type": "pong"})
                    continue
                if kind == "refresh":
                    await ws.send_json(await hub.play(hub.view, pk, user))
                    continue
                if user is None:
                    raise ClubError("Please log in to play.", 401)
                if not club.accounts.csrf_ok(base_token, data.get("csrf")):
                    raise ClubError(
                        "The security (CSRF) token is wrong or out of date; reload the page.", 403
                    )
                if kind == "move":
                    await hub.play(
                        lambda d=data: club.games.submit(
                            pk, user, d["move"], expected_ply=d.get("ply")
                        )
                    )
                else:
                    await anyio.to_thread.run_sync(
                        lambda d=data: club.games.resign(pk, user, expected_ply=d.get("ply"))
                    )
            except ClubError as exc:
                await ws.send_json({"type": "error", "message": exc.message})
                if exc.changed:  # refused, but the game ended on time
                    await hub.publish(pk)
                continue
            except WebSocketDisconnect:
                raise
            except Exception:
                log.exception("game %s: a websocket message failed", pk)
                await ws.send_json({"type": "error", "message": SORRY})
                continue
            await hub.publish(pk)
            hub.kick_bots(pk)
    except WebSocketDisconnect:
        pass
    finally:
        hub.connections[pk].discard(entry)
        if not hub.connections[pk]:
            hub.connections.pop(pk, None)
