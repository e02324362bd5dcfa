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
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from typing import Any, NamedTuple

from ludoteca.bots.base import Bot
from ludoteca.core.errors import MalformedError
from ludoteca.core.protocol import State
from ludoteca.record import Record, to_table
from ludoteca.web.infra.orphans import die_with_parent, start_forkserver
from ludoteca.web.round.bot_workers import PER_CORE
from ludoteca.web.round.botqueue import BOT_WORKERS
from ludoteca.web.round.leading import LeadingMoves

MIN_THINK_SHARE = 0.1
"""The least share of its level's time a search is given, however long its turn waited:
a reply never degrades to no search at all."""
INSTANT_SECONDS = 0.25
"""The time a level that does not search (``easy``: the best-looking move now) is allowed:
it weighs every legal move, and a game's thousands of them took 0.1 to 0.3 s of a busy
core, several seconds when the workers were shared; past this it takes the best of those
it weighed (in a seeded random order)."""


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
    seconds: float = INSTANT_SECONDS
    """The level's time in this game (:func:`turn_seconds`): how long the turn will think,
    which sets the share of the processors it is let in with
    (:func:`.bot_workers.turn_share`)."""
    leading: int | None = None
    """The slot of the pool's :class:`~.leading.LeadingMoves` where the search tells the move
    it leads with as it goes (``None``: it tells none)."""


def level_seconds(state: State, bot: Bot) -> float:
    """The time ``bot`` (a level's) is allowed for a move in ``state``'s game: its search's,
    else :data:`INSTANT_SECONDS`."""
    from ludoteca.bots.levels import LevelBot

    inner = bot.bot_for(state) if isinstance(bot, LevelBot) else bot
    return inner.budget.seconds or inner.default_budget.seconds or INSTANT_SECONDS


_LEVEL_TIMES: dict[tuple[object, int, str], float] = {}
"""Each level's time by game, number of players and level (a few dozen at most)."""


def turn_seconds(state: State, level: str) -> float:
    """The time ``level`` (a bot spec, as a computer seat names it) thinks a move in
    ``state``'s game (:func:`level_seconds`), known in the server before a worker replays the
    game. A spec that names no bot is given :data:`INSTANT_SECONDS`: the worker refuses it."""
    key = (state.game, state.num_players, level)
    seconds = _LEVEL_TIMES.get(key)
    if seconds is None:
        from ludoteca.bots import make_bot

        try:
            seconds = level_seconds(state, make_bot(level, seed=0))
        except MalformedError:
            seconds = INSTANT_SECONDS
        if len(_LEVEL_TIMES) < 1024:
            _LEVEL_TIMES[key] = seconds
    return seconds


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
    late: bool = False
    """The worker's answer was late: the move is the one its search led with when the server
    stopped waiting (:meth:`.bots.BotRunner.think`), and the times are the server's."""


_board: LeadingMoves | None = None
"""In a bot worker process: its pool's slots for the searches' leading moves
(:func:`start_worker`)."""

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
    from ludoteca.bots.progress import leading_moves

    received = time.time()
    _last.bot = None  # the last reply's bot and tree, freed here
    state = to_table(job.record).state
    bot = _last.bot = make_bot(job.level, seed=job.bot_seed)
    allowed = level_seconds(state, bot)
    now = time.time()
    seconds = think_seconds(allowed, job.asked_at, now, job.reserve)
    board, slot = _board, job.leading
    telling = (
        leading_moves(lambda m: board.tell(slot, state.move_to_str(m)))
        if board is not None and slot is not None
        else nullcontext()
    )
    with telling:
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
Where Linux groups each session's processes for its scheduler, the workers are groups apart
from the server's (:data:`OWN_SESSIONS`), and this weighs them only within their groups."""
WORKER_PRELOAD = "ludoteca.web.round.worker_preload"
"""What the bot workers' forkserver imports before it forks any: see that module."""


OWN_SESSIONS = PER_CORE * (os.cpu_count() or 1)
"""How many of a pool's workers each open a session of their own: as many as turns of the
short levels think at once (:data:`~ludoteca.web.round.bot_workers.PER_CORE` a core). The
others stay in their forkserver's session, one group for all of them
(:func:`ludoteca.web.round.worker_preload.own_session`).

Where Linux groups each session's processes for its scheduler, a worker in a session of its
own weighs as much as the server, and one of the shared session's only a share of one. With
every worker sharing one session, the ``medium`` searches of 50 members got a third of a busy
machine's core between them, and Kuniumi's replies ran past the level's time + 10% in four
runs of six (292-380 ms at the p99, ``bench/club_budgets.py``); each in its own, the
seventeen searches of 50 members at ``hard`` outweighed the server, and the members' own
moves took 0.11-0.27 s at the p99 to be stored. So the first workers, as many as ``medium``
keeps busy, search as the server weighs, and the more that long levels let in share what one
more would get: Kuniumi ``medium`` 241-242 ms, members' moves at ``hard`` 115-124 ms."""


def start_worker(own_sessions: Any = None, board: LeadingMoves | None = None) -> None:
    """A bot worker's start: it ends with the server (:func:`die_with_parent`), opens a
    session of its own while ``own_sessions`` (a count in shared memory, :data:`OWN_SESSIONS`
    at first) has some left, yields the processors to the server (:data:`WORKER_NICENESS`),
    and keeps ``board``, where its searches tell their leading moves (:mod:`.leading`)."""
    global _board
    _board = board
    die_with_parent()  # asked first: the request outlives a new session
    if own_sessions is not None and own_sessions.value > 0:
        # unlocked: two workers starting in the same instant may both take the last one,
        # which puts one more worker in a session of its own and changes little. A lock
        # would be a named semaphore, which the server left behind whenever it stopped
        own_sessions.value -= 1
        with suppress(OSError):
            os.setsid()
    with suppress(OSError):
        os.nice(WORKER_NICENESS)


def make_pool(kind: str, workers: int = BOT_WORKERS, own_sessions: int = OWN_SESSIONS) -> Executor:
    """``process`` (the default for ``ludoteca serve``: search never holds the GIL of the
    server) or ``thread`` (for games registered only inside the server process), of at most
    ``workers``. A process pool starts a worker when a job finds none idle, so it grows to
    the turns asked at once, each worker forked ready to search (:data:`WORKER_PRELOAD`); the
    first ``own_sessions`` of them open sessions of their own (:data:`OWN_SESSIONS`). Its
    workers' searches tell the moves they lead with into ``pool.leading``
    (:class:`~.leading.LeadingMoves`), so that a late worker does not make a late reply."""
    if kind == "process":
        # from this thread, and guarded (see ludoteca.web.infra.orphans); the workers start
        # with the games' searches loaded (see ludoteca.web.round.worker_preload)
        start_forkserver((WORKER_PRELOAD,))
        context = multiprocessing.get_context("forkserver")
        board = LeadingMoves(workers, context)
        pool = ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=start_worker,
            initargs=(context.RawValue("i", min(own_sessions, workers)), board),
        )
        pool.leading = board  # type: ignore[attr-defined]  # the server's side of the slots
        return pool
    return ThreadPoolExecutor(workers, thread_name_prefix="bot")
