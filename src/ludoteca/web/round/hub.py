"""The hub that tells every watcher of a game in this process.

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

The hub is built from what it uses: the store, the games, the bot runner and play's
threads (:mod:`.bots`), and a way to ask which sessions are still open. The websocket
transport (:mod:`.socket`) and the JSON API (:mod:`.api`) hand it their connections and
changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import anyio

from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.catalogs import language as language_of
from ludoteca.web.infra.fanout import Listener, is_postgres, libpq_url, new_origin
from ludoteca.web.infra.outbox import Connection
from ludoteca.web.infra.store import GameRow, Store, User
from ludoteca.web.kernel.errors import SESSION_ENDED, ClubError, socket_refusal
from ludoteca.web.ratings.service import read_seat_ratings
from ludoteca.web.round.bots import BotRunner, PlayThreads
from ludoteca.web.round.flood import FloodControl
from ludoteca.web.round.messages import MessageHandler
from ludoteca.web.round.service import GameService
from ludoteca.web.round.view import joined, personal_view, shared_text

log = logging.getLogger("ludoteca.web")

SESSION_CHECK_SECONDS = 15.0
"""How often each process checks that the sessions its sockets were opened with are still
open: a log-out on another process, or a session that expired, closes them within this."""
SESSION_CLOSED = 4401
"""Close code of a socket whose session ended: the page reconnects as a visitor."""
ViewKey = tuple[int | None, str, bool]
"""What a watcher's view depends on besides the game: user id, language, compact form."""
T = TypeVar("T")


class Hub:
    def __init__(
        self,
        store: Store,
        games: GameService,
        bots: BotRunner,
        threads: PlayThreads,
        open_sessions: Callable[[set[str]], set[str]],
    ) -> None:
        self.store = store
        self.games = games
        self.bots = bots
        self.threads = threads
        self.open_sessions = open_sessions
        """Which of these session hashes are still open (:meth:`check_sessions`)."""
        self.on_sessions_ended: list[Callable[[set[str]], None]] = []
        """Told the sessions whose sockets this hub closed (the notification sockets)."""
        self.flood = FloodControl()
        self.connections: dict[int, set[Connection]] = defaultdict(set)
        self.origin = new_origin()
        self.listener: Listener | None = None
        self._queued: set[int] = set()
        self._news: dict[int, list[str | None]] = {}
        """What other processes' changes to a game said they changed, heard and not yet
        shown (None: a change to read from the database), in the order they committed."""
        self._turns: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._background: set[asyncio.Task] = set()
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
        """Run ``fn(*args)`` in play's threads (:meth:`PlayThreads.play`)."""
        return await self.threads.play(fn, *args)

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
        row, state, moves = self.games.snapshot(pk, after_own_change=after_own_change)
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
        return {"rated": bool(row.rated), "players": read_seat_ratings(self.store, row)}

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
        row, state, moves = self.games.snapshot(pk, after_own_change=after_own_change, news=news)
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
        self._loop = asyncio.get_running_loop()
        self._spawn(self._watch_sessions())
        store = self.store
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
        self.threads.stop()

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
        for tell in self.on_sessions_ended:
            tell(hashes)

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
        hashes = {
            conn.session
            for conns in self.connections.values()
            for conn in conns
            if conn.session is not None
        }
        if not hashes:
            return
        still_open = await anyio.to_thread.run_sync(self.open_sessions, hashes)
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
        """Start the computer's turns in ``pk`` if it has any; its watchers are told of each."""
        self.bots.kick(pk, self.change_and_deliver)
