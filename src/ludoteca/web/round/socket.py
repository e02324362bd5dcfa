"""Live play: the websocket per game, the JSON API, and the hub that tells every watcher.

The hub keeps the connections of this process by game. After a change is committed it sends
each connection a fresh view (the player to move also gets the legal moves). With PostgreSQL
several processes are one club: the committing transaction itself notifies the others
(:mod:`ludoteca.web.infra.fanout`), whose listeners call :meth:`Hub.deliver` for the games they
have watchers of. :meth:`Hub.publish` tells this process's own watchers at once, without
waiting for the round trip, and the listener skips this process's own notifications, so
each watcher is told once. Only the process that accepted a move starts the computer's
answer (:meth:`Hub.kick_bots`); a listener only delivers.

Delivery never waits on a client: each connection has an outbox and a writer of its own
(:mod:`ludoteca.web.infra.outbox`), and the hub only puts views in outboxes, so one client that
stops reading cannot hold up a move, the other watchers or the clock sweep; it is dropped
instead, and its page reconnects.

Every websocket message is validated: a JSON object of at most a few kilobytes with a known
``type``, the right field types, and the page's CSRF token; a connection sending more than
``WS_MESSAGES_PER_SECOND`` messages a second is told so and closed, and one address may
hold at most ``WS_CONNECTIONS_PER_ADDRESS`` connections to a process at once. A refresh
reads the game again, so refreshes are limited further, per connection and per address.
A move or resignation is only taken while the session the socket was opened with is still
open; a session that ends (log-out, expiry) closes its sockets.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response

from ludoteca.core.messages import N_, Text
from ludoteca.web.accounts.service import ANON_COOKIE, SESSION_COOKIE, hash_token
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.catalogs import language as language_of
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.fanout import Listener, is_postgres, libpq_url, new_origin
from ludoteca.web.infra.inputs import json_object
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.periodic import watch
from ludoteca.web.infra.store import GameRow, User
from ludoteca.web.infra.throttle import address_key
from ludoteca.web.ops.logs import bind_user
from ludoteca.web.ratings.service import read_seat_ratings
from ludoteca.web.requests import SignedIn, Visitor, check_csrf, language, require_user
from ludoteca.web.round.access import check_may_watch, is_to_move
from ludoteca.web.round.botqueue import FairQueue
from ludoteca.web.round.errors import SESSION_ENDED, ClubError, SessionEnded, socket_refusal
from ludoteca.web.round.seats import choose_move
from ludoteca.web.round.view import (
    completions,
    joined,
    localized,
    personal_view,
    shared_text,
)

if TYPE_CHECKING:
    from ludoteca.web.club import Club

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
FLOOD_PAUSE_SECONDS = 10.0
"""An address closed for sending too many messages twice within :data:`FLOOD_MEMORY_SECONDS`
may not open another game connection for this long. A script that reconnects and floods
again at once costs the server a handshake and the parsing of a burst of frames each time
(measured with ``bench/abuse.py``: two such clients took honest players' median move from
36 ms to 135 ms); refused before the handshake completes, it costs next to nothing. One
runaway page is only closed: its address is paused the second time."""
FLOOD_MEMORY_SECONDS = 60.0
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
REFRESHES_PER_CONNECTION = (2, 2.0)
"""At most this many refreshes (``{"type": "refresh"}``) in this many seconds on one
connection. The page never needs one (every change is pushed, and a reconnection brings a
fresh view); each costs a read of the game in play's own threads, so a client asking many
times a second only takes time from the moves of others."""
REFRESHES_PER_ADDRESS = (10, 1.0)
"""At most this many refreshes in this many seconds from one address, over all its
connections: 50 sockets each refreshing within its own limit would still be 50 reads a
second. Without these limits, 50 sockets asking 19 times a second had slowed moves in other
games from 0.05 s to 0.38 s."""
REFRESHES_REFUSED_BEFORE_CLOSE = 10
"""A connection that goes on asking after this many refused refreshes in a row (none granted
between them) is closed as flooding (see :meth:`Hub.flooded`): each refusal still costs the
server a message and an answer. Refusals now and then over a long game, with refreshes
granted between them, are a page's retries, not a flood, and never add up to a close."""
SESSION_CHECK_SECONDS = 15.0
"""How often each process checks that the sessions its sockets were opened with are still
open: a log-out on another process, or a session that expired, closes them within this."""
SESSION_CLOSED = 4401
"""Close code of a socket whose session ended: the page reconnects as a visitor."""
ViewKey = tuple[int | None, str, bool]
"""What a watcher's view depends on besides the game: user id, language, compact form."""
T = TypeVar("T")

SORRY = N_("Something went wrong on the server; sorry. Reload the page to go on.")
TOO_MANY_MESSAGES = Text(
    "Too many messages: at most {count} a second.", {"count": WS_MESSAGES_PER_SECOND}
)
TOO_MANY_REFRESHES = N_(
    "Too many refreshes: the board is sent by itself after every change; wait a moment."
)


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
        self.connections: dict[int, set[Connection]] = defaultdict(set)
        self.bot_tasks: dict[int, asyncio.Task] = {}
        self.club: Club | None = None
        self.origin = new_origin()
        self.listener: Listener | None = None
        self._queued: set[int] = set()
        self._news: dict[int, list[str | None]] = {}
        """What other processes' changes to a game said they changed, heard and not yet
        shown (None: a change to read from the database), in the order they committed."""
        self._turns: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._background: set[asyncio.Task] = set()
        self.sockets_per_address: dict[str, int] = defaultdict(int)
        self.refreshes_per_address: dict[str, MessageRate] = {}
        self.last_flood: dict[str, float] = {}
        self.paused_addresses: dict[str, float] = {}
        """Addresses that flooded again, with when they may connect again (monotonic)."""
        self._play_pool: ThreadPoolExecutor | None = None
        self.bot_queue = FairQueue()
        """Computer turns wait here for a worker, in their game creator's line."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self.message_handlers: dict[str, MessageHandler] = {}
        """Other features' messages on a game socket (``chat``), by type: each validated by
        its own function and answered by its own coroutine, after the CSRF check."""
        self.event_handlers: dict[str, Callable[[int], Awaitable[None]]] = {}
        """What to do when another feature's row is committed (:func:`events_on_commit`),
        by kind: ``chat`` lines, ``note`` (notifications)."""

    def on_message(
        self,
        kind: str,
        validate: Callable[[dict[str, Any]], None],
        handle: Callable[[Hub, Connection, dict[str, Any]], Awaitable[None]],
    ) -> None:
        self.message_handlers[kind] = MessageHandler(validate, handle)

    def local_event(self, kind: str, ident: int) -> None:
        """A row of ``kind`` was committed in this process (called from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed() or kind not in self.event_handlers:
            return
        with suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._event, kind, ident)

    def _event(self, kind: str, ident: int) -> None:
        handler = self.event_handlers.get(kind)
        if handler is not None:
            self._spawn(self._guarded(kind, ident, handler))

    @staticmethod
    async def _guarded(kind: str, ident: int, handler) -> None:
        try:
            await handler(ident)
        except Exception:
            log.exception("delivering %s %s failed", kind, ident)

    async def play(self, fn, *args):
        """Run ``fn(*args)`` (moves and views: the database work of play) in a worker thread
        of play's own small pool. See :data:`PLAY_THREADS`.

        A plain executor, not anyio's threads: their limiter, cancel scopes and clock cost
        the event loop, which every game of the process shares, as much again as handing
        the call over. As with anyio's, a caller cancelled meanwhile waits for the call to
        finish (a move under way is never left half told) and is cancelled after."""
        if self._play_pool is None:
            self._play_pool = ThreadPoolExecutor(PLAY_THREADS, thread_name_prefix="play")
        running = asyncio.wrap_future(self._play_pool.submit(fn, *args))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            with suppress(Exception):
                await running
            raise

    def view(
        self,
        pk: int,
        user: User | None,
        lang: str = "en",
        compact: bool = False,
        *,
        after_own_change: bool = False,
    ) -> str:
        """The game as ``user`` sees it now, in language ``lang`` (its legal moves in the
        compact form if asked), as JSON text; :class:`ClubError` if they may not see it.
        ``after_own_change`` as for :meth:`encoded_views`."""
        assert self.club is not None
        row, state, moves = self.club.games.snapshot(pk, after_own_change=after_own_change)
        words = language_of(lang)
        personal = personal_view(row, state, user, words, compact)
        return joined(self._shared(row, state, moves, words), personal, words)

    def _shared(self, row: GameRow, state, moves, words: Language) -> str:
        """The encoded part of a view every watcher reading ``words``'s language shares, with
        the players' line when the game is not being played."""
        shared = shared_text(row, state, moves, words)
        line = self.players_line(row)
        return joined(shared, {"players_line": line}) if line is not None else shared

    def players_line(self, row: GameRow) -> dict[str, Any] | None:
        """The game page's line of players with their ratings, sent with the views of a game
        that is not being played (waiting for players, or over): the page then shows who
        joined, and the ratings a rated game has just changed, without a reload. During
        play it cannot change, and is left out so that a move costs no extra read."""
        if row.status == "active":
            return None
        assert self.club is not None
        return {"rated": bool(row.rated), "players": read_seat_ratings(self.club.store, row)}

    def encoded_views(
        self,
        pk: int,
        users: dict[ViewKey, User | None],
        *,
        after_own_change: bool = False,
        news: list[str | None] | None = None,
    ) -> dict[ViewKey, str]:
        """Each watcher's view of ``pk`` as JSON text, by user id, language and form, all from
        one read of the game: one database session per change, however many watch it, and
        the board drawn and encoded once per language
        (:func:`~ludoteca.web.round.view.shared_text`). ``after_own_change``: right after a
        move this process committed, which leaves the game as it must be shown
        (:meth:`~ludoteca.web.round.service.GameService.snapshot`); ``news``: what other
        processes said their changes since the last views were (:meth:`_heard`)."""
        assert self.club is not None
        row, state, moves = self.club.games.snapshot(
            pk, after_own_change=after_own_change, news=news
        )
        shared: dict[str, str] = {}
        out: dict[ViewKey, str] = {}
        for key, user in users.items():
            lang, compact = key[1], key[2]
            words = language_of(lang)
            if lang not in shared:
                shared[lang] = self._shared(row, state, moves, words)
            try:
                personal = personal_view(row, state, user, words, compact)
                out[key] = joined(shared[lang], personal, words)
            except ClubError as exc:
                out[key] = socket_refusal(exc.message, lang)
        return out

    # --- telling watchers ---------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for changes made by other processes (PostgreSQL only), and watch that the
        sessions of open sockets stay open."""
        assert self.club is not None
        self._loop = asyncio.get_running_loop()
        self._spawn(self._watch_sessions())
        store = self.club.store
        if not is_postgres(store):
            return
        self.listener = Listener(
            libpq_url(store), self.origin, self._heard, self._resync, self._event
        )
        self.listener.start()
        if not await self.listener.wait_connected(10):
            log.warning("not yet listening for game changes; retrying in the background")

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()
        for task in list(self._background):
            task.cancel()
        if self._play_pool is not None:
            self._play_pool.shutdown(wait=False)
            self._play_pool = None

    async def publish(self, pk: int) -> None:
        """Tell this process's watchers of ``pk`` after a change this process committed
        (the commit itself has told the other processes)."""
        await self.deliver(pk)

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _heard(self, pk: int, news: str | None = None) -> None:
        """Another process changed ``pk``; ``news`` says what, if its moves did (see
        :mod:`~ludoteca.web.round.move_news`). Only a game watched here needs anything."""
        if self.connections.get(pk):
            self._news.setdefault(pk, []).append(news)
            self._spawn(self.deliver(pk))

    def _resync(self) -> None:
        for pk in [pk for pk, conns in self.connections.items() if conns]:
            self._heard(pk)

    @asynccontextmanager
    async def _turn(self, pk: int) -> AsyncIterator[None]:
        """One at a time per game: reading the game and queueing what was read, so every
        connection gets the views of a game in the order they were read. Nothing in a turn
        waits on a client: sending is the outboxes' business."""
        entry = self._turns.get(pk)
        if entry is None:
            entry = self._turns[pk] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._turns[pk]

    async def deliver(self, pk: int) -> None:
        """Queue for every watcher of ``pk`` in this process the game as stored now.

        Deliveries for one game run one at a time, so no watcher gets an older view after a
        newer one; a delivery that would wait behind another already waiting is dropped,
        since the waiting one reads the database after this change anyway. It waits for the
        read of the game, never for a client. A failure to tell is logged, never raised: the
        change it reports is already committed."""
        if not self.connections.get(pk):
            self._news.pop(pk, None)  # nobody here to show it to
            return
        if pk in self._queued:
            return
        self._queued.add(pk)
        try:
            async with self._turn(pk):
                self._queued.discard(pk)
                await self._queue_views(pk)
        except Exception:
            log.exception("game %s: telling its watchers failed", pk)
        finally:
            self._queued.discard(pk)

    async def change_and_deliver(self, pk: int, change: Callable[[], T]) -> T:
        """Run ``change`` (a move or resignation in ``pk``, in play's threads) and queue every
        watcher of ``pk`` in this process the game after it, all in one trip to the threads
        and one read of the game: what :meth:`publish` after the change would do, without a
        second hand-over and a second read per move. In the game's turn, so the views go
        out in the order of the changes. Returns what ``change`` returns; whatever it raises
        is raised here, and nobody is told of a change that was refused. If the views fail
        after the change, the watchers are told as :meth:`publish` would tell them."""
        views_failed = False
        async with self._turn(pk):
            conns, users = self._watchers(pk)

            def change_then_views() -> tuple[T, dict[ViewKey, str] | None]:
                nonlocal views_failed
                out = change()
                if not users:
                    return out, None
                try:
                    return out, self.encoded_views(pk, users, after_own_change=True)
                except Exception:
                    log.exception("game %s: the views after a change failed", pk)
                    views_failed = True
                    return out, None

            out, texts = await self.play(change_then_views)
            if texts is not None:
                self._send_views(conns, texts)
        if views_failed:
            await self.deliver(pk)
        return out

    async def _queue_views(self, pk: int) -> None:
        news = self._news.pop(pk, None)  # all heard so far: this read covers them
        conns, users = self._watchers(pk)
        if not conns:
            return
        try:
            texts = await self.play(lambda: self.encoded_views(pk, users, news=news))
        except ClubError as exc:
            texts = {key: socket_refusal(exc.message, key[1]) for key in users}
        self._send_views(conns, texts)

    def _watchers(self, pk: int) -> tuple[list[Connection], dict[ViewKey, User | None]]:
        """This process's connections to ``pk`` now, and who each view is for: one view
        per key, however many connections share it."""
        conns = list(self.connections.get(pk, ()))
        return conns, {conn.view_key: conn.user for conn in conns}

    @staticmethod
    def _send_views(conns: list[Connection], texts: dict[ViewKey, str]) -> None:
        for conn in conns:
            conn.send_state(texts[conn.view_key])

    async def join(self, conn: Connection) -> None:
        """Start watching: the connection gets the game as stored now, then every change
        after it (no change can fall between the two). Raises :class:`ClubError` when the
        game is not there or not for this viewer."""
        async with self._turn(conn.pk):
            text = await self.play(self.view, conn.pk, conn.user, conn.lang, conn.compact)
            self.connections[conn.pk].add(conn)
            conn.send_state(text)

    def leave(self, conn: Connection) -> None:
        conns = self.connections.get(conn.pk)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                self.connections.pop(conn.pk, None)

    def flooded(self, address: str) -> None:
        """A connection from ``address`` was closed for flooding: the second time within
        :data:`FLOOD_MEMORY_SECONDS`, refuse its new connections for a while."""
        now = time.monotonic()
        if len(self.last_flood) > 10_000:
            for key, at in list(self.last_flood.items()):
                if now - at > FLOOD_MEMORY_SECONDS:
                    del self.last_flood[key]
            for key, until in list(self.paused_addresses.items()):
                if until <= now:
                    del self.paused_addresses[key]
        last = self.last_flood.get(address)
        self.last_flood[address] = now
        if last is not None and now - last < FLOOD_MEMORY_SECONDS:
            self.paused_addresses[address] = now + FLOOD_PAUSE_SECONDS

    def paused(self, address: str) -> bool:
        until = self.paused_addresses.get(address)
        if until is None:
            return False
        if until <= time.monotonic():
            del self.paused_addresses[address]
            return False
        return True

    def refresh_allowed(self, address: str) -> bool:
        """Whether one more refresh from ``address`` is within :data:`REFRESHES_PER_ADDRESS`."""
        rate = self.refreshes_per_address.get(address)
        if rate is None:
            rate = self.refreshes_per_address[address] = MessageRate(*REFRESHES_PER_ADDRESS)
        return rate.allow()

    async def refresh(self, conn: Connection) -> None:
        """Send one connection the game as stored now (in turn with the deliveries)."""
        async with self._turn(conn.pk):
            try:
                key = conn.view_key
                text = (await self.play(self.encoded_views, conn.pk, {key: conn.user}))[key]
            except ClubError as exc:
                text = socket_refusal(exc.message, conn.lang)
            conn.send_state(text)

    # --- sessions that end --------------------------------------------------------------------
    def end_sessions(self, hashes: set[str]) -> None:
        """Close every socket of this process opened with one of these sessions (by the
        hashes of their tokens): the person behind it logged out, or the session expired."""
        for conns in list(self.connections.values()):
            for conn in list(conns):
                if conn.session is not None and conn.session in hashes:
                    conn.send_reply(socket_refusal(SESSION_ENDED, conn.lang))
                    conn.close(SESSION_CLOSED)
        inbox = getattr(self.club, "inbox", None)
        if inbox is not None:
            inbox.session_ended(hashes)

    def session_closed(self, token_hash: str) -> None:
        """:class:`~ludoteca.web.accounts.service.Accounts` calls this, from any thread, when it
        closes a session (log-out)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self.end_sessions, {token_hash})

    async def check_sessions(self) -> None:
        """Close the sockets whose sessions are no longer open (ended in another process,
        or expired)."""
        assert self.club is not None
        hashes = {
            conn.session
            for conns in self.connections.values()
            for conn in conns
            if conn.session is not None
        }
        if not hashes:
            return
        still_open = await anyio.to_thread.run_sync(self.club.accounts.open_sessions, hashes)
        ended = hashes - still_open
        if ended:
            self.end_sessions(ended)

    async def _watch_sessions(self) -> None:
        while True:
            await asyncio.sleep(SESSION_CHECK_SECONDS)
            try:
                await self.check_sessions()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking the sessions of open sockets failed; trying again")

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
                    thinking = time.perf_counter()
                    text = await loop.run_in_executor(club.bot_pool, choose_move, job)
                    if club.metrics is not None:
                        club.metrics.think_seconds.observe(time.perf_counter() - thinking)
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
def api_game(pk: int, request: Request, user: Visitor) -> Response:
    compact = request.query_params.get("compact") == "1"
    text = _hub(request).view(pk, user, language(request).code, compact)
    return Response(text, media_type="application/json")


@router.get("/api/games/{pk:id}/moves")
def api_moves_with_cell(pk: int, request: Request, user: Visitor) -> JSONResponse:
    """The legal moves naming a cell (``?cell=e5``), whole, for the player to move: what a
    page sent the compact form asks once that cell is clicked."""
    cell = request.query_params.get("cell", "")
    if not 0 < len(cell) <= 32:
        raise ClubError("Name the cell: ?cell=…")
    hub = _hub(request)
    row, state, _ = hub.club.games.snapshot(pk)
    check_may_watch(row, user)
    if not is_to_move(row, state, user):
        raise ClubError("It is not your turn.", 409)
    moves = localized(completions(state, cell), language(request))
    return JSONResponse({"ply": row.ply, "cell": cell, "moves": moves})


async def _json_body(request: Request) -> dict[str, Any]:
    return json_object(await request.body())


@router.post("/api/games/{pk:id}/move")
async def api_move(pk: int, request: Request) -> Response:
    """Play a move. The answer is ``{"ok": true, "ply": N}``; with ``?view=1`` it also holds
    the mover's new view (``?compact=1`` as for ``GET /api/games/PK``), so that a page
    without a socket shows the board after its move without asking again. The watchers'
    views are made in the same trip to play's threads (:meth:`Hub.change_and_deliver`)."""
    if not request.cookies.get(SESSION_COOKIE):
        raise ClubError("Please log in first.", 401)
    data = await _json_body(request)
    games = request.app.state.club.games
    hub = _hub(request)
    want_view = request.query_params.get("view") == "1"
    compact = request.query_params.get("compact") == "1"

    def move_then_view() -> tuple[int, str | None]:
        # One trip to play's threads, not three: whose session it is (a read), the move and
        # the view. A signed-in dependency would make its read in a thread of its own first.
        user = require_user(request)
        check_csrf(request, request.headers.get("x-csrf-token"))
        ply = seen_ply(data, required=True)
        new_ply = games.submit(pk, user, data.get("move"), expected_ply=ply)
        lang = language(request).code
        if not want_view:
            return new_ply, None
        return new_ply, hub.view(pk, user, lang, compact, after_own_change=True)

    new_ply, text = await hub.change_and_deliver(pk, move_then_view)
    hub.kick_bots(pk)
    if text is None:
        return JSONResponse({"ok": True, "ply": new_ply})
    return Response(f'{{"ok":true,"ply":{new_ply},"view":{text}}}', media_type="application/json")


@router.post("/api/games/{pk:id}/resign")
async def api_resign(pk: int, request: Request, user: SignedIn) -> JSONResponse:
    data = await _json_body(request) if await request.body() else {}
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


MISSING_PLY = N_(
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


@dataclass(frozen=True)
class MessageHandler:
    validate: Callable[[dict[str, Any]], None]
    handle: Callable[[Hub, Connection, dict[str, Any]], Awaitable[None]]


def validate_message(
    raw: str | None, extra: dict[str, MessageHandler] | None = None
) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise ClubError("A message must be a JSON object sent as text.")
    if len(raw) > MAX_WS_MESSAGE:
        raise ClubError("Message too long.")
    data = json_object(raw, N_("A message"))
    kind = data.get("type")
    extra = extra or {}
    if not isinstance(kind, str) or kind not in {"move", "resign", "ping", "refresh", *extra}:
        raise ClubError("Unknown message type {kind!r}.", kind=kind)
    if kind in extra:
        if not isinstance(data.get("csrf"), str):
            raise ClubError("The message has no security (CSRF) token; reload the page.")
        extra[kind].validate(data)
        return data
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
    if hub.paused(address):  # it flooded a moment ago: not even a handshake
        await ws.close(code=1008)
        return
    if hub.sockets_per_address[address] >= WS_CONNECTIONS_PER_ADDRESS:
        await ws.accept()
        text = Text(
            "Too many open game pages from your address (at most {count}); close some and "
            "reload this one.",
            {"count": WS_CONNECTIONS_PER_ADDRESS},
        )
        await ws.send_text(socket_refusal(text, choose(ws, None)))
        await ws.close(code=1008)
        return
    hub.sockets_per_address[address] += 1
    try:
        await _serve_socket(ws, pk, address)
    finally:
        hub.sockets_per_address[address] -= 1
        if hub.sockets_per_address[address] <= 0:
            del hub.sockets_per_address[address]
            hub.refreshes_per_address.pop(address, None)


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
                ws.app.state.club.hub.flooded(conn.address)
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
            if not refreshes.allow() or not hub.refresh_allowed(conn.address):
                conn.refused_refreshes += 1
                if conn.refused_refreshes >= REFRESHES_REFUSED_BEFORE_CLOSE:
                    conn.send_reply(socket_refusal(TOO_MANY_REFRESHES, conn.lang))
                    conn.close(1008)
                    hub.flooded(conn.address)
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
            # the same statement (see GameService.submit).
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
