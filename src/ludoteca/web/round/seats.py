"""Computer seats: bots choose their moves in a worker pool, never on the event loop.

A worker is handed the game's record, rebuilds it as a table (the record's every check, then
the replay, :func:`ludoteca.record.to_table`), and asks the bot. Handing over
the record rather than a live state keeps the work picklable for a process pool, and the
same call can later go to a separate worker service. The move comes back as text and is
submitted like a person's move, so the engine checks it again before it is committed.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from typing import NamedTuple

from ludoteca.bots.base import Bot
from ludoteca.core.protocol import State
from ludoteca.record import Record, to_table
from ludoteca.web.infra.orphans import die_with_parent, start_forkserver
from ludoteca.web.round.botqueue import BOT_WORKERS


@dataclass(frozen=True)
class BotJob:
    record: Record
    """The game so far (unfinished), seed included: the worker's table draws nothing, but
    the record is checked whole, as any record is."""
    level: str
    bot_seed: int
    owner: int | None = None
    """Whose account the thinking is charged to: the game's creator. Turns share the
    workers fairly between owners (:mod:`ludoteca.web.round.botqueue`)."""
    asked_at: float | None = None
    """When the move that made it the computer's turn was made (``time.time()``): the
    level's time counts from then, so a turn that waited for a worker thinks less and the
    reply still comes within the level's time (:func:`think_seconds`)."""
    reserve: float = 0.0
    """Seconds of the level's time kept for what follows the search: handing the move back,
    storing it and telling the players (as the server lately took: :class:`.bots.BotRunner`),
    so that the reply, not only the search, lands within the level's time."""


MIN_THINK_SHARE = 0.1
"""The least share of its level's time a search is given, however long its turn waited:
a reply never degrades to no search at all."""
INSTANT_SECONDS = 0.25
"""The time a level that does not search (``easy``: the best-looking move now) is allowed:
it weighs every legal move, and a game's thousands of them took 0.1 to 0.3 s of a busy
core, several seconds when the workers were shared; past this it takes the best of those
it weighed (in a seeded random order)."""


def level_seconds(state: State, bot: Bot) -> float:
    """The time ``bot`` (a level's) is allowed for a move in ``state``'s game: its search's,
    else :data:`INSTANT_SECONDS`."""
    from ludoteca.bots.levels import LevelBot

    inner = bot.bot_for(state) if isinstance(bot, LevelBot) else bot
    return inner.budget.seconds or inner.default_budget.seconds or INSTANT_SECONDS


def think_seconds(
    level_seconds: float, asked_at: float | None, now: float, reserve: float = 0.0
) -> float:
    """How long a search with ``level_seconds`` of time may think when its turn was asked
    for at ``asked_at`` and the worker starts at ``now``: what is left of the level's time
    since the move was made, less the ``reserve`` kept for telling the move, and at least
    :data:`MIN_THINK_SHARE` of it."""
    if asked_at is None:
        return level_seconds
    left = level_seconds - reserve - max(0.0, now - asked_at)
    return min(level_seconds, max(level_seconds * MIN_THINK_SHARE, left))


class Thought(NamedTuple):
    """A worker's answer to a :class:`BotJob`, with when (``time.time()``) each of its steps
    ended: what :class:`.bots.BotRunner` writes down of where a reply's time went."""

    text: str
    """The move, in notation."""
    searched_until: float
    """When the search ended, or its deadline if it ran past it: what follows, up to the
    players being told, is what :attr:`BotJob.reserve` is learnt from."""
    received: float
    """When the worker began the job (after it was handed over)."""
    started: float
    """When the search began (after the game's replay)."""
    ended: float
    """When the search ended, past its deadline or not."""


_last = threading.local()
"""This worker thread's last bot (``_last.bot``), kept after its reply: see :func:`think_turn`."""


def think_turn(job: BotJob) -> Thought:
    """Replay the game and return the bot's move in notation (runs in a worker), within
    what is left of the level's time since the move before (:func:`think_seconds`).

    The bot, and the tree its search grew, outlive the reply: they are freed when this
    worker thread starts its next turn, inside that turn's time and before its search, which
    the deadline then shortens. Freed as the reply left, they fell after the deadline, on
    the way back to the server: a Kuniumi ``medium`` tree takes about 6 ms of a free core
    to free, some 60 ms of a worker at nice 10 beside two busy cores."""
    from ludoteca.bots import make_bot

    received = time.time()
    _last.bot = None  # the last reply's bot and tree, freed here
    state = to_table(job.record).state
    bot = _last.bot = make_bot(job.level, seed=job.bot_seed)
    allowed = level_seconds(state, bot)
    now = time.time()
    seconds = think_seconds(allowed, job.asked_at, now, job.reserve)
    if seconds < allowed or allowed == INSTANT_SECONDS:
        move = bot.choose(state, seconds=seconds)
    else:
        move = bot.choose(state)  # a level bot carries its own time budget
    ended = time.time()
    return Thought(state.move_to_str(move), min(ended, now + seconds), received, now, ended)


WORKER_NICENESS = 10
"""How much less a bot worker weighs with the operating system's scheduler than the server:
with more searches than cores, the server's own work (storing and telling every move, the
computer's included) still gets the processors when it needs them. Each search stops at its
level's time whatever share it gets: it searches less, it does not answer later. On the busy
2-core machine (``bench/club_budgets.py``, ``medium``, in turns) the members' own moves took
0.21-0.23 s at the p99 with 10, 0.39-0.41 s with 5, and the replies 0.36 s against 0.39-0.6 s.
(Measured with the workers in the server's session. Where Linux groups each session's
processes for its scheduler, a worker is now a group of its own (:func:`start_worker`) and
this value weighs it against no other process; in a service's own control group, where
sessions are not grouped, it still puts the server first.)"""
WORKER_PRELOAD = "ludoteca.web.round.worker_preload"
"""What the bot workers' forkserver imports before it forks any: see that module."""


def start_worker() -> None:
    """A bot worker's start: it ends with the server (:func:`die_with_parent`), opens a
    session of its own, and yields the processors to the server (:data:`WORKER_NICENESS`).

    Its own session: where Linux groups the processes of each session for its scheduler
    (``sched_autogroup``, on by default on desktop and many server kernels), the server and
    every worker shared one group and so one session's share of a busy machine, and within
    it a worker at nice 10 waited behind every burst of the server's own work. With two
    cores kept busy by other work (``bench/club_budgets.py``, Comune ``medium``, 50 members,
    two rounds alternating), the searches ran past their deadline by 195-560 ms at the p99
    and the replies took 447-762 ms at the p99; in sessions of their own, the overrun was 0
    ms, the replies 233-240 ms (the level's 250 ms + 10% is 275), the members' own moves 34-46
    ms against 78-84 ms, and the searches' median 185-193 ms against 23-41 ms. The searches
    then take their sessions' share of the machine: other work on it gets less while they
    run. Without session groups (a service's own control group) this changes nothing, and
    the nice value keeps the server first among its workers."""
    die_with_parent()  # asked first: the request outlives the new session
    with suppress(OSError):
        os.setsid()
    with suppress(OSError):
        os.nice(WORKER_NICENESS)


def make_pool(kind: str, workers: int = BOT_WORKERS) -> Executor:
    """``process`` (the default for ``ludoteca serve``: search never holds the GIL of the
    server) or ``thread`` (for games registered only inside the server process), of at most
    ``workers``. A process pool starts a worker when a job finds none idle, so it grows to
    the turns asked at once, each worker forked ready to search (:data:`WORKER_PRELOAD`)."""
    if kind == "process":
        # from this thread, and guarded (see ludoteca.web.infra.orphans); the workers start
        # with the games' searches loaded (see ludoteca.web.round.worker_preload)
        start_forkserver((WORKER_PRELOAD,))
        return ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=start_worker,
        )
    return ThreadPoolExecutor(workers, thread_name_prefix="bot")
