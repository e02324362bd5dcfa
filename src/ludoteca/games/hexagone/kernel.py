"""Uniform random play straight on the engine's internals, for benchmarks and search.

The policy is the protocol's: chance by its probabilities, every other move uniform over the
legal moves. Two shortcuts keep the distribution and save the work:

- a roll is drawn as two physical dice, retaken while neither colour is in the block, which
  is exactly the renormalised distribution the chance node lists;
- a swap is drawn without listing the swaps (see :func:`_random_swap`);
- a reform placement is drawn uniformly from the placements the setup rules allow and kept
  if the rest of the pool can still be placed, else struck off and drawn again: uniform
  over the legal placements, without testing every candidate.
"""

from __future__ import annotations

import random
import time

from .geometry import NEIGHBOURS
from .notation import AGAIN, MAIN, PLACE, ROLL, STOP, SWAP
from .state import MAIN_PHASE, OVER, REFORM, ROLL_PHASE, SECOND, HexagoneState


def random_move(state: HexagoneState, rng: random.Random) -> tuple:
    """One move drawn by the random policy (the state is not changed)."""
    phase = state.phase
    if phase == ROLL_PHASE:
        counts = state.counts
        bits = rng.getrandbits
        while True:
            a = bits(3)  # rng.randrange(6), written out: the same draws, no call overhead
            while a >= 6:
                a = bits(3)
            b = bits(3)
            while b >= 6:
                b = bits(3)
            if counts[a] or counts[b]:
                return (ROLL, a, b) if a <= b else (ROLL, b, a)
    if phase == SECOND:
        return (AGAIN,) if rng.random() < 0.5 else (STOP,)
    if phase == MAIN_PHASE:
        return (MAIN, rng.choice(state.main_choices()))
    if phase == REFORM:
        search = state.search()
        options = search.options()
        while True:
            k, c = options.pop(rng.randrange(len(options)))
            if search.remaining() == 1 or search.placement_ok(k, c):
                return (PLACE, k, c)
    return _random_swap(state, rng)


def _random_swap(state: HexagoneState, rng: random.Random) -> tuple:
    """A swap uniform over the legal swaps, without listing them.

    On a double, a piece of the doubled colour and any piece of another colour are drawn
    independently (every pair once). Otherwise a piece is drawn, kept if it has a rolled
    colour (so it is uniform over those), and a direction drawn and kept when the neighbour
    there has another colour; a pair of two rolled colours can be drawn from either end, so
    it is kept half the time: every legal pair has the same chance. Drawing among all pieces
    and striking off the others spares listing the rolled ones at every swap.
    """
    a, b = state.dice  # type: ignore[misc]
    cells = state.cells
    randrange = rng.randrange
    if a == b:
        mine = [c for c, k in cells.items() if k == a]
        others = [c for c, k in cells.items() if k != a]
        x, y = mine[randrange(len(mine))], others[randrange(len(others))]
        return (SWAP, x, y) if x < y else (SWAP, y, x)
    pieces = list(cells)
    size = len(pieces)
    width = size.bit_length()
    bits = rng.getrandbits
    get = cells.get
    for _ in range(100_000):
        i = bits(width)  # rng.randrange(size) and rng.randrange(6), written out
        if i >= size:
            continue
        c = pieces[i]
        k = cells[c]
        if k != a and k != b:
            continue
        d = bits(3)
        while d >= 6:
            d = bits(3)
        n = c + NEIGHBOURS[d]
        j = get(n)
        if j is None or j == k:
            continue
        if j in (a, b) and rng.random() < 0.5:
            continue
        return (SWAP, c, n) if c < n else (SWAP, n, c)
    swaps = state.swap_list()  # pragma: no cover - a legal swap always exists
    return swaps[randrange(len(swaps))]


def random_playout(state: HexagoneState, rng: random.Random) -> int:
    """Play the state to its end by the random policy; return the number of moves."""
    count = 0
    while state.phase != OVER:
        state.apply(random_move(state, rng))
        count += 1
    return count


def kernel(make_state):
    """``f(seed, seconds) -> (games, moves)``: complete random games from fresh start blocks."""

    def run(seed: int, seconds: float) -> tuple[int, int]:
        rng = random.Random(seed)
        games = moves = 0
        deadline = time.perf_counter() + seconds
        while True:
            state = make_state(rng.getrandbits(32))
            moves += random_playout(state, rng)
            games += 1
            if time.perf_counter() >= deadline:
                return games, moves

    return run


__all__ = ["kernel", "random_move", "random_playout"]
