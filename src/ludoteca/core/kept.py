"""A table of values worked out once per key, bounded: for hot paths that meet the same few
keys again and again (the frames of a block of cells, a roll's outcomes, a hand's fits).

Looking a key up is one ``dict`` look-up; a key not met yet is made by ``make(key)`` and
kept. When the table holds ``limit`` values it is emptied rather than trimmed one by one:
the keys a run meets repeat, so the hot ones come back at once, and no order is kept at a
cost on every hit (as a least-recently-used cache would).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(dict[K, V], Generic[K, V]):
    """``table[key]``: the value ``make(key)`` gave the first time, at most ``limit`` kept."""

    def __init__(self, make: Callable[[K], V], limit: int) -> None:
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key: K) -> V:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.make(key)
        return value
