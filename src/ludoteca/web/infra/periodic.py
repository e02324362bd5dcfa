"""The club's background watches: find games that need something, then do it to each.

Every server process runs the same watches on the shared database (clocks that ran out,
computer turns left behind by a dead process); what each does to a game is safe to do twice,
so any number of processes may find the same game.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable

import anyio

log = logging.getLogger("ludoteca.web")


async def watch(
    find: Callable[[], list[int]],
    act: Callable[[int], Awaitable[None] | None],
    interval: float,
    what: str,
) -> None:
    """Forever: run ``find`` in a thread (it reads the database), ``act`` on each game it
    returns, then wait ``interval`` seconds. A failure is logged and the watch goes on: a
    database hiccup must not stop it for good."""
    while True:
        try:
            for pk in await anyio.to_thread.run_sync(find):
                done = act(pk)
                if inspect.isawaitable(done):
                    await done
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed; trying again", what)
        await asyncio.sleep(interval)
