"""The compiled Comune kernel: :mod:`.flat` compiled by numba, function for function.

Each function of :mod:`.flat` is compiled from its own code
(:func:`ludoteca.core.compiled.compile_functions`, as every game's kernel is), so the kernel
places, blocks, ends turns, scores and plays its random games with exactly the code the
engine and the tests run; ``popcount`` and ``low_index`` become the CPU's instructions.
numba's on-disk cache beside ``flat.py`` means compilation is paid once per machine, not
once per process.

Importing numba is slow, so the engine imports this module only when a fast playout or the
benchmark kernel is asked for.
"""

from __future__ import annotations

import types
from functools import cache

import numpy as np

from ludoteca.core import xorshift
from ludoteca.core.compiled import compile_functions, in_batches

from . import flat, geometry

CPU = ("popcount", "low_index")
"""The functions of :mod:`.flat` that compile to a CPU instruction."""

HOT = (
    *CPU,
    "put",
    "placement_mask",
    "can_place",
    "is_opening",
    "end_turn",
    "max_group",
    "score",
    "largest_group",
    "winner",
    "rng_next",
    "rng_seed",
    "rand_at",
    "seed_at",
    "nth_cell",
    "nth_placement",
    "drawn",
    "put_noted",
    "second_piece",
    "turn",
    "uniform_second",
    "uniform_turn",
    "random_turn",
    "search_playout",
    "playout_batch",
    "legal_masks",
    "scores",
    "can_place_both",
    "turn_count",
    "nth_turn",
    "placement_codes",
)
"""The functions of :mod:`.flat` (and of :mod:`ludoteca.core.xorshift`) the kernel compiles."""

SEED_MASK = (1 << 63) - 1

NO_TRACE = np.empty(0, dtype=np.int64)
"""The trace of a playout that notes nothing."""


@cache
def compiled() -> types.SimpleNamespace:
    """The :data:`HOT` functions of :mod:`.flat`, compiled (once per process).

    Once compiled, the engine's states list and play turns with them too
    (:func:`.state.use_compiled`)."""
    from .state import use_compiled

    kernel = compile_functions((xorshift, flat), HOT, cpu=CPU)
    # compiled (or loaded from the cache) here, where warm-ups call this, rather than in the
    # first timed move whose states call them
    kernel.nth_turn(3, 5, 6, True, kernel.turn_count(3, 5, 6, True) - 1)
    kernel.placement_codes(3, 5, 6, np.empty(flat.PLACEMENT_CODES, np.int64))
    kernel.scores(np.zeros(flat.SLOTS, np.int64))  # a finished game's result
    use_compiled(kernel)
    return kernel


def new_trace() -> np.ndarray:
    """Room for every placement of a game and their count (see :func:`.flat.search_playout`)."""
    return np.zeros(2 * geometry.PIECES_PER_PLAYER + 1, dtype=np.int64)


def to_array(slots, seed: int = 0) -> np.ndarray:
    """A kernel array of the engine's ``slots``, its generator seeded from ``seed``."""
    s = np.empty(flat.KERNEL_SLOTS, dtype=np.int64)
    s[: flat.SLOTS] = slots
    xorshift.seed_at(s, flat.RNG, seed)
    return s


def bench(seed: int, seconds: float) -> tuple[int, int]:
    """Uniform random games from the start for about ``seconds``: ``(games, turns)``.

    Games are played in batches inside compiled code; the clock is read between batches."""
    k = compiled()
    start = to_array(flat.new_slots())
    s = start.copy()
    k.playout_batch(start, s, 1, 1)  # compile (or load from cache) outside the timing
    games = [seed & SEED_MASK]

    def play(n: int) -> int:
        turns, _, _, _ = k.playout_batch(start, s, games[0], n)
        games[0] = (games[0] + n) & SEED_MASK
        return turns

    return in_batches(play, seconds, first=200, largest=100_000)
