"""Flood control for game sockets: how many messages, connections and refreshes a client
may send, and the addresses paused for flooding (:class:`FloodControl`, one per process)."""

from __future__ import annotations

import time
from collections import defaultdict, deque

from ludoteca.core.messages import N_, Text

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
between them) is closed as flooding (see :meth:`FloodControl.flooded`): each refusal still costs the
server a message and an answer. Refusals now and then over a long game, with refreshes
granted between them, are a page's retries, not a flood, and never add up to a close."""

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


class FloodControl:
    """What this process remembers of the addresses its game sockets come from."""

    def __init__(self) -> None:
        self.sockets_per_address: dict[str, int] = defaultdict(int)
        self.refreshes_per_address: dict[str, MessageRate] = {}
        self.last_flood: dict[str, float] = {}
        self.paused_addresses: dict[str, float] = {}
        """Addresses that flooded again, with when they may connect again (monotonic)."""

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
