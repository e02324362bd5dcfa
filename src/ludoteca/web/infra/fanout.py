"""Telling every server process that a game changed, through PostgreSQL LISTEN/NOTIFY.

Several ``ludoteca serve`` processes on one PostgreSQL database are one club: a move accepted
by one process must reach the players and spectators connected to the others. Two halves:

- :func:`notify_on_commit` makes every transaction that touches a game (its row, its seats
  or its moves) send ``NOTIFY ludoteca_games, '<game id> <origin>'`` from inside that same
  transaction (a move's claim sends its own, through :func:`notice`, with what it changed:
  :mod:`~ludoteca.web.round.move_news`).
  PostgreSQL delivers a notification only when its transaction commits, and never when it
  rolls back, so a refused move tells nobody and an accepted one cannot be
  committed without the others hearing of it — even if the process dies right after the
  commit, before it has told its own watchers.
- :class:`Listener` holds one connection per process that ``LISTEN``\\ s on the channel and
  hands each game id to a callback (the hub's ``deliver``). It reconnects with backoff when
  the connection drops, and after reconnecting it reports every game with watchers, since
  notifications sent while it was away are lost.

``origin`` is a random token per process: the process that made a change tells its own
watchers at once (no round trip through the database), so it skips its own notifications.
SQLite is one process by nature and uses neither half.

Besides games, other features announce their own rows the same way (a chat line, a
notification): :func:`register_event` names how to recognise one, :func:`events_on_commit`
tells this process's handler after each commit (on every database) and the other processes
through ``NOTIFY`` with a ``'<kind>:<id> <origin>'`` payload (PostgreSQL only).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import weakref
from collections.abc import Callable, Iterable

from sqlalchemy import bindparam, event, func, text
from sqlalchemy.engine import make_url

from ludoteca.web.infra.store import GameRow, MoveRow, Seat, Store

log = logging.getLogger("ludoteca.web")
CHANNEL = "ludoteca_games"
APPLICATION_NAME = "ludoteca-listener"
"""How the listening connection names itself to PostgreSQL (``pg_stat_activity``)."""
PING_SECONDS = 20.0
"""How long the listener waits for a notification before checking its connection is alive
(a connection that silently vanished would otherwise wait for ever)."""
BACKOFF = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
"""Seconds between reconnection attempts, the last repeated until the database is back."""


def new_origin() -> str:
    return secrets.token_hex(6)


def is_postgres(store: Store) -> bool:
    return store.engine.dialect.name == "postgresql"


def changed_games(objects: Iterable[object]) -> set[int]:
    """The ids of the games that a flush of ``objects`` changes."""
    ids: set[int] = set()
    for obj in objects:
        if isinstance(obj, GameRow):
            pk = obj.id
        elif isinstance(obj, (MoveRow, Seat)):
            pk = obj.game_id
        else:
            continue
        if isinstance(pk, int):
            ids.add(pk)
    return ids


WRITTEN_KEY = "ludoteca_games_written"
"""``session.info`` key: the games a session changed with Core statements, which no flush
sees (:func:`games_written`)."""


NOTIFIED_KEY = "ludoteca_games_notified"
"""``session.info`` key: the games whose notification this transaction has already queued."""
NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def games_written(session, pk: int) -> None:
    """Say that ``session`` changed game ``pk`` with Core statements, which no flush sees: its
    commit must notify the other processes as a flush of the rows would. (A move's claim
    notifies by itself: :func:`notice`.)"""
    session.info.setdefault(WRITTEN_KEY, set()).add(pk)


def payload(pk: int, origin: str, news: str | None = None) -> str:
    """A game's notification: ``'<game id> <origin>[ <news>]'`` (read by :func:`parse_payload`)."""
    return f"{pk} {origin}" if news is None else f"{pk} {origin} {news}"


_ORIGINS: weakref.WeakKeyDictionary[Store, str] = weakref.WeakKeyDictionary()
"""The origin each store's sessions notify with (:func:`notify_on_commit`). Keyed by the store
itself, weakly: an ``id`` could be taken again by a later store that does not notify."""


def notice(store: Store, session, pk: int, news: str | None):
    """The ``pg_notify`` call for a move's claim to return (``UPDATE … RETURNING``), or None
    if ``store`` does not notify: the claim's statement then tells the other processes,
    rather than one more statement before the commit (the notification is sent only if the
    transaction commits, as for any other). Marks ``pk`` told, so the commit does not tell
    again."""
    origin = _ORIGINS.get(store)
    if origin is None:
        return None
    session.info.setdefault(NOTIFIED_KEY, set()).add(pk)
    return func.pg_notify(CHANNEL, bindparam("payload", payload(pk, origin, news)))


def notify_on_commit(store: Store, origin: str) -> None:
    """Make every session of ``store`` that writes a game notify the other processes when
    (and only if) it commits. A no-op on anything but PostgreSQL."""
    if not is_postgres(store):
        return
    _ORIGINS[store] = origin

    def send(session, ids: Iterable[int]) -> None:
        # Sent when the transaction commits. PostgreSQL merges identical ones, but each costs
        # a statement: a move's claim notifies by itself and the commit's flush names its
        # game again (a game's end changes its row), so each game is named once a
        # transaction.
        sent = session.info.setdefault(NOTIFIED_KEY, set())
        fresh = sorted(set(ids) - sent)
        if not fresh:
            return
        connection = session.connection()
        for pk in fresh:
            connection.execute(NOTIFY, {"channel": CHANNEL, "payload": payload(pk, origin)})
        sent.update(fresh)

    @event.listens_for(store.session, "after_flush")
    def _queue_notifications(session, _context) -> None:
        ids = changed_games([*session.new, *session.dirty, *session.deleted])
        if ids:
            send(session, ids)

    @event.listens_for(store.session, "before_commit")
    def _queue_core_writes(session) -> None:
        ids = session.info.pop(WRITTEN_KEY, None)
        if ids:
            send(session, ids)

    @event.listens_for(store.session, "after_rollback")
    def _forget_core_writes(session) -> None:
        session.info.pop(WRITTEN_KEY, None)
        session.info.pop(NOTIFIED_KEY, None)

    @event.listens_for(store.session, "after_commit")
    def _forget_notified(session) -> None:
        session.info.pop(NOTIFIED_KEY, None)


EventOf = Callable[[object], tuple[str, int] | None]
"""Recognises a flushed row as an event: ``(kind, id)``, or None."""
_EVENT_KINDS: list[EventOf] = []


def register_event(recognise: EventOf) -> None:
    """Announce rows ``recognise`` names, once they are committed (see the module text)."""
    if recognise not in _EVENT_KINDS:
        _EVENT_KINDS.append(recognise)


def flushed_events(objects: Iterable[object]) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for obj in objects:
        for recognise in _EVENT_KINDS:
            event_ = recognise(obj)
            if event_ is not None and event_ not in found:
                found.append(event_)
    return found


EVENTS_KEY = "ludoteca_events"


def events_on_commit(store: Store, origin: str, local: Callable[[str, int], None]) -> None:
    """After each commit of a session of ``store`` that added rows named by
    :func:`register_event`, call ``local(kind, id)`` for each; with PostgreSQL the same
    transaction also notifies the other processes. A rollback tells nobody."""
    postgres = is_postgres(store)

    @event.listens_for(store.session, "after_flush")
    def _collect(session, _context) -> None:
        found = flushed_events(session.new)
        if not found:
            return
        session.info.setdefault(EVENTS_KEY, []).extend(found)
        if postgres:
            connection = session.connection()
            for kind, ident in found:
                connection.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": f"{kind}:{ident} {origin}"},
                )

    @event.listens_for(store.session, "after_commit")
    def _tell(session) -> None:
        for kind, ident in session.info.pop(EVENTS_KEY, ()):
            try:
                local(kind, ident)
            except Exception:  # a committed change is never undone by its telling
                log.exception("telling of %s %s failed", kind, ident)

    @event.listens_for(store.session, "after_rollback")
    def _forget(session) -> None:
        session.info.pop(EVENTS_KEY, None)


def parse_payload(payload: str) -> tuple[int, str, str | None] | None:
    """``'<game id> <origin>[ <news>]'`` as ``(game id, origin, news or None)``, or None."""
    parts = payload.split(" ", 2)
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1]:
        return None
    return int(parts[0]), parts[1], parts[2] if len(parts) == 3 else None


def parse_event(payload: str) -> tuple[str, int, str] | None:
    """``'<kind>:<id> <origin>'`` as ``(kind, id, origin)``, or None."""
    parts = payload.split()
    if len(parts) != 2 or ":" not in parts[0]:
        return None
    kind, _, ident = parts[0].partition(":")
    if not kind or not ident.isdigit():
        return None
    return kind, int(ident), parts[1]


def libpq_url(store: Store) -> str:
    """The store's SQLAlchemy URL as a plain ``postgresql://`` URL for psycopg."""
    url = make_url(store.url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Listener:
    """One ``LISTEN`` connection per process; calls ``on_change(pk, news)`` for each game
    another process changed (``news``: what its moves changed, if the payload carries it),
    and ``on_gap()`` after (re)connecting, when notifications may have been missed."""

    def __init__(
        self,
        conninfo: str,
        origin: str,
        on_change: Callable[[int, str | None], None],
        on_gap: Callable[[], None],
        on_event: Callable[[str, int], None] | None = None,
    ) -> None:
        self.on_event = on_event
        self.conninfo = conninfo
        self.origin = origin
        self.on_change = on_change
        self.on_gap = on_gap
        self.connected = asyncio.Event()
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="ludoteca-listener")

    async def wait_connected(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.connected.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        import psycopg

        failures = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo,
                    autocommit=True,
                    connect_timeout=10,
                    application_name=APPLICATION_NAME,
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if failures:
                        log.warning("listening for game changes again")
                    failures = 0
                    self.connected.set()
                    self.on_gap()
                    await self._listen(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure means: reconnect
                self.connected.clear()
                delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                if failures == 1 or failures % 20 == 0:
                    log.warning(
                        "lost the game-change listener (%s); retrying in %.1f s",
                        type(exc).__name__,
                        delay,
                    )
                await asyncio.sleep(delay)

    async def _listen(self, conn) -> None:
        while True:
            heard = False
            async for note in conn.notifies(timeout=PING_SECONDS):
                heard = True
                parsed = parse_payload(note.payload)
                if parsed is not None and parsed[1] != self.origin:
                    self.on_change(parsed[0], parsed[2])
                    continue
                other = parse_event(note.payload)
                if other is not None and other[2] != self.origin and self.on_event is not None:
                    self.on_event(other[0], other[1])
            if not heard:
                await conn.execute("SELECT 1")  # raises if the connection is gone
