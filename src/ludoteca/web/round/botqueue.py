"""The computer players' turns share the bot workers fairly between the people they play for.

The worker pool takes jobs first come, first served. So one account that started a dozen
games against ``master`` (4 s a move) filled the pool's queue, and someone else's ``random``
bot, a millisecond of work, waited behind all of them: 29 s instead of a quarter of a second.

Here every turn waits for a worker in its owner's own line (the owner is whoever created
the game: see :attr:`ludoteca.web.round.seats.BotJob.owner`). When a worker is free it goes to the
owner with the fewest turns running (among equals, the one served longest ago), and no owner
holds more than :data:`BOT_TURNS_PER_USER` workers at once. So the flood only delays its own
games, and with :data:`BOT_WORKERS` workers a newcomer finds one free at once.

Each turn also takes its share of the processors (:func:`.bot_workers.turn_share`: a quarter of
a core for a 0.25 s level, a sixteenth for a 1 s one), and a turn is let in only while the
shares of those thinking leave room for its own: as many long turns think at once as short
ones would leave each the same least time of a core. The next turn in the fair order waits for
its room; it is not overtaken by a turn that takes less, which would keep short levels waiting
behind a stream of long ones.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter, deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

from ludoteca.web.round.bot_workers import PER_CORE, default_bot_workers

BOT_WORKERS = default_bot_workers()
"""The most computer turns one server process thinks at once (its worker pool grows to this):
sized from this machine's cores and memory (:mod:`ludoteca.web.round.bot_workers`). Every
search stops at its level's time, so turns beyond the cores think side by side, each with a
share of the processors, instead of waiting for a worker past their time."""
BOT_TURNS_PER_USER = 1
"""Workers one account's games may use at once. This keeps the others free for everyone
else: a flood of ``master`` games by one account made another user's ``random``
bot answer in 29 s (48 to over 90 s on the busy 2-core development machine); with this
limit it answers in 0.2 to 1.6 s, the longest including the start of a worker process
(``tests/web/round/test_bot_fairness.py`` floods twelve ``master`` games of Kuniumi). An account
playing several computer games at once sees their moves one after another, which costs it
nothing it was not already asking for."""


DEFAULT_SHARE = 1 / PER_CORE
"""The share of a core a turn takes when it does not say (a 0.25 s level's)."""


class FairQueue:
    """Hands out ``workers`` slots, round robin between owners, at most ``per_owner`` each,
    and only while the turns' shares of the processors fit in ``cores``.

    Used from one event loop: ``async with queue.turn(owner, share): ...`` waits for a slot
    and holds it for the block. A waiter that is cancelled leaves the line; a slot is always
    given back, however the block ends. A turn finds room when nothing else is thinking,
    whatever its share."""

    def __init__(
        self,
        workers: int = BOT_WORKERS,
        per_owner: int = BOT_TURNS_PER_USER,
        cores: float | None = None,
    ) -> None:
        if workers < 1 or per_owner < 1:
            raise ValueError("a fair queue needs at least one worker and one turn per owner")
        self.workers = workers
        self.per_owner = per_owner
        self.cores = float(cores or os.cpu_count() or 1)
        """The processors the turns' shares are counted against."""
        self.running: Counter[Hashable] = Counter()
        self.shares = 0.0
        """The shares of the turns thinking, summed."""
        self._lines: dict[Hashable, deque[tuple[asyncio.Future[None], float]]] = {}
        """Each owner's waiting turns, oldest first, in the order the owners began to wait."""
        self._served: dict[Hashable, int] = {}
        """When each owner with turns running or waiting was last given a slot (a count of
        slots given): of owners running as many turns, the one served longest ago goes next."""
        self._given = 0

    @property
    def busy(self) -> int:
        return sum(self.running.values())

    def waiting(self, owner: Hashable | None = None) -> int:
        """Turns waiting (for ``owner``, or for everyone)."""
        if owner is not None:
            return len(self._lines.get(owner, ()))
        return sum(len(line) for line in self._lines.values())

    @asynccontextmanager
    async def turn(self, owner: Hashable, share: float = DEFAULT_SHARE) -> AsyncIterator[None]:
        """A slot for a turn of ``owner`` that takes ``share`` of a core while it thinks."""
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._lines.setdefault(owner, deque()).append((ticket, share))
        self._hand_out()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release(owner, share)  # given a slot in the same instant: give it back
            else:
                self._leave(owner, ticket)
            raise
        try:
            yield
        finally:
            self._release(owner, share)

    def _hand_out(self) -> None:
        while self.busy < self.workers:
            owner = self._next_owner()
            if owner is None:
                return
            line = self._lines[owner]
            ticket, share = line[0]
            if self.busy and self.shares + share > self.cores + 1e-9:
                return  # its room comes as turns end: it is not overtaken
            line.popleft()
            if not line:
                del self._lines[owner]
            self.running[owner] += 1
            self.shares += share
            self._given += 1
            self._served[owner] = self._given
            ticket.set_result(None)

    def _next_owner(self) -> Hashable | None:
        """Of the owners with a turn waiting and fewer than ``per_owner`` running, the one
        :meth:`_rank` puts first (cancelled turns are dropped from the lines on the way)."""
        best: tuple[tuple, Hashable] | None = None
        for owner, line in list(self._lines.items()):
            while line and line[0][0].done():  # cancelled while waiting
                line.popleft()
            if not line:
                del self._lines[owner]
                continue
            if self.running[owner] >= self.per_owner:
                continue
            rank = self._rank(owner)
            if best is None or rank < best[0]:
                best = (rank, owner)
        return None if best is None else best[1]

    def _rank(self, owner: Hashable) -> tuple:
        """Who goes first among owners with turns waiting (lowest first): fewest running,
        then served longest ago."""
        return (self.running[owner], self._served.get(owner, 0))

    def _leave(self, owner: Hashable, ticket: asyncio.Future[None]) -> None:
        line = self._lines.get(owner)
        if line is not None:
            for waiting in line:
                if waiting[0] is ticket:
                    line.remove(waiting)
                    break
            if not line:
                del self._lines[owner]
        self._hand_out()  # it may have held up the line for its room

    def _release(self, owner: Hashable, share: float) -> None:
        self.running[owner] -= 1
        if self.running[owner] <= 0:
            del self.running[owner]
        self.shares = max(0.0, self.shares - share) if self.running else 0.0
        self._hand_out()
        self._forget_idle()

    def _forget_idle(self) -> None:
        """Drop what is remembered of owners with nothing running or waiting: one coming
        back is served as a newcomer, which is fair, since it waited for nothing."""
        if len(self._served) > 2 * (len(self._lines) + len(self.running)) + 64:
            busy = self._lines.keys() | self.running.keys()
            self._served = {k: v for k, v in self._served.items() if k in busy}
