"""Answers kept for a few seconds: what every visitor of a busy page would otherwise compute
again, many times a second, to the same result.

A leaderboard sorts a whole rating pool, and the lobby's public lists take three queries with
the seats of every game; both change only as games start and end. Kept for a few seconds in
each process, they cost one computation per few seconds however many people look, and are
at most that old (each process keeps its own, so several processes agree within the same
few seconds). Only what is the same for every visitor is kept: whatever belongs to one
person (their games, their invitations, their bell) is read on every request.

:class:`Kept` keeps answers without a time limit, for what is keyed by everything it depends
on (a game's version and a language: the shared part of a game's views, the moves offered at a
position), which never goes stale and only falls out of use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

from cachetools import Cache, LRUCache, TTLCache

T = TypeVar("T")


class Kept:
    """A cache shared by a process's request threads, of at most ``size`` answers, the least
    recently used going first (``cachetools.LRUCache``): for answers keyed by everything
    they depend on (a game's version, a language), which never go stale, only out of use."""

    def __init__(self, size: int = 256, cache: Cache | None = None) -> None:
        self._kept: Cache = cache if cache is not None else LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept for ``key``, or ``compute()``'s, kept from now on.

        Two requests arriving together may both compute it; the later one's value is kept.
        That is cheaper than making every reader wait behind one lock while it computes."""
        with self._lock:
            if key in self._kept:
                return self._kept[key]
        value = compute()
        with self._lock:
            self._kept[key] = value
        return value


class Briefly(Kept):
    """A time-limited cache (``cachetools.TTLCache``) shared by a process's request threads:
    each answer is kept for ``seconds`` at most."""

    def __init__(self, seconds: float, size: int = 256) -> None:
        super().__init__(cache=TTLCache(maxsize=size, ttl=seconds))
