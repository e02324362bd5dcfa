"""The compiled Comino playout: :mod:`.flat` compiled by numba, function for function.

Each function of :mod:`.flat` is compiled from its own code
(:func:`ludoteca.core.compiled.compile_functions`, as Kuniumi's and Hexagone's kernels
are), so numba's on-disk cache beside ``flat.py`` means compilation is paid once per
machine, not once per process.

**Why.** The search spends nearly all of its time in playouts: in a Comino search at one
second, nine tenths of the time went to :mod:`.kernel`'s pure-Python playouts (each
placement the best-scoring of ten, so ten colour-area searches a turn), and the search ran
about as many simulations a second as OpenSpiel's ``MCTSBot`` does with its much cheaper
random rollouts. Compiled, a playout costs a small fraction of the tree's own work.

Importing numba is slow, so nothing imports this module at start-up: the state asks for it
when a playout is wanted. For a position this grid cannot hold (one still being dealt,
or a hand-written one whose tiles lie far out) the state plays out with
:mod:`.kernel` instead, by the same policy. The tests replay traced kernel games move by move
through the engine.
"""

from __future__ import annotations

import random
import types
from functools import cache

import numpy as np

from ludoteca.core import xorshift
from ludoteca.core.compiled import compile_functions, in_batches

from . import flat
from .geometry import ORIENTED, ORIENTED_INDEX, TILES
from .notation import DRAWS, TURNS

HOT = (
    "rng_next",
    "rng_seed",
    "rand_at",
    "seed_at",
    "rand",
    "seed",
    "init",
    "clear",
    "put",
    "fits",
    "gain",
    "list_options",
    "drop",
    "playout",
    "load",
    "play_from",
    "deal",
    "run_games",
)
"""The functions of :mod:`.flat` that the kernel compiles."""

_TILE_INDEX = {name: i for i, name in enumerate(TILES)}
_NO_TRACE = np.zeros(0, dtype=np.int64)


@cache
def compiled() -> types.SimpleNamespace:
    """The :data:`HOT` functions of :mod:`.flat`, compiled (once per process)."""
    return compile_functions((xorshift, flat), HOT)


@cache
def _shared() -> np.ndarray:
    """The process's game array, reused by every playout (each clears what it placed)."""
    g = np.zeros(flat.size(), dtype=np.int64)
    compiled().init(g)
    return g


def fits(state) -> bool:
    """Whether :mod:`.flat` can play ``state`` out: the deal is over and no tile can reach the
    grid's edge in the turns left."""
    if state.draws < DRAWS:
        return False
    reach = flat.REACH - (TURNS - state.turns)
    return all(abs(x) <= reach and abs(y) <= reach for x, y in state.board)


def arrays(state) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``state`` as :func:`.flat.load` takes it."""
    tiles = []
    for (x, y), oriented in state.board.items():
        tiles.append(flat.grid_square(x, y))
        tiles.append(ORIENTED_INDEX[oriented])
    hands = []
    for hand in state.hands:
        hands.append(len(hand))
        hands.extend(_TILE_INDEX[name] for name in sorted(hand))
    return (
        np.array(tiles, dtype=np.int64),
        np.array(hands, dtype=np.int64),
        np.array((state.score[0], state.score[1], state.turns), dtype=np.int64),
    )


def playout_scores(
    state, rng: random.Random, best_of: int = 1, trace: np.ndarray | None = None
) -> tuple[int, int] | None:
    """Final scores of one playout of ``state`` (unchanged) by the compiled kernel, its
    generator seeded from ``rng``; ``None`` where it cannot (see :func:`fits`), and the
    caller plays out with :mod:`.kernel`."""
    k = compiled()
    if not fits(state):
        return None
    g = _shared()
    tiles, hands, scalars = arrays(state)
    into = _NO_TRACE if trace is None else trace
    made = k.play_from(g, tiles, hands, scalars, rng.getrandbits(32), best_of, into)
    if made < 0:
        return None
    return int(g[flat.SC + flat.SCORE]), int(g[flat.SC + flat.SCORE + 1])


def trace_moves(trace: np.ndarray, turns: int) -> list[str]:
    """The first ``turns`` turns of a trace, in notation."""
    out = []
    for k in range(turns):
        sq, o = int(trace[2 * k]), int(trace[2 * k + 1])
        if sq < 0:
            out.append(f"remove {TILES[o]}")
        else:
            x, y = flat.rules_square(sq)
            out.append(f"{ORIENTED[o]}@{x},{y}")
    return out


def playout_kernel(seed: int, seconds: float) -> tuple[int, int]:
    """Random complete games (deal included) in compiled code for ``seconds``: ``(games,
    moves)``, the moves counting the 21 draws and the 22 turns of each game. Games are
    played in batches, the clock read between them."""
    k = compiled()
    g = np.zeros(flat.size(), dtype=np.int64)
    k.init(g)
    k.seed(g, seed)
    return in_batches(lambda n: k.run_games(g, n, _NO_TRACE), seconds)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel, untimed, by one playout of a dealt
    game."""
    from ludoteca.core.registry import get
    from ludoteca.core.table import resolve_chance

    state = get("comino").new_state(seed=1)
    resolve_chance(state, random.Random(1))
    playout_scores(state, random.Random(1), best_of=2)
