"""The compiled Hexagone kernel: :mod:`.flat` compiled by numba, function for function.

Each function of :mod:`.flat` is compiled from its own code
(:func:`ludoteca.core.compiled.compile_functions`, as Kuniumi's kernel is), so numba's
on-disk cache beside ``flat.py`` means compilation is paid once per machine, not once per
process.

Importing numba is slow (a third of a second and more), so nothing imports this module at
start-up: the engine asks for it only when a fast playout or the benchmark kernel is
wanted, and the command line stays quick.

This is the *fastest path* of ``ludoteca bench hexagone`` and of the search's playout
(:func:`.ai.playout`); the engine itself (and the bots' one-move draws,
:mod:`.kernel`) stays on dictionaries, where the rules are easiest to read and check. The
tests replay traced kernel games move by move through the engine.
"""

from __future__ import annotations

import threading
import types
from functools import cache

import numpy as np

from ludoteca.core import xorshift
from ludoteca.core.compiled import compile_functions, in_batches

from . import flat
from .notation import PIECES_PER_COLOUR
from .state import HexagoneState

HOT = (
    "rng_next",
    "rng_seed",
    "rand_at",
    "seed_at",
    "rand",
    "seed",
    "init",
    "new_stamp",
    "put",
    "take",
    "recolour",
    "clear",
    "engine_cell",
    "grid_cell",
    "put_all",
    "recentre",
    "add_support",
    "weight",
    "encloses",
    "grow_shape",
    "colour_shape",
    "new_game",
    "start_block",
    "flood_group",
    "label_sections",
    "to_pool",
    "from_pool",
    "begin_reform",
    "memo_has",
    "memo_add",
    "place",
    "unplace",
    "gather",
    "open_frame",
    "feasible",
    "pick_placement",
    "find_mains",
    "finish",
    "end_turn",
    "choose_main",
    "after_capture",
    "swap",
    "list_swaps",
    "nth_piece",
    "record",
    "step",
    "playout",
    "run_games",
)
"""The functions of :mod:`.flat` that the kernel compiles."""

TRACE_MOVES = 4096
"""Room in a trace for every move of a game (the engine bounds a game at 4,000 moves)."""


@cache
def compiled() -> types.SimpleNamespace:
    """The :data:`HOT` functions of :mod:`.flat`, compiled (once per process)."""
    return compile_functions((xorshift, flat), HOT)


def new_array() -> np.ndarray:
    """A fresh game array (see :mod:`.flat`), its board empty."""
    g = np.zeros(flat.size(), dtype=np.int64)
    compiled().init(g)
    return g


def new_trace(moves: int = TRACE_MOVES) -> np.ndarray:
    return np.zeros(3 * moves, dtype=np.int64)


@cache
def _shared() -> tuple[np.ndarray, np.ndarray]:
    """One game array and trace per process for fast playouts (allocating the 3 MB array and
    its Zobrist keys for every playout would cost more than the playout)."""
    return new_array(), new_trace(0)


_STARTS_LOCK = threading.Lock()


@cache
def _starts() -> tuple[np.ndarray, np.ndarray]:
    """A game array and room for a block's pairs, where :func:`start_state` draws blocks
    (its own: a playout running on :func:`_shared`'s array in another thread is left be)."""
    return new_array(), np.zeros(2 * 7 * PIECES_PER_COLOUR, dtype=np.int64)


def _start_pairs(seed: int, players: int, gaps: int) -> list[int]:
    """The compiled :func:`.flat.start_block` drawn from ``seed``: the block's (packed cell,
    colour) pairs, flat; none if no block could be drawn."""
    kernel = compiled()
    with _STARTS_LOCK:
        g, out = _starts()
        n = int(kernel.start_block(g, seed, players, gaps, out))
        return out[: 2 * n].tolist()


def warm_start_blocks() -> None:
    """Compile (or load from numba's cache) what :func:`start_state` calls, here rather than
    in an agent's first reset."""
    _start_pairs(0, 2, 0)


def start_state(game, seed: int) -> HexagoneState:
    """A new game of ``game`` whose start block the kernel draws from ``seed``
    (:func:`.flat.start_block`): the research adapters' start positions.

    The engine's own generator (:mod:`.setup`, what ``game.new_state`` draws) takes about a
    quarter of a millisecond a block in Python: a tenth of a PettingZoo episode's steps of
    about 20 µs each. The kernel grows and colours a block by the same method in compiled
    code, so an environment's reset no longer weighs on its steps. A seed gives the same
    block whether or not the kernel is compiled (its plain functions run the same code), but
    not the block ``game.new_state`` gives for it: the two generators draw different random
    numbers. Any block either draws obeys the setup rules (tested)."""
    pairs = _start_pairs(seed, game.num_players, int(game.gaps))
    if not pairs:  # pragma: no cover - never seen (a thousand shapes, twenty colourings each)
        raise RuntimeError("could not generate a start block")
    return game.starting_with(dict(sorted(zip(pairs[::2], pairs[1::2], strict=True))))


def cells_of(g: np.ndarray) -> dict[int, int]:
    """The pieces on the table, as the engine's ``cells`` (packed cell -> colour)."""
    k = compiled()
    n = int(g[flat.SC + flat.NPIECES])
    out = {}
    for i in range(n):
        c = int(g[flat.PIECES + i])
        out[int(k.engine_cell(g, c))] = int(g[flat.COL + c])
    return dict(sorted(out.items()))


def pool_of(g: np.ndarray) -> list[int]:
    return [int(v) for v in g[flat.POOL : flat.POOL + 7]]


def captured_of(g: np.ndarray) -> list[list[int]]:
    n = int(g[flat.SC + flat.NPLAYERS])
    return [[int(v) for v in g[flat.CAPT + 8 * p : flat.CAPT + 8 * p + 7]] for p in range(n)]


def traced_moves(trace: np.ndarray, plies: int) -> list[tuple]:
    """The move values written to ``trace`` by a playout of ``plies`` moves."""
    arity = (3, 3, 1, 1, 2, 3)
    out = []
    for i in range(plies):
        kind, x, y = (int(v) for v in trace[3 * i : 3 * i + 3])
        out.append((kind, x, y)[: arity[kind]])
    return out


def fits(state) -> bool:
    """Does the block of ``state`` fit the grid's centre (:data:`.flat.LO` to
    :data:`.flat.HI`)? Every position of a game does (see :mod:`.flat`); a position written
    by hand may scatter its sections far apart."""
    from .geometry import coords

    points = [coords(c) for c in state.cells]
    qs = [q for q, _ in points]
    rs = [r for _, r in points]
    return not points or max(max(qs) - min(qs), max(rs) - min(rs)) <= flat.HI - flat.LO


def load(g: np.ndarray, state) -> None:
    """Put a :class:`~.state.HexagoneState` (not over, :func:`fits`) into the game array."""
    from .geometry import coords
    from .state import PHASES

    k = compiled()
    k.clear(g)
    points = [coords(c) for c in state.cells] or [(0, 0)]
    qs = [q for q, _ in points]
    rs = [r for _, r in points]
    sc = flat.SC
    g[sc + flat.OQ] = flat.CENTRE - (min(qs) + max(qs)) // 2
    g[sc + flat.OR] = flat.CENTRE - (min(rs) + max(rs)) // 2
    k.put_all(
        g,
        np.fromiter(state.cells.keys(), np.int64, len(state.cells)),
        np.fromiter(state.cells.values(), np.int64, len(state.cells)),
        len(state.cells),
    )
    for colour in range(7):
        g[flat.POOL + colour] = state.pool[colour]
    for p, pile in enumerate(state.captured):
        for colour in range(7):
            g[flat.CAPT + 8 * p + colour] = pile[colour]
    g[sc + flat.NPLAYERS] = len(state.captured)
    g[sc + flat.PHASE] = PHASES.index(state.phase)
    g[sc + flat.DICE_A], g[sc + flat.DICE_B] = state.dice if state.dice else (-1, -1)
    g[sc + flat.ROLLED] = state.rolled
    g[sc + flat.ROLLS_LEFT] = -1 if state.rolls_left is None else state.rolls_left
    g[sc + flat.SINCE] = state.since
    g[sc + flat.PLAYER] = state.player
    g[sc + flat.REASON] = flat.NOT_OVER
    if state.phase == "main":
        k.label_sections(g)
        k.find_mains(g)
    elif state.phase == "reform":
        k.begin_reform(g)


def payoffs(captured: list[list[int]]) -> tuple[float, ...]:
    """Each player's share of the point, from the captured piles (the engine's ranking:
    most pieces, then most of one colour; ties share)."""
    keys = [(sum(p), max(p)) for p in captured]
    best = max(keys)
    winners = [i for i, key in enumerate(keys) if key == best]
    return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(len(keys)))


def fast_playout(state, rng) -> tuple[float, ...]:
    """Payoffs of one uniform random playout of ``state`` (unchanged) by the kernel, its
    generator seeded from ``rng`` so that a seeded caller stays deterministic."""
    k = compiled()
    if not fits(state):  # the engine's playout: faster than flat code in Python,
        # and unbounded for a hand-written position whose sections lie far apart
        from .kernel import random_playout

        probe = state.clone()
        random_playout(probe, rng)
        return probe.result.payoffs()
    g, trace = _shared()
    load(g, state)
    k.seed(g, rng.getrandbits(32))
    g[flat.SC + flat.TRACE_CAP] = 0
    if k.playout(g, trace) < 0:  # pragma: no cover - the rules guarantee a move
        raise RuntimeError("the Hexagone kernel met a position without a legal move")
    return payoffs(captured_of(g))


def playout_kernel(players: int, gaps: bool):
    """``f(seed, seconds) -> (games, moves)``: random complete games of ``players`` players
    from fresh start blocks, played in batches inside compiled code (the clock is read
    between batches)."""

    def run(seed: int, seconds: float) -> tuple[int, int]:
        k = compiled()
        g, trace = new_array(), new_trace(0)
        k.seed(g, seed)
        return in_batches(lambda n: k.run_games(g, n, players, int(gaps), trace), seconds)

    return run
