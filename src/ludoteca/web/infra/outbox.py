"""One open game websocket and its outbox: delivery that never waits on the client.

Everything the club sends to a game's websocket (views after each change, answers to its own
messages, the final close) is put in the connection's outbox, which never blocks; one writer
task per connection takes the messages out and sends them. A client that stops reading
(a hostile script, a laptop put to sleep, a dead mobile link) can then only stall its own
writer: the hub's delivery to the other watchers, the move that caused it and the clock
sweep go on. Such a connection is dropped when one send is not taken within
:data:`SEND_SECONDS`, or when :data:`OUTBOX_MESSAGES` messages wait for it; the page
reconnects by itself and gets a fresh view.

A newer view of the game makes an older one still waiting in the outbox useless (each view
is the whole game), so it takes the older one's place: a slow but live client gets the
latest position instead of a backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass, field

from fastapi import WebSocket

from ludoteca.web.infra.store import User

log = logging.getLogger("ludoteca.web")

OUTBOX_MESSAGES = 32
"""Messages that may wait for one connection. Views replace each other, so only answers to
the client's own messages (at most 20 a second) pile up here: a client that sends but does
not read reaches the bound within two seconds and is dropped."""
SEND_SECONDS = 10.0
"""The longest one send may wait for the client's network to take it. A browser on a poor
link takes a whole view (at most some 50 KB) in well under a second; a client that has
stopped reading fills the kernel's buffers and then never takes one."""
CLOSE_SECONDS = 2.0
"""How long a closing frame may wait to be sent before the connection is just abandoned."""
STATE = "state"
REPLY = "reply"


@dataclass(eq=False)
class Connection:
    """One open ``/ws/games/{pk}`` websocket: the game, who opened it (``user`` and the hash
    of the session it was opened with, both None for a visitor), the client's address, and
    its outbox. Compared by identity: the hub keeps a set of them per game."""

    ws: WebSocket
    pk: int
    user: User | None
    session: str | None
    address: str
    queue: deque[tuple[str, str | int]] = field(default_factory=deque)
    wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the connection is over for the club: the client left, or it was dropped."""
    closing: bool = False
    dropped: str | None = None
    """Why the club dropped the connection, if it did (for the log and the tests)."""
    writer: asyncio.Task | None = None
    refused_refreshes: int = 0
    """Refreshes refused since the last one granted (see ``REFRESHES_REFUSED_BEFORE_CLOSE``)."""
    lang: str = "en"
    """The language the page that opened it reads (views and refusals are sent in it)."""
    compact: bool = False
    """Whether its page takes the legal moves in the compact form (``?compact=1``)."""

    @property
    def view_key(self) -> tuple[int | None, str, bool]:
        """What its view depends on besides the game: who, in what language, which form."""
        return (self.user_id, self.lang, self.compact)

    user_id: int | None = field(init=False, default=None)
    """``user``'s id, read once: every view sent looks it up (an ORM attribute costs more)."""

    def __post_init__(self) -> None:
        self.user_id = self.user.id if self.user is not None else None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    # --- putting things in the outbox (never waits) --------------------------------------------
    def send_state(self, text: str) -> None:
        """Queue a view of the game, in place of an older view not yet sent."""
        if self.queue and self.queue[-1][0] == STATE:
            self.queue[-1] = (STATE, text)
            return
        self._put(STATE, text)

    def send_reply(self, text: str) -> None:
        """Queue an answer to the client's own message (a pong, an error)."""
        self._put(REPLY, text)

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is already queued has been sent (a last error, say)."""
        if self.closing or self.finished.is_set():
            return
        self.closing = True
        self.queue.append(("close", code))
        self.wakeup.set()

    def drop(self, why: str) -> None:
        """Give up on the connection at once, without sending anything more."""
        if self.finished.is_set():
            return
        self.dropped = why
        self.queue.clear()
        log.info("game %s: dropped a websocket from %s: %s", self.pk, self.address, why)
        self.finished.set()
        self.wakeup.set()

    def _put(self, kind: str, text: str) -> None:
        if self.closing or self.finished.is_set():
            return
        if len(self.queue) >= OUTBOX_MESSAGES:
            self.drop(f"{OUTBOX_MESSAGES} messages waiting: the client is not reading")
            return
        self.queue.append((kind, text))
        self.wakeup.set()

    # --- the writer -----------------------------------------------------------------------------
    async def _write(self) -> None:
        """Send what the outbox holds, one message at a time, until the connection ends."""
        ws = self.ws
        try:
            while not self.finished.is_set():
                if not self.queue:
                    self.wakeup.clear()
                    await self.wakeup.wait()
                    continue
                kind, item = self.queue.popleft()
                if kind == "close":
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(code=int(item)), CLOSE_SECONDS)
                    self.finished.set()
                    return
                try:
                    # a timeout scope, not wait_for: that would make a task per message
                    async with asyncio.timeout(SEND_SECONDS):
                        await ws.send_text(str(item))
                except TimeoutError:
                    self.drop(f"a send was not taken within {SEND_SECONDS:g} s")
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away: the reading side sees it too
            self.finished.set()

    async def closed(self) -> None:
        """Wait (a bounded time) for the writer to send what a :meth:`close` left queued and
        the closing frame. A socket handler that returns after :meth:`close` calls this
        first: stopping the writer at once would cut the connection without the last
        message and the close code that says why (a flood's 1008), as a dropped network
        does, and a page would take it for one."""
        if not self.closing or self.finished.is_set():
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SEND_SECONDS + CLOSE_SECONDS):
                await self.finished.wait()

    async def stop(self) -> None:
        """End the writer (the connection is over)."""
        self.finished.set()
        if self.writer is not None and not self.writer.done():
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer
