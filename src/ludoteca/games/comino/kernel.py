"""Fast uniform random playouts of Comino, for benchmarks and Monte-Carlo search.

Same rules and same random policy as playing ``rng.choice(state.legal_moves())`` through the
engine (every distinct placement equally likely, else every removal equally likely; the
deal uniform over the tiles not yet drawn), but on flat arrays instead of dicts of tuples:

* squares and grid points share one index ``(x + OFF) * W + (y + OFF)``; grid point ``i``
  is the bottom-left corner of square ``i``, so a square's corners are ``i + 1`` (TL),
  ``i + W + 1`` (TR), ``i + W`` (BR) and ``i`` (BL);
* the frontier is a dict from square to its packed corner pattern, updated for the eight
  squares around each placement, so a turn's legal placements are one ``FIT_MASK`` lookup
  and one ``&`` per frontier square;
* colour areas are searched through per-orientation tables of the squares a tile touches
  through its corners of each colour.

Pure Python reaches the benchmark target, but the search needs far more: its playouts and
``ludoteca bench``'s fastest path run in compiled code (:mod:`.flat`, :mod:`.jit`). This
kernel plays out what that one does not take (a game still being dealt).
"""

from __future__ import annotations

import random
import time

from .geometry import (
    COLOUR_CODE,
    DEALT_TILES,
    FIRST_TILE,
    FIT_MASK,
    NAME_MASK,
    ORIENTED,
    ORIENTED_CODES,
    ORIENTED_INDEX,
    ORIENTED_NAME,
    SECOND_TILE,
    linked_offsets,
)
from .notation import DRAWS, HAND_SIZE, TURNS

W = 64
OFF = 32
SIZE = W * W

_CORNER_POINT = (1, W + 1, W, 0)  # TL, TR, BR, BL as point offsets from the square
_SIDES = (1, W, -1, -W)
_AROUND = (1, W, -1, -W, W + 1, W - 1, -W + 1, -W - 1)


_LINKS_BY_COLOUR = tuple(
    {COLOUR_CODE[c]: tuple(sorted(dx * W + dy for dx, dy in linked_offsets(o, c))) for c in set(o)}
    for o in ORIENTED
)
"""Per oriented tile, per colour code it has: the offsets of the squares sharing such a
corner (:func:`.geometry.linked_offsets` on this grid)."""
_CODES = ORIENTED_CODES
_UNMASK = tuple(~NAME_MASK[n] for n in ORIENTED_NAME)
_NAME_INDEX = {n: i for i, n in enumerate(sorted(NAME_MASK))}
_NAMES = tuple(sorted(NAME_MASK))
_NAME_BITS = tuple(NAME_MASK[n] for n in _NAMES)


def _index(x: int, y: int) -> int:
    return (x + OFF) * W + (y + OFF)


def _coords(i: int) -> tuple[int, int]:
    return i // W - OFF, i % W - OFF


def _pick(options, total: int, rnd) -> tuple[int, int]:
    """A uniform random placement ``(square, orientation)`` of the ``total`` in ``options``."""
    r = int(rnd() * total)
    i = 0
    while r >= options[i][2]:
        r -= options[i][2]
        i += 1
    sq, m, _ = options[i]
    while r:
        m &= m - 1
        r -= 1
    return sq, (m & -m).bit_length() - 1


def _areas(occ, sq: int, o: int) -> int:
    """Points of the tile ``o`` lying on ``sq``: the size of each colour area it is part of,
    not counting itself."""
    links_of = _LINKS_BY_COLOUR
    gained = 0
    for c in links_of[o]:
        seen = {sq}
        stack = [sq]
        while stack:
            t = stack.pop()
            for d in links_of[occ[t]].get(c, ()):
                s = t + d
                if occ[s] >= 0 and s not in seen:
                    seen.add(s)
                    stack.append(s)
        gained += len(seen) - 1
    return gained


def _gain(occ, sq: int, o: int) -> int:
    """Points for laying ``o`` on the empty ``sq`` (``occ`` is left as it was)."""
    occ[sq] = o
    gained = _areas(occ, sq, o)
    occ[sq] = -1
    return gained


def _run(occ, pc, frontier, hands, score, turns, rnd, log, best_of: int = 1) -> int:
    """Play from ``turns`` turns done to the end; mutates everything; returns moves made.

    With ``best_of`` k > 1 each placement is the highest-scoring of k drawn uniformly (the
    first of them on a tie): playouts closer to how people play, at some k times the cost."""
    fit = FIT_MASK
    codes_of = _CODES
    made = 0
    while turns < TURNS:
        player = turns & 1
        hand = hands[player]
        hm = 0
        for n in hand:
            hm |= _NAME_BITS[n]
        total = 0
        options = []
        for sq, code in frontier.items():
            m = fit[code] & hm
            if m:
                k = m.bit_count()
                total += k
                options.append((sq, m, k))
        if not total:
            victim = hand[int(rnd() * len(hand))]
            hand.remove(victim)
            if log is not None:
                log.append(f"remove {_NAMES[victim]}")
        else:
            sq, o = _pick(options, total, rnd)
            if best_of > 1:
                gained = _gain(occ, sq, o)
                for _ in range(best_of - 1):
                    sq2, o2 = _pick(options, total, rnd)
                    g2 = _gain(occ, sq2, o2)
                    if g2 > gained:
                        sq, o, gained = sq2, o2, g2
            hand.remove(_NAME_INDEX[ORIENTED_NAME[o]])
            if log is not None:
                x, y = _coords(sq)
                log.append(f"{ORIENTED[o]}@{x},{y}")
            # put the tile down
            occ[sq] = o
            tl, tr, br, bl = codes_of[o]
            pc[sq + 1] = tl
            pc[sq + W + 1] = tr
            pc[sq + W] = br
            pc[sq] = bl
            del frontier[sq]
            for d in _SIDES:
                n = sq + d
                if occ[n] < 0:
                    frontier[n] = 0
            for d in _AROUND:
                n = sq + d
                if n in frontier:
                    frontier[n] = pc[n + 1] | pc[n + W + 1] << 2 | pc[n + W] << 4 | pc[n] << 6
            # score each colour's area, not counting the new tile
            if best_of <= 1:  # else known from the choice
                gained = _areas(occ, sq, o)
            score[player] += gained
        turns += 1
        made += 1
    return made


def _empty_table():
    return [-1] * SIZE, [0] * SIZE, {}


def _put_start(occ, pc, frontier, oriented: str, x: int = 0, y: int = 0) -> None:
    o = ORIENTED_INDEX[oriented]
    sq = _index(x, y)
    occ[sq] = o
    for k, p in enumerate(_CORNER_POINT):
        pc[sq + p] = _CODES[o][k]
    frontier.pop(sq, None)
    for d in _SIDES:
        if occ[sq + d] < 0:
            frontier[sq + d] = 0


def _refresh(pc, frontier) -> None:
    for n in frontier:
        frontier[n] = pc[n + 1] | pc[n + W + 1] << 2 | pc[n + W] << 4 | pc[n] << 6


def random_game(rng: random.Random, log: list[str] | None = None) -> tuple[int, int]:
    """One complete random game including the deal; returns the final scores.

    With ``log`` every move (the 21 draws, then the 22 turns) is appended in notation, so
    the engine can replay and check it.
    """
    tiles = list(DEALT_TILES)
    rng.shuffle(tiles)
    if log is not None:
        log.extend(f"deal {t}" for t in tiles)
    occ, pc, frontier = _empty_table()
    _put_start(occ, pc, frontier, tiles[0])
    _refresh(pc, frontier)
    hands = [
        [_NAME_INDEX[t] for t in tiles[1:HAND_SIZE]] + [_NAME_INDEX[FIRST_TILE]],
        [_NAME_INDEX[t] for t in tiles[HAND_SIZE:DRAWS]] + [_NAME_INDEX[SECOND_TILE]],
    ]
    score = [0, 0]
    _run(occ, pc, frontier, hands, score, 0, rng.random, log)
    return score[0], score[1]


def playout_from_state(
    state, rng: random.Random, log: list[str] | None = None, best_of: int = 1
) -> tuple[int, int]:
    """Final scores of one random playout from an engine state (left unchanged): uniform,
    or with ``best_of`` k > 1 each placement the best-scoring of k drawn (see :func:`_run`).

    With ``log`` the turns played are appended in notation (the remaining deal, if any, is
    drawn all at once and not logged).
    """
    occ, pc, frontier = _empty_table()
    for (x, y), tile in state.board.items():
        _put_start(occ, pc, frontier, tile, x, y)
    _refresh(pc, frontier)
    hands = [[_NAME_INDEX[n] for n in sorted(h)] for h in state.hands]
    if state.draws < DRAWS:
        used = set(state.board.values()) | state.hands[0] | state.hands[1]
        left = [t for t in DEALT_TILES if t not in used]
        rng.shuffle(left)
        if not state.board:
            _put_start(occ, pc, frontier, left.pop(0))
            _refresh(pc, frontier)
        need = 11 - len(hands[0])
        hands[0] += [_NAME_INDEX[t] for t in left[:need]]
        hands[1] += [_NAME_INDEX[t] for t in left[need:]]
        turns = 0
    else:
        turns = state.turns
    score = list(state.score)
    _run(occ, pc, frontier, hands, score, turns, rng.random, log, best_of)
    return score[0], score[1]


def playout_kernel(seed: int, seconds: float) -> tuple[int, int]:
    """Play random complete games (deal included) for ``seconds``: ``(games, moves)``.

    Moves count the 21 deal draws and the 22 turns of each game.
    """
    rng = random.Random(seed)
    games = moves = 0
    deadline = time.perf_counter() + seconds
    while True:
        random_game(rng)
        games += 1
        moves += 43
        if time.perf_counter() >= deadline:
            return games, moves
