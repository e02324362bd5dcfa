"""Answers kept for a few seconds: what every visitor of a busy page would otherwise compute
again, many times a second, to the same result.

A leaderboard sorts a whole rating pool, and the lobby's public lists take three queries with
the seats of every game; both change only as games start and end. Kept for a few seconds in
each process, they cost one computation per few seconds however many people look, and are
at most that old (each process keeps its own, so several processes agree within the same
few seconds). Only what is the same for every visitor is kept: whatever belongs to one
person (their games, their invitations, their bell) is read on every request.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from cachetools import TTLCache

T = TypeVar("T")


class Briefly:
    """A time-limited cache (``cachetools.TTLCache``) shared by a process's request threads."""

    def __init__(self, seconds: float, size: int = 256) -> None:
        self._kept: TTLCache[Hashable, Any] = TTLCache(maxsize=size, ttl=seconds)
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept for ``key``, or ``compute()``'s, kept for the next few seconds.

        Two requests arriving together may both compute it; the later one's value is kept.
        That is cheaper than making every reader wait behind one lock while it computes."""
        with self._lock:
            if key in self._kept:
                return self._kept[key]
        value = compute()
        with self._lock:
            self._kept[key] = value
        return value
