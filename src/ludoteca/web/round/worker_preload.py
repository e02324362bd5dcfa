"""Imported by the bot workers' forkserver as it starts: every worker forked from it begins
with the engine, the bots and each game's compiled search already loaded.

The worker pool grows when more computer turns are asked at once
(:mod:`ludoteca.web.round.bot_workers`). A worker that loaded all this itself spent 0.3 to
0.6 s of a core on its first turn, several seconds on a busy machine, and that turn's reply
came that late whatever its level's time. Loaded once in the forkserver, it is shared by the
workers' memory pages too. Nothing here may stop the forkserver: a game that cannot be made
ready is left to load in the worker that first plays it, as before.

The forkserver also opens a session of its own (:func:`own_session`).
"""

from __future__ import annotations

import logging
import os
from contextlib import suppress


def own_session() -> None:
    """Put the forkserver in a session apart from the server's: the workers it forks share it,
    but for the first few, which open their own (:data:`.seats.OWN_SESSIONS`).

    Where Linux groups the processes of each session for its scheduler (``sched_autogroup``,
    on by default on desktop and many server kernels), a group's share of a busy machine is
    one session's, however many processes it holds. In the server's session, a worker at nice
    10 waited behind every burst of the server's own work, and the searches ran past their
    deadline by 0.2-0.56 s at the p99 (Comune ``medium``, 50 members, two cores kept busy by
    other work: ``bench/club_budgets.py``). Each worker in a session of its own ended that,
    but the many workers of long levels then outweighed the server. A session's weight can
    be set (``/proc/self/autogroup``), but without privilege the kernel takes such a change
    only ten times a second for the whole machine, too seldom for a pool of workers. Without
    session groups (a service in its own control group) none of this changes anything, and
    the workers' nice value keeps the server first."""
    with suppress(OSError):
        os.setsid()


def preload() -> None:
    """Import what a worker's turn uses and make each game's levels ready (their compiled
    playouts loaded from numba's cache: :meth:`ludoteca.bots.base.Bot.warm_up`)."""
    from ludoteca.bots import make_bot
    from ludoteca.bots.levels import LEVELS
    from ludoteca.core.registry import get, names
    from ludoteca.record import to_table  # noqa: F401 - what every turn replays with

    for name in names():
        try:
            state = get(name).new_state(seed=1)
            for level in LEVELS:
                make_bot(level).warm_up(state)
        except Exception:  # noqa: BLE001 - see the module text
            logging.getLogger("ludoteca.web").warning(
                "bot workers: %s not made ready ahead", name, exc_info=True
            )


own_session()
preload()
