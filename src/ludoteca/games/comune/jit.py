"""Compiled random playouts for benchmarks and search.

The rules arithmetic is not rewritten here: the functions of :mod:`.flat` are registered
with numba (``register_jitable``) and compiled into the kernels, so the kernel places,
blocks, ends turns and scores with exactly the code the Python engine runs. Only the
random policy and the random number generator live here.

Random policy (the one of ``shared/limits/limit_comune.c``): each turn places as many
pieces as allowed, each uniformly among the legal ``(cell, angle)`` pairs (the second at
another angle than the first); the side passes only when it cannot place.

Importing this module imports numba, so the engine imports it lazily.

numba's on-disk cache (``cache=True``) is keyed by this file alone, not by the modules whose
code it compiles in; :func:`_drop_stale_cache` removes the cached kernels when :mod:`.flat` or
:mod:`.geometry` changed since they were compiled, so an edit there can never run stale code.
It looks where numba keeps them (:func:`_cache_folder`): beside this file, or where the
install is read-only ``$NUMBA_CACHE_DIR`` or the user's cache folder.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.core import errors as numba_errors
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload, register_jitable

from . import flat, geometry
from .flat import OVER, PENDING, PIECES, SUPPLY, TO_MOVE, can_place, end_turn, placement_mask, put
from .geometry import NEIGH


def _drop_stale_cache(folder: Path) -> None:
    """Delete this module's numba cache files in ``folder`` if the rules code changed since
    they were made."""
    try:
        digest = hashlib.sha256(
            Path(flat.__file__).read_bytes() + Path(geometry.__file__).read_bytes()
        ).hexdigest()
        stamp = folder / "kernel.rules-digest"
        if stamp.is_file() and stamp.read_text() == digest:
            return
        for path in folder.glob("kernel.*.nb[ic]"):
            path.unlink(missing_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a cache folder that cannot be written: numba caches nothing there
        pass


def _cache_folder(kernel) -> Path:
    """The folder numba keeps the compiled ``kernel`` (a function of this module) in.

    Beside this file in ``__pycache__`` where that is writable; else ``$NUMBA_CACHE_DIR``
    if set, else the user's cache folder (numba's own choice, in that order), so an install
    the user cannot write to still compiles once, not on every start.
    """
    try:
        return Path(kernel._cache.cache_path)
    except AttributeError:  # a numba without that attribute: its default place
        return Path(__file__).parent / "__pycache__"


@intrinsic
def _ctpop(typingctx, src):
    """The CPU's population count for an integer."""
    if not isinstance(src, types.Integer):
        raise numba_errors.NumbaTypeError("popcount needs an integer")

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return src(src), codegen


@overload(flat.popcount)
def _popcount_compiled(x):
    def impl(x):
        return _ctpop(x)

    return impl


@overload(flat.low_index)
def _low_index_compiled(x):
    def impl(x):
        return trailing_zeros(x)

    return impl


for _function in (
    flat.put,
    flat.placement_mask,
    flat.can_place,
    flat.is_opening,
    flat.end_turn,
    flat.max_group,
    flat.score,
    flat.largest_group,
    flat.winner,
):
    register_jitable(_function)

popcount = flat.popcount
is_opening = flat.is_opening
winner = flat.winner


@njit(cache=True)
def _seeded(seed):
    """A generator state array from ``seed``, mixed by splitmix64 so close seeds differ."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = z | np.uint64(1)
    return rng


@njit(cache=True)
def _next(rng):
    """xorshift64 step on ``rng[0]`` (a uint64 array); returns the new value."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@njit(cache=True)
def _below(rng, n):
    """A uniform integer in ``[0, n)`` (n small: the modulo bias is below 2**-57)."""
    return np.int64(_next(rng) % np.uint64(n))


@njit(cache=True)
def _nth_cell(mask, k):
    """The index of the ``k``-th (0-based) cell of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return flat.low_index(mask)


@njit(cache=True, inline="always")
def _drawn(s, rng, player, m0, m1, m2, k):
    """A placement ``(cell, angle)`` drawn among the masks' pairs: uniformly with ``k`` 1, else
    the one of ``k`` uniform draws with the most of ``player``'s pieces at its angle around
    it (the first drawn on a tie), which grows groups as a player would. ``cell`` is -1 when
    the masks are empty."""
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    best_cell = -1
    best_angle = -1
    best = -1
    if total == 0:
        return best_cell, best_angle
    for _ in range(k):
        j = _below(rng, total)
        if j < c0:
            angle = 0
            cell = _nth_cell(m0, j)
        elif j < c0 + c1:
            angle = 1
            cell = _nth_cell(m1, j - c0)
        else:
            angle = 2
            cell = _nth_cell(m2, j - c0 - c1)
        if k == 1:
            return cell, angle
        near = popcount(NEIGH[cell] & s[PIECES + 3 * player + angle])
        if near > best:
            best = near
            best_cell = cell
            best_angle = angle
    return best_cell, best_angle


@njit(cache=True, inline="always")
def _put(s, player, cell, angle, trace):
    """Place the piece, noting ``player * 256 + placement code`` in ``trace`` if it has room
    (``trace[0]`` counts the notes, which follow it)."""
    put(s, player, cell, angle)
    if trace.size:
        trace[0] += 1
        trace[trace[0]] = player * 256 + 3 * cell + angle


@njit(cache=True, inline="always")
def _second_piece(s, rng, player, first_angle, k, trace):
    """Place the second piece of a turn at another angle, if any (see :func:`_drawn` for
    ``k``); return 1 or 0."""
    m0 = placement_mask(s, player, 0) if first_angle != 0 else 0
    m1 = placement_mask(s, player, 1) if first_angle != 1 else 0
    m2 = placement_mask(s, player, 2) if first_angle != 2 else 0
    cell, angle = _drawn(s, rng, player, m0, m1, m2, k)
    if cell < 0:
        return 0
    _put(s, player, cell, angle, trace)
    return 1


@njit(cache=True, inline="always")
def _turn(s, rng, k, trace):
    """One turn by the random policy (``k`` > 1: each placement the best of ``k`` draws, see
    :func:`_drawn`), its placements noted in ``trace`` (see :func:`_put`); the number of
    pieces placed."""
    player = s[TO_MOVE]
    if s[PENDING] >= 0:  # finish a turn begun one placement at a time
        placed = 1 + _second_piece(s, rng, player, s[PENDING], k, trace)
        end_turn(s, True)
        return placed
    m0 = placement_mask(s, player, 0)
    m1 = placement_mask(s, player, 1)
    m2 = placement_mask(s, player, 2)
    opening = is_opening(s)
    cell, angle = _drawn(s, rng, player, m0, m1, m2, k)
    if cell < 0:
        end_turn(s, False)  # forced pass
        return 0
    _put(s, player, cell, angle, trace)
    placed = 1
    if not opening and s[SUPPLY + player] > 0:
        placed += _second_piece(s, rng, player, angle, k, trace)
    end_turn(s, True)
    return placed


@njit(cache=True)
def _uniform_second(s, rng, player, first_angle):
    """Place the second piece of a turn uniformly at another angle, if any; return 1 or 0."""
    m0 = placement_mask(s, player, 0) if first_angle != 0 else 0
    m1 = placement_mask(s, player, 1) if first_angle != 1 else 0
    m2 = placement_mask(s, player, 2) if first_angle != 2 else 0
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    if total == 0:
        return 0
    k = _below(rng, total)
    if k < c0:
        put(s, player, _nth_cell(m0, k), 0)
    elif k < c0 + c1:
        put(s, player, _nth_cell(m1, k - c0), 1)
    else:
        put(s, player, _nth_cell(m2, k - c0 - c1), 2)
    return 1


@njit(cache=True)
def _uniform_turn(s, rng):
    """One turn by the uniform policy, noting nothing; the number of pieces placed.

    This is :func:`_turn` with ``k`` 1 and no trace, drawing the same numbers in the same
    order, written apart for speed: compiled for every policy and trace, the shared turn
    played uniform games at 0.77 of this one's rate (``python bench/compare.py`` of the two,
    ``playout_batch`` 344,600 against 448,300 games a second in one run)."""
    player = s[TO_MOVE]
    if s[PENDING] >= 0:  # finish a turn begun one placement at a time
        placed = 1 + _uniform_second(s, rng, player, s[PENDING])
        end_turn(s, True)
        return placed
    m0 = placement_mask(s, player, 0)
    m1 = placement_mask(s, player, 1)
    m2 = placement_mask(s, player, 2)
    c0 = popcount(m0)
    c1 = popcount(m1)
    total = c0 + c1 + popcount(m2)
    if total == 0:
        end_turn(s, False)  # forced pass
        return 0
    opening = is_opening(s)
    k = _below(rng, total)
    if k < c0:
        angle = 0
        cell = _nth_cell(m0, k)
    elif k < c0 + c1:
        angle = 1
        cell = _nth_cell(m1, k - c0)
    else:
        angle = 2
        cell = _nth_cell(m2, k - c0 - c1)
    put(s, player, cell, angle)
    placed = 1
    if not opening and s[SUPPLY + player] > 0:
        placed += _uniform_second(s, rng, player, angle)
    end_turn(s, True)
    return placed


@njit(cache=True)
def random_turn(s, rng, k=1):
    """Play one turn by the random policy (see :func:`_turn`); the number of pieces placed."""
    if k == 1:
        return _uniform_turn(s, rng)
    return _turn(s, rng, k, np.empty(0, dtype=np.int64))


@njit(cache=True)
def playout(s, seed):
    """Play ``s`` (changed in place) to the end by the uniform policy; return ``(winner,
    turns)``, ``winner`` 0 (Light), 1 (Dark) or -1 (draw)."""
    return search_playout(s, seed, 1, np.empty(0, dtype=np.int64))


@njit(cache=True)
def search_playout(s, seed, k, trace):
    """:func:`playout` for a search: ``k`` as in :func:`_turn`; ``trace`` (empty, or room
    for every placement and their count) gets the placements (see :func:`_put`)."""
    rng = _seeded(seed)
    turns = 0
    if trace.size:
        trace[0] = 0
    uniform = k == 1 and trace.size == 0
    while s[OVER] == 0:
        if uniform:
            _uniform_turn(s, rng)
        else:
            _turn(s, rng, k, trace)
        turns += 1
    return winner(s), turns


@njit(cache=True)
def playout_batch(start, seed, games):
    """Play ``games`` random games from ``start`` (unchanged).

    Returns ``(turns, placements, light_wins, dark_wins)`` summed over the games.
    """
    rng = _seeded(seed)
    s = start.copy()
    turns = 0
    placements = 0
    light = 0
    dark = 0
    for _ in range(games):
        s[:] = start
        while s[OVER] == 0:
            placements += _uniform_turn(s, rng)
            turns += 1
        w = winner(s)
        if w == 0:
            light += 1
        elif w == 1:
            dark += 1
    return turns, placements, light, dark


@njit(cache=True)
def legal_masks(s, player):
    """The three placement masks of ``player`` (for the differential tests)."""
    out = np.empty(3, dtype=np.int64)
    for angle in range(3):
        out[angle] = placement_mask(s, player, angle)
    return out


@njit(cache=True)
def scores(s):
    """``(light score, dark score, light largest group, dark largest group, winner)``."""
    return (
        flat.score(s, 0),
        flat.score(s, 1),
        flat.largest_group(s, 0),
        flat.largest_group(s, 1),
        winner(s),
    )


@njit(cache=True)
def can_place_both(s):
    return can_place(s, 0), can_place(s, 1)


SEED_MASK = (1 << 63) - 1


# once every cached kernel is defined and before any is called (numba reads its cache at a
# kernel's first call)
_drop_stale_cache(_cache_folder(playout))


NO_TRACE = np.empty(0, dtype=np.int64)
"""The trace of a playout that notes nothing."""


def new_trace() -> np.ndarray:
    """Room for every placement of a game and their count (see :func:`search_playout`)."""
    return np.zeros(2 * geometry.PIECES_PER_PLAYER + 1, dtype=np.int64)


def to_array(slots) -> np.ndarray:
    return np.asarray(slots, dtype=np.int64)


def bench(seed: int, seconds: float) -> tuple[int, int]:
    """Random games from the start for about ``seconds``: ``(games, turns)``."""
    return bench_detail(seed, seconds)[:2]


def bench_detail(seed: int, seconds: float) -> tuple[int, int, int, int, float]:
    """``(games, turns, placements, light_wins, elapsed seconds)`` of a timed run."""
    seed &= SEED_MASK  # any int seeds; the kernels take a non-negative int64
    start = to_array(flat.new_slots())
    playout_batch(start, 1, 1)  # compile (or load from cache) outside the timing
    games = turns = placements = light = 0
    batch = 200
    t0 = time.perf_counter()
    elapsed = 0.0
    while True:
        t, p, lw, _ = playout_batch(start, (seed + games) & SEED_MASK, batch)
        games += batch
        turns += t
        placements += p
        light += lw
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
        if elapsed < seconds / 20:
            batch = min(batch * 2, 100_000)
    return games, turns, placements, light, elapsed
