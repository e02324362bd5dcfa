"""How many computer turns one server process thinks at once: a share of the processors for
each, by its level's time, and a cap on workers sized from memory.

A level's time is wall-clock time from the player's move, and every search stops at its
deadline (:mod:`ludoteca.bots.mcts_budget`). So when more turns are asked than there are cores,
they think side by side and the operating system shares the processors between them: each
reply still comes within its level's time, and each search does fewer simulations. Queued
behind as many workers as cores instead, a turn thought only what was left of its time once a
worker was free, or waited past it: 50 members playing Comune at ``medium`` (0.25 s) on two
busy cores ask about 3.8 searches at once on average, and with two workers the replies' p99
was 0.9 s (``python bench/club_budgets.py``; figures in ``docs/performance.md``).

How many may share the processors depends on how long they think: a turn is let in while
every turn thinking can still count on :data:`MIN_SEARCH_CPU` of processor time within its
level's time (:func:`turn_share`). Four ``medium`` turns (0.25 s) share a core, sixteen
``hard`` ones (1 s). A single cap for every level, four a core, kept 50 members playing
``hard`` waiting for a worker: their replies took 1.2-1.6 s at the p99 against the level's
1 s, the wait alone 0.8-1.5 s; let in by their time, 1.0 s (``master``: 7.7-8.0 s, then 3.8 s).

The pool grows to the number of turns asked at once, up to :func:`default_bot_workers`: what
memory allows (a worker holding a game's compiled search is about :data:`WORKER_MB`) and no
more than :data:`MAX_PER_CORE` a core. ``ludoteca serve --bot-workers N`` (or
``$LUDOTECA_BOT_WORKERS``) sets it.
"""

from __future__ import annotations

import os

WORKER_MB = 120
"""Memory one bot worker process holds, in MB: 119 MB resident after a Comune and a Kuniumi
``medium`` search (``/proc/PID/smaps_rollup``), of which only 37 MB its own: the engine, the
bots and the games' compiled searches are loaded once by the forkserver the workers are
forked from (:mod:`ludoteca.web.round.worker_preload`) and their pages shared. A worker that
loaded them itself held 160 MB, all its own. The resident size is counted, so the cap holds
even once the shared pages are written to and copied."""
MEMORY_SHARE = 0.25
"""The share of the machine's memory the bot workers of one server process may hold."""
MIN_SEARCH_CPU = 1 / 16
"""Seconds of processor time each thinking turn can count on within its level's time, at the
least: four 0.25 s searches sharing a core each get a sixteenth of a second of it, still
several hundred simulations of Comune; sixteen 1 s searches as much."""
PER_CORE = 4
"""The most ``medium`` (0.25 s) or ``easy`` turns a core thinks at once (:func:`turn_share`)."""
MAX_PER_CORE = 16
"""The most workers a core, whatever their levels: sixteen ``hard`` (1 s) turns, each given
:data:`MIN_SEARCH_CPU`. Longer levels (``master``, 4 s) share the same workers, each with more
than its least."""
ENV = "LUDOTECA_BOT_WORKERS"
"""The environment variable that sets the cap (``ludoteca serve --bot-workers``)."""


def memory_mb() -> int | None:
    """The machine's memory in MB, where the system tells it."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):
        return None


def turn_share(seconds: float) -> float:
    """The share of one core a turn of a level with ``seconds`` of time is counted as taking
    while it thinks: what gives it :data:`MIN_SEARCH_CPU` within its time, a whole core at
    most. Turns are let in while their shares fit the cores (:class:`.botqueue.FairQueue`)."""
    return min(1.0, MIN_SEARCH_CPU / seconds) if seconds > 0 else 1.0


def default_bot_workers(cores: int | None = None, memory: int | None = None) -> int:
    """The cap for this machine (``cores`` and ``memory`` in MB: those of this machine when
    not given): :data:`MAX_PER_CORE` a core, fewer where :data:`MEMORY_SHARE` of the memory
    holds fewer workers of :data:`WORKER_MB`, never fewer than one a core."""
    cores = cores or os.cpu_count() or 1
    memory = memory if memory is not None else memory_mb()
    cap = MAX_PER_CORE * cores
    if memory is not None:
        cap = min(cap, int(memory * MEMORY_SHARE) // WORKER_MB)
    return max(cores, cap)
