"""The compiled Kuniumi kernel: :mod:`.flat` compiled by numba, function for function.

Each function of :mod:`.flat` is compiled from its own code
(:func:`ludoteca.core.compiled.compile_functions`), so the kernel runs exactly the source the
engine runs, and numba's on-disk cache (kept beside ``flat.py``) means compilation is paid
once per machine, not once per process.

Importing numba is slow, so the engine imports this module only when a fast playout or the
benchmark kernel is asked for.
"""

from __future__ import annotations

import types
from functools import cache

import numpy as np

from ludoteca.core import xorshift
from ludoteca.core.compiled import compile_functions, in_batches

from . import flat

HOT = (
    "neighbours",
    "fill",
    "popcount",
    "square_of",
    "nth_square",
    "lines_of",
    "closed_pieces",
    "largest_group",
    "outcome",
    "outcome_after",
    "after_god_move",
    "setup_kind",
    "kind_side",
    "setup_targets",
    "god_targets",
    "policy_targets",
    "rng_next",
    "rng_seed",
    "pick_index",
    "playout",
    "run_games",
    "empty_count",
    "tt_index",
    "first_look",
    "bound_entry",
    "push_child",
    "solve",
)
"""The functions of :mod:`.flat` that the kernel compiles."""

TRACE_LENGTH = 64
"""Room for every action of one game (at most 37) in a playout trace."""


@cache
def compiled() -> types.SimpleNamespace:
    """The :data:`HOT` functions of :mod:`.flat`, compiled (once per process).

    Once compiled, the engine's states step God moves with them too
    (:func:`.state.use_compiled`)."""
    from .state import use_compiled

    kernel = compile_functions((xorshift, flat), HOT)
    # compiled (or loaded from the cache) here, where warm-ups call this, rather than in the
    # first timed move whose states call them
    kernel.after_god_move(1, 0, 1, 1, 1)
    kernel.setup_targets(0, 0, flat.EARTH_GOD)
    use_compiled(kernel)
    return kernel


def new_trace() -> np.ndarray:
    return np.zeros(TRACE_LENGTH, dtype=np.int64)


def playout_kernel(seed: int, seconds: float) -> tuple[int, int]:
    """Uniform random complete games from the empty board for ``seconds``: ``(games, moves)``.

    Moves count every action: six placements, the side choice and the God moves. Games are
    played in batches inside compiled code; the clock is read between batches.
    """
    k = compiled()
    trace = new_trace()
    state = [k.rng_seed(seed)]

    def play(n: int) -> int:
        plies, state[0] = k.run_games(state[0], n, trace)
        return plies

    return in_batches(play, seconds, first=64, largest=1 << 16)
