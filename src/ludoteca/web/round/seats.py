"""Computer seats: bots choose their moves in a worker pool, never on the event loop.

A worker is handed the game's record, rebuilds it as a table (the record's every check, then
the replay, :func:`ludoteca.record.to_table`), and asks the bot. Handing over
the record rather than a live state keeps the work picklable for a process pool, and the
same call can later go to a separate worker service. The move comes back as text and is
submitted like a person's move, so the engine checks it again before it is committed.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

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


def choose_move(job: BotJob) -> str:
    """Replay the game and return the bot's move in notation (runs in a worker)."""
    from ludoteca.bots import make_bot

    state = to_table(job.record).state
    bot = make_bot(job.level, seed=job.bot_seed)
    move = bot.choose(state)  # a level bot carries its own time budget
    return state.move_to_str(move)


def make_pool(kind: str, workers: int = BOT_WORKERS) -> Executor:
    """``process`` (the default for ``ludoteca serve``: search never holds the GIL of the
    server) or ``thread`` (for games registered only inside the server process)."""
    if kind == "process":
        start_forkserver()  # from this thread, and guarded: see ludoteca.web.infra.orphans
        return ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=die_with_parent,
        )
    return ThreadPoolExecutor(workers, thread_name_prefix="bot")
