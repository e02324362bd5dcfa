"""The sessions this process read lately, kept for a few seconds: most requests of a member
come in runs (a playing page, an API client), and reading whose session a cookie names was
the largest single cost of a request (a statement, and a trip of the thread through SQLite
that a busy process pays for in waiting for the interpreter again).

Only what cannot harm is answered from here (see :func:`ludoteca.web.kernel.requests.current_user`):
reads (``GET``, ``HEAD``), and a move, whose claim on its game checks in the same statement
that the session is still open. Every other change reads the session afresh. A session
closed in this process (log-out, new password, expiry) is forgotten at once, and a member
whose row changed (their language) too; one closed through another process is answered
from here for at most :data:`SESSION_CACHE_SECONDS`, the time that process's sockets of it
already stay open (``SESSION_CHECK_SECONDS`` of the hub).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

SESSION_CACHE_SECONDS = 15.0
"""How long a session read is trusted for the requests that may use it."""
SESSION_CACHE_SIZE = 20_000
"""The most sessions kept (the oldest read goes first): a few MB at most."""


@dataclass(frozen=True, slots=True)
class KeptSession:
    user: dict[str, Any]
    """The member's row (column name to value): each request builds its own ``User``."""
    expires: datetime
    read_at: float


class SessionCache:
    """Sessions by the hash of their token; any thread may use it."""

    def __init__(
        self, seconds: float = SESSION_CACHE_SECONDS, size: int = SESSION_CACHE_SIZE
    ) -> None:
        self.seconds = seconds
        self.size = size
        self._kept: dict[str, KeptSession] = {}
        self._lock = threading.Lock()
        self._dropped: dict[str | int, float] = {}
        """When each session (by hash) or member (by id) was last forgotten: a read begun
        before that is not kept (it may have read what was closed or changed meanwhile)."""

    def get(self, token_hash: str, now: datetime) -> dict[str, Any] | None:
        """The member's row of a session read less than :attr:`seconds` ago and not expired
        at ``now``; None otherwise (the caller reads it afresh)."""
        kept = self._kept.get(token_hash)
        if kept is None:
            return None
        if time.monotonic() - kept.read_at > self.seconds or kept.expires < now:
            self.drop(token_hash)
            return None
        return kept.user

    def put(self, token_hash: str, user: dict[str, Any], expires: datetime, read_at: float) -> None:
        """Keep what a read begun at ``read_at`` (``time.monotonic()``) found, unless the
        session or its member was forgotten since the read began."""
        with self._lock:
            dropped = max(self._dropped.get(token_hash, 0.0), self._dropped.get(user["id"], 0.0))
            if dropped >= read_at:
                return
            self._kept.pop(token_hash, None)
            self._kept[token_hash] = KeptSession(user, expires, read_at)
            while len(self._kept) > self.size:
                del self._kept[next(iter(self._kept))]

    def drop(self, token_hash: str) -> None:
        with self._lock:
            self._kept.pop(token_hash, None)
            self._forgotten(token_hash)

    def drop_user(self, user_id: int) -> None:
        """Forget every session of a member (their row changed, or their sessions closed)."""
        with self._lock:
            for key in [k for k, v in self._kept.items() if v.user.get("id") == user_id]:
                del self._kept[key]
            self._forgotten(user_id)

    def _forgotten(self, key: str | int) -> None:
        now = time.monotonic()
        self._dropped[key] = now
        if len(self._dropped) > self.size:  # reads last well under a cache's lifetime
            self._dropped = {k: t for k, t in self._dropped.items() if now - t < self.seconds}

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
