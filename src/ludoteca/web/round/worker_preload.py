"""Imported by the bot workers' forkserver as it starts: every worker forked from it begins
with the engine, the bots and each game's compiled search already loaded.

The worker pool grows when more computer turns are asked at once
(:mod:`ludoteca.web.round.bot_workers`). A worker that loaded all this itself spent 0.3 to
0.6 s of a core on its first turn, several seconds on a busy machine, and that turn's reply
came that late whatever its level's time. Loaded once in the forkserver, it is shared by the
workers' memory pages too. Nothing here may stop the forkserver: a game that cannot be made
ready is left to load in the worker that first plays it, as before.
"""

from __future__ import annotations

import logging


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


preload()
