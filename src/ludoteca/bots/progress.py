"""Where a timed search tells the move it would play so far.

A search stops at its deadline, but only when its process runs: on a machine whose other
work holds the process up, its answer comes late however carefully it kept its time. A
caller that must answer by a deadline of its own (the club's computer seats,
:mod:`ludoteca.web.round.leading`) can ask the search, through :func:`leading_moves`, to tell
it now and then which move leads; when the answer is late it plays that one instead of
waiting. The search tells it from its own thread, so the sink is kept per thread and costs
a search that nobody asked nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ludoteca.core.protocol import Move

Sink = Callable[[Move], None]

REPORT_SHARE = 1 / 10
"""How often a search tells its leading move: as soon as one leads (after its first
simulations), then after each such share of its time budget (a tenth of a second at
``hard``). Finding the leading move walks the root's children, a fraction of a millisecond
where they number thousands (a Comune turn). Told that early, a worker held up for the rest
of its time still leaves the server a move to play on time, the best its search had found."""

_local = threading.local()


@contextmanager
def leading_moves(sink: Sink) -> Iterator[None]:
    """Searches run by this thread inside the block call ``sink(move)`` with the move they
    would play, at once and then every :data:`REPORT_SHARE` of their time budget (searches
    without one, and bots that do not search, never call it)."""
    before = getattr(_local, "sink", None)
    _local.sink = sink
    try:
        yield
    finally:
        _local.sink = before


def sink() -> Sink | None:
    """The sink of :func:`leading_moves` this thread is inside, if any."""
    return getattr(_local, "sink", None)
