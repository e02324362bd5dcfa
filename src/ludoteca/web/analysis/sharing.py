"""The analysis worker shared between people by how much each has used it lately.

Round robin alone (:class:`~ludoteca.web.round.botqueue.FairQueue`) gives each person a slice
in turn, so with eight accounts analysing non-stop an honest person's first report waited
for eight slices (some 4 s). Here the next slice goes to the person who has used the worker
least lately: what each has used decays by half every :data:`HALF_LIFE` seconds, so someone
who starts an analysis after a while is served next, and those who keep the worker busy
share what is left between them. Among equals the one served longest ago goes first."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

from ludoteca.web.round.botqueue import FairQueue

HALF_LIFE = 20.0
"""Seconds over which a person's use of the worker counts half as much."""
REMEMBERED = 1000
"""People whose use is remembered at most; past it the smallest uses are forgotten."""


class ByUseQueue(FairQueue):
    def __init__(self, workers: int = 1, per_owner: int = 1) -> None:
        super().__init__(workers, per_owner)
        self._use: dict[Hashable, tuple[float, float]] = {}

    def used(self, owner: Hashable, now: float | None = None) -> float:
        """``owner``'s use of the worker in seconds, decayed to ``now``."""
        now = time.monotonic() if now is None else now
        value, at = self._use.get(owner, (0.0, now))
        return value * 0.5 ** ((now - at) / HALF_LIFE)

    def charge(self, owner: Hashable, seconds: float) -> None:
        now = time.monotonic()
        self._use[owner] = (self.used(owner, now) + seconds, now)
        if len(self._use) > REMEMBERED:
            least = sorted(self._use, key=lambda o: self.used(o, now))
            for o in least[: len(self._use) - REMEMBERED // 2]:
                del self._use[o]

    @asynccontextmanager
    async def turn(self, owner: Hashable) -> AsyncIterator[None]:
        async with super().turn(owner):
            began = time.monotonic()
            try:
                yield
            finally:  # charged before the slot goes to the next person
                self.charge(owner, time.monotonic() - began)

    def _rank(self, owner: Hashable) -> tuple:
        """Fewest running, then least use of the worker lately, then served longest ago."""
        return (self.running[owner], self.used(owner), self._served.get(owner, 0))
