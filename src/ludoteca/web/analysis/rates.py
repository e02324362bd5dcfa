"""How often one visitor may ask the analysis board for a position: a token bucket per
address for visitors without an account, a looser one per member.

A position's page costs the engine's legal moves and a drawn board; six anonymous clients
asking for Comune positions with thousands of turns took honest moves from 10 ms to 265 ms
median. The pages are now cheap (the compact form of the moves, positions kept:
:mod:`.positions`), and this bounds what is left: :data:`ANONYMOUS` requests at once and
then one per :data:`ANONYMOUS_EVERY` seconds from one address, which is far beyond a person
clicking through moves. The buckets live in each server process (a visitor spread over
several processes by a load balancer gets each one's allowance): a bound, not an account.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Hashable

from cachetools import TTLCache

from ludoteca.core.messages import N_
from ludoteca.web.kernel.errors import ClubError

ANONYMOUS = 20
"""Requests an address without an account may make at once."""
ANONYMOUS_EVERY = 1.0
"""Seconds after which it may make one more."""
MEMBER = 60
MEMBER_EVERY = 0.25
"""A member's bucket: they are accountable, and registering many accounts is limited."""
KEYS = 20_000
"""Buckets remembered at most (the oldest unused go first): a bound on the memory a flood of
addresses may take."""


class Buckets:
    def __init__(self) -> None:
        self._buckets: TTLCache = TTLCache(maxsize=KEYS, ttl=600)
        self._lock = threading.Lock()

    def take(self, key: Hashable, burst: int, every: float) -> float:
        """0 if a request of ``key`` may go on now, else the seconds until one may."""
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.get(key, (float(burst), now))
            tokens = min(float(burst), tokens + (now - at) / every)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return (1 - tokens) * every
            self._buckets[key] = (tokens - 1, now)
            return 0.0


_buckets = Buckets()


def check_rate(user_id: int | None, address: str) -> None:
    """Refuse (429, with ``Retry-After``) a request beyond its visitor's allowance."""
    if user_id is None:
        wait = _buckets.take(("address", address), ANONYMOUS, ANONYMOUS_EVERY)
    else:
        wait = _buckets.take(("member", user_id), MEMBER, MEMBER_EVERY)
    if wait > 0:
        raise ClubError(
            N_("Too many positions asked for at once; wait a moment."),
            429,
            retry_after=max(1, math.ceil(wait)),
        )
