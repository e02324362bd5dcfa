"""The computer seats of live games: who runs their turns, and the watch that takes over
turns a dead process left (:func:`take_over_stalled_bots`). Play's own threads live here too,
since the computer's moves are written in them as people's are (:class:`PlayThreads`)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio

from ludoteca.web.infra.periodic import watch
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.bot_workers import turn_share
from ludoteca.web.round.botqueue import BOT_WORKERS, FairQueue
from ludoteca.web.round.leading import LeadingMoves
from ludoteca.web.round.seats import BotJob, Thought, think_turn

if TYPE_CHECKING:
    from ludoteca.web.round.service import GameService

log = logging.getLogger("ludoteca.web")

ChangeAndDeliver = Callable[[int, Callable[[], None]], Awaitable[None]]
"""Runs a change of a game (the computer's move) and tells the game's watchers after it:
:meth:`~ludoteca.web.round.hub.Hub.change_and_deliver`."""

PLAY_THREADS = 4
"""Worker threads for the database work of play (moves, and the views sent after them).

Every thread that is ready to run takes turns at the interpreter, and a move holds the
database's write lock from its first write to its commit: with dozens of threads ready (the
default pool has 40), each hand-over of the interpreter inside that window waited behind
all of them, and every other move queued behind the lock. A few threads keep that window
short; pages, log-ins and the rest keep the default pool, so they never hold up play.
Measured with ``bench/load.py --games 200 --think 2`` on SQLite: p99 146 ms with the
default pool, 65 ms with 4 threads, 55 ms with 2 (but PostgreSQL, whose threads wait on the
network, wants a few)."""


class PlayThreads:
    """The few threads that do the database work of play (moves, and the views after them)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    async def play(self, fn, *args):
        """Run ``fn(*args)`` (moves and views: the database work of play) in a worker thread
        of play's own small pool. See :data:`PLAY_THREADS`.

        A plain executor, not anyio's threads: their limiter, cancel scopes and clock cost
        the event loop, which every game of the process shares, as much again as handing
        the call over. As with anyio's, a caller cancelled meanwhile waits for the call to
        finish (a move under way is never left half told) and is cancelled after."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(PLAY_THREADS, thread_name_prefix="play")
        running = asyncio.wrap_future(self._pool.submit(fn, *args))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            with suppress(Exception):
                await running
            raise

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None


TELLING_SAMPLES = 256
"""Recent replies whose telling time (search end to players told) the reserve is taken from."""
TELLING_QUANTILE = 0.99
"""The share of those replies told within the reserve: the tail the level's time is about
(a reply within its time + 10% at the p99, issue 46). On the busy 2-core machine, 50 members
playing Comune (``bench/club_budgets.py``), the reserve at the 90th percentile was 30-40 ms,
and the slowest replies' searches ran to 0.22-0.23 s of their 0.25 s: the replies' p99 was
0.31-0.38 s. At the 99th percentile it is 50-230 ms, as busy as the machine is, and the p99
0.23-0.34 s. The cost is the documented trade-off: each search leaves that much of its time
and searches less (``docs/performance.md``)."""


REPLY_STAGES = ("read", "queue", "hand_over", "replay", "search", "back", "store", "tell")
"""The steps of a computer's reply, each logged (in ms) with the line ``computer reply``:
the game read and its record made (``read``), waiting for a worker (``queue``), the job
handed to it (``hand_over``), the game replayed there (``replay``), the search, the move
handed back to the server (``back``), stored (``store``), and its watchers told (``tell``:
their views read and queued to their sockets); beside them the reserve the search left, how
far it ran past its deadline, and how many turns were thinking when it got its worker."""


def _answered(board: LeadingMoves, slot: int, future: asyncio.Future) -> None:
    """A worker answered (or failed): its slot is free again. An answer no longer waited for
    is let go here, its error too (logged by nobody: the reply was made without it)."""
    board.give_back(slot)
    if not future.cancelled():
        future.exception()


def reply_stages(stamps: tuple[float, ...]) -> dict[str, float]:
    """The milliseconds of each of :data:`REPLY_STAGES` between the ``time.time()`` stamps
    of a reply (the first when it was asked, one at the end of each stage), and in all."""
    out = {
        f"{name}_ms": round(1000 * (end - begin), 1)
        for name, begin, end in zip(REPLY_STAGES, stamps[:-1], stamps[1:], strict=True)
    }
    out["reply_ms"] = round(1000 * (stamps[-1] - stamps[0]), 1)
    return out


class BotRunner:
    """Runs the computer's turns of live games, one task per game, each search in ``pool``
    (processes, or threads in tests) after waiting its turn in its game creator's line.

    Up to ``workers`` turns think at once (:data:`~ludoteca.web.round.botqueue.BOT_WORKERS`),
    more than the cores, as many as their levels' times leave each its least share of a core
    (:func:`~ludoteca.web.round.bot_workers.turn_share`): each search stops at its level's
    time, so under load the turns share the processors and each searches less, rather than
    waiting past their time."""

    def __init__(
        self,
        games: GameService,
        threads: PlayThreads,
        delay: float = 0.0,
        workers: int = BOT_WORKERS,
    ) -> None:
        self.games = games
        self.threads = threads
        self.delay = delay
        """Seconds the computer waits before each move it found (to be seen thinking)."""
        self.pool: Executor | None = None
        """Where the searches run: set when the club starts (None: the loop's default)."""
        self.tasks: dict[int, asyncio.Task] = {}
        self.workers = workers
        """The most turns thinking at once: the pool made for this runner has as many."""
        self.queue = FairQueue(workers=workers)
        """Computer turns wait here for a worker, in their game creator's line."""
        self.telling: deque[float] = deque(maxlen=TELLING_SAMPLES)
        """Seconds from the end of each recent search to its move told (:meth:`reserve`)."""
        self.think_seconds: Any = None
        """A histogram of the searches' seconds (the club's metrics), when it keeps one."""

    def kick(self, pk: int, change_and_deliver: ChangeAndDeliver) -> None:
        """Start the computer's turns in ``pk`` unless they run already. Each of its moves is
        stored by ``change_and_deliver(pk, change)``, which tells the game's watchers in the
        same trip to play's threads
        (:meth:`~ludoteca.web.round.hub.Hub.change_and_deliver`): a second trip to read the
        game again for them took up to 30 ms more at the p99 on the busy machine
        (``bench/club_budgets.py``), all of it inside the level's time."""
        if not self.games.may_have_bots(pk):
            return
        task = self.tasks.get(pk)
        if task is None or task.done():
            # the move that made it the computer's turn is stored: its time counts from now
            # (not from when the task first runs, behind whatever the event loop has queued)
            self.tasks[pk] = asyncio.create_task(self._run(pk, change_and_deliver, time.time()))

    async def _run(self, pk: int, change_and_deliver: ChangeAndDeliver, asked_at: float) -> None:
        games = self.games
        stale = 0
        while True:
            turn = await anyio.to_thread.run_sync(games.bot_turn, pk)
            if turn is None:
                return
            read_at = time.time()
            job, ply, takebacks = turn
            job = dataclasses.replace(job, asked_at=asked_at, reserve=self.reserve())
            try:
                slot: list[float] = []
                thought = await self.think(job, slot)
                back_at = time.time()
                if self.delay:
                    await asyncio.sleep(self.delay)
                stored: list[float] = []

                def store(
                    t: str = thought.text, p: int = ply, b: int = takebacks, at: list = stored
                ) -> None:
                    games.submit(pk, None, t, bot=True, expected_ply=p, expected_takebacks=b)
                    at.append(time.time())

                await change_and_deliver(pk, store)
            except ClubError as exc:
                log.warning("game %s: computer move refused: %s", pk, exc.message)
                if exc.status == 409 and stale < 3:
                    # The game changed while it thought (moves taken back and played
                    # again): think again on the game as it is, if it is still its turn.
                    stale += 1
                    asked_at = time.time()
                    continue
                return
            except Exception:
                log.exception("game %s: the computer player failed", pk)
                return
            stale = 0
            told_at = time.time()
            self.telling.append(told_at - thought.searched_until - self.delay)
            stamps = (asked_at, read_at, slot[0], thought.received, thought.started)
            stamps += (thought.ended, back_at + self.delay, stored[0], told_at)
            extra = {"game": pk, **reply_stages(stamps), "reserve_ms": round(1000 * job.reserve, 1)}
            extra["overrun_ms"] = round(1000 * (thought.ended - thought.searched_until), 1)
            extra["thinking"] = slot[1]
            if thought.late:
                extra["late_worker"] = True  # the move its search led with was played
            log.info("computer reply", extra=extra)
            asked_at = told_at  # a computer to move next counts from here

    async def think(self, job: BotJob, slot: list[float] | None = None) -> Thought:
        """The computer's move for ``job``, found in the pool once its owner's line lets it
        have a worker (it thinks what is left of its level's time then: :mod:`.seats`).
        When the worker was given, and how many turns were thinking then (this one too), are
        appended to ``slot``."""
        async with self.queue.turn(job.owner, turn_share(job.seconds)):
            given = time.time()
            if slot is not None:
                slot += (given, self.queue.busy)
            thinking = time.perf_counter()
            board: LeadingMoves | None = getattr(self.pool, "leading", None)
            leading = None
            if board is not None and job.asked_at is not None:
                leading = board.take()
            job = dataclasses.replace(job, leading=leading)
            future = asyncio.get_running_loop().run_in_executor(self.pool, think_turn, job)
            if leading is None:
                found = await future
            else:
                assert board is not None
                future.add_done_callback(partial(_answered, board, leading))
                found = await self._in_time(job, future, board, leading, given)
            if self.think_seconds is not None:
                self.think_seconds.observe(time.perf_counter() - thinking)
        return found

    async def _in_time(
        self, job: BotJob, future: asyncio.Future, board: LeadingMoves, slot: int, given: float
    ) -> Thought:
        """The worker's answer, or, once it is late, the move its search last led with.

        Late is half the reserve past the search's deadline (the level's time less the
        reserve, :func:`.seats.think_seconds`): the other half is left for storing the move
        and telling the players. A search that has led with no move yet (one still starting,
        or a bot that does not search) is waited for as before: its answer is the only one."""
        assert job.asked_at is not None
        late_at = job.asked_at + job.seconds - job.reserve / 2
        try:
            return await asyncio.wait_for(asyncio.shield(future), max(0.0, late_at - time.time()))
        except TimeoutError:
            text = board.read(slot)
            if text is None:
                return await future
            now = time.time()
            return Thought(text, now, given, given, now, late=True)

    def reserve(self) -> float:
        """The seconds a search leaves of its level's time for what follows it (handing the
        move back, storing it, telling the players): what that took at :data:`TELLING_QUANTILE`
        of the last :data:`TELLING_SAMPLES` replies. Before there are enough to tell a tail
        from, the longest yet (nothing before the first): a club just started, its workers
        still being forked, answered the first turns of a busy minute late with none."""
        if len(self.telling) < TELLING_SAMPLES // 8:
            return max(self.telling, default=0.0)
        ordered = sorted(self.telling)
        return max(0.0, ordered[int(TELLING_QUANTILE * (len(ordered) - 1))])


BOT_STALL_SECONDS = 60.0
"""A computer turn with no move for this long is taken over: far beyond any level's budget."""
BOT_WATCH_SECONDS = 15.0


async def take_over_stalled_bots(
    games: GameService,
    kick: Callable[[int], None],
    idle: float = BOT_STALL_SECONDS,
    interval: float = BOT_WATCH_SECONDS,
) -> None:
    """Forever: start the computer's turn in games where it has stalled.

    The process that accepts a move starts the computer's reply; if that process dies while
    the computer thinks, no one else would. Every process runs this watch, so with several
    processes on one database a game never waits on a dead one for longer than ``idle``."""
    await watch(
        partial(games.games_waiting_for_bots, idle),
        kick,
        interval,
        "the watch for stalled computer turns",
    )
