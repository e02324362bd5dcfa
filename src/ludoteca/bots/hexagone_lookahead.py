"""Hexagone for the search: what the next rolls can capture, and a playout policy.

The search (:mod:`ludoteca.bots.mcts`) judges a Hexagone position where it cuts a playout,
and starts each move from a first judgment of the position it leads to. A race for captured
pieces is about

- **the scores**: pieces captured so far;
- **prospects**: what the player to move can expect to capture this turn, and the next
  player after them if they miss. Every roll allows some swaps, and the board decides which
  of them complete a group of three; so the expected best capture over the roll's outcomes
  (with the second roll taken when the first captures nothing) is what the last move left.
  A position where the opponent rolls next with groups of two waiting beside a piece of
  their colour is worth less than the same scores with nothing in reach;
- **what is left**: a lead of four pieces decides little while thirty pieces remain and
  nearly everything when eight do.

Each player's expected total (captured + prospects) goes through a softmax whose temperature
grows with the square root of the pieces still to be captured (a race of random captures
spreads like that), giving win shares inside the heuristic range of
:mod:`ludoteca.bots.evaluation`. The constants were fitted (maximum likelihood) to the
outcomes of 1,500 two-player games in which both sides take the largest capture in reach.

This is a look ahead (an expectation over the next rolls, each answered by its best
capture), not the static evaluation of :mod:`ludoteca.bots.evaluation`: the ``greedy`` bot,
one ply and no search, keeps to the scores. A greedy bot reading these prospects is a far
stronger player than one reading the scores; the levels keep ``greedy`` as it is.

:func:`playout_move` is the playout policy the search uses with two or more players (see
:data:`ludoteca.bots.policies.PLAYOUT_MOVES`).
"""

from __future__ import annotations

import math

from ludoteca.games.hexagone.geometry import NEIGHBOURS
from ludoteca.games.hexagone.notation import PLACE, SWAP
from ludoteca.games.hexagone.playout import random_move
from ludoteca.games.hexagone.state import (
    MAIN_PHASE,
    REFORM,
    ROLL_PHASE,
    SMALL_BLOCK,
    SWAP_PHASE,
)

from .evaluation import MARGIN, generic

TEMPERATURE = 0.8
"""Softmax temperature per square root of the pieces still to be captured."""
TEMPERATURE_FLOOR = 2.0
"""Pieces added under the square root, so the very end is not infinitely sharp."""
PROSPECT_WEIGHT = 1.0
"""How much of an expected capture counts as already made."""
AFTER_CAPTURE = 0.25
"""The share of the next player's prospect still counted after the mover captures."""

_P_MIXED = 2 / 36
_P_DOUBLE = 1 / 36


def _group_size(cells: dict[int, int], start: int) -> int:
    colour = cells[start]
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for d in NEIGHBOURS:
            n = c + d
            if n not in seen and cells.get(n) == colour:
                seen.add(n)
                stack.append(n)
    return len(seen)


def _may_join(cells: dict[int, int], colour: int, target: int, source: int) -> bool:
    """Could a piece of ``colour`` moved from ``source`` to ``target`` make a group of 3+?
    (A quick necessary condition: some other piece of that colour touches ``target``.)"""
    for d in NEIGHBOURS:
        n = target + d
        if n != source and cells.get(n) == colour:
            return True
    return False


def swap_gain(cells: dict[int, int], c1: int, c2: int) -> int:
    """Pieces captured by swapping the pieces on ``c1`` and ``c2`` (``cells`` is restored)."""
    k1, k2 = cells[c1], cells[c2]
    j1 = _may_join(cells, k1, c2, c1)
    j2 = _may_join(cells, k2, c1, c2)
    if not (j1 or j2):
        return 0
    cells[c1], cells[c2] = k2, k1
    gain = 0
    if j2:
        s = _group_size(cells, c1)
        if s >= 3:
            gain += s
    if j1:
        s = _group_size(cells, c2)
        if s >= 3:
            gain += s
    cells[c1], cells[c2] = k1, k2
    return gain


def capture_swaps(cells: dict[int, int], a: int, b: int) -> tuple[int, list[tuple]]:
    """The largest capture the roll ``a b`` allows and the swaps that make it (none: 0, [])."""
    best, out = 0, []
    get = cells.get
    if a == b:
        return _double_captures(cells, a)
    packed: dict[int, int] = {}  # per cell: 3 bits per colour, how many touching pieces

    def around(c: int) -> int:
        p = packed.get(c)
        if p is None:
            p = 0
            for d in NEIGHBOURS:
                k = get(c + d)
                if k is not None:
                    p += 1 << 3 * k
            packed[c] = p
        return p

    for c, k in cells.items():
        if k != a and k != b:
            continue
        for d in NEIGHBOURS:
            n = c + d
            j = get(n)
            if j is None or j == k or (j in (a, b) and n < c):
                continue
            # k onto n needs another k touching n (c itself is one); j onto c likewise
            if (around(n) >> 3 * k & 7) < 2 and (around(c) >> 3 * j & 7) < 2:
                continue
            g = swap_gain(cells, c, n)
            if g and g >= best:
                if g > best:
                    best, out = g, []
                out.append((SWAP, c, n) if c < n else (SWAP, n, c))
    return best, out


def _double_captures(cells: dict[int, int], a: int) -> tuple[int, list[tuple]]:
    """:func:`capture_swaps` on a double of ``a``: a piece of ``a`` with any other piece.

    Only pairs where some side's estimated group (:func:`_joined`) reaches three are tried."""
    best, out = 0, []
    get = cells.get
    label, sizes = _groups(cells)
    mine = [c for c, k in cells.items() if k == a]
    # what a piece of colour k arriving where a piece of a stands would join (an upper
    # bound: the piece it is swapped with is not left out)
    back: list[list[int]] = []
    for x in mine:
        joined = [0] * 7
        seen: list[int] = []
        for d in NEIGHBOURS:
            n = x + d
            k = get(n)
            if k is not None and k != a and label[n] not in seen:
                seen.append(label[n])
                joined[k] += sizes[label[n]]
        back.append(joined)
    for y, k in cells.items():
        if k == a:
            continue
        # the piece of a arriving on y joins the groups of a touching y
        groups = []
        for d in NEIGHBOURS:
            n = y + d
            if get(n) == a:
                g = label[n]
                if g not in groups:
                    groups.append(g)
        joined = sum(sizes[g] for g in groups)
        for x, there in zip(mine, back, strict=True):
            if joined + (0 if label[x] in groups else 1) < 3 and there[k] < 2:
                continue
            g = swap_gain(cells, x, y)
            if g and g >= best:
                if g > best:
                    best, out = g, []
                out.append((SWAP, x, y) if x < y else (SWAP, y, x))
    return best, out


def _groups(cells: dict[int, int]) -> tuple[dict[int, int], list[int]]:
    """Each cell's group index, and each group's size."""
    label: dict[int, int] = {}
    sizes: list[int] = []
    for start, colour in cells.items():
        if start in label:
            continue
        g = len(sizes)
        label[start] = g
        stack = [start]
        size = 1
        while stack:
            c = stack.pop()
            for d in NEIGHBOURS:
                n = c + d
                if n not in label and cells.get(n) == colour:
                    label[n] = g
                    size += 1
                    stack.append(n)
        sizes.append(size)
    return label, sizes


def _joined(cells, label, sizes, colour: int, target: int, source: int) -> int:
    """The group a piece of ``colour`` from ``source`` would make on ``target`` (estimate)."""
    groups = []
    for d in NEIGHBOURS:
        n = target + d
        if n != source and cells.get(n) == colour:
            g = label[n]
            if g not in groups:
                groups.append(g)
    size = 1 + sum(sizes[g] for g in groups)
    if label.get(source) in groups:
        size -= 1
    return size


def roll_prospects(cells: dict[int, int]) -> tuple[float, float]:
    """Over one roll: the expected best capture and the chance of capturing at all.

    A piece of colour ``k`` brought onto a cell joins every group of ``k`` touching it; from
    a touching cell it leaves its own group one smaller (the group is taken as it was, a
    close estimate: a piece whose leaving splits its group is rare). Every roll's best is
    read from these per-cell figures instead of trying its swaps."""
    label, sizes = _groups(cells)
    count = [0] * 7
    for k in cells.values():
        count[k] += 1
    near = [0] * 7  # best capture by a swap of touching pieces, per colour taking part
    far = [0] * 7  # best capture by a double's swap across the block, per doubled colour
    get = cells.get
    for t, j in cells.items():
        around = []  # (cell, colour, group) of the touching pieces of other colours
        for d in NEIGHBOURS:
            n = t + d
            k = get(n)
            if k is not None and k != j:
                around.append((n, k, label[n]))
        kinds: dict[int, list[int]] = {}
        for _, k, g in around:
            seen = kinds.get(k)
            if seen is None:
                kinds[k] = [g]
            elif g not in seen:
                seen.append(g)
        for k, groups in kinds.items():
            joined = sum(sizes[g] for g in groups)
            if joined >= 3:  # a touching piece of k moves in: its group is one smaller
                if joined > near[k]:
                    near[k] = joined
                if joined > near[j]:
                    near[j] = joined
            if joined >= 2:  # a piece of k from elsewhere, on a double of k or of j
                gain = joined + 1 if count[k] > joined else joined
                if gain >= 3:
                    if gain > far[k]:
                        far[k] = gain
                    if gain > far[j]:
                        far[j] = gain
        # swaps with a touching piece where the piece of j completes a group there
        for s, k, _ in around:
            if s < t:
                continue
            back = _joined(cells, label, sizes, j, s, t)
            if back < 3:
                continue
            ahead = _joined(cells, label, sizes, k, t, s)
            gain = back + (ahead if ahead >= 3 else 0)
            if gain > near[k]:
                near[k] = gain
            if gain > near[j]:
                near[j] = gain
    expected = chance = total = 0.0
    for a in range(6):
        for b in range(a, 6):
            if not (count[a] or count[b]):
                continue
            if a == b:
                p = _P_DOUBLE
                g = max(near[a], far[a])
            else:
                p = _P_MIXED
                g = max(near[a], near[b])
            total += p
            if g:
                expected += p * g
                chance += p
    if total == 0:
        return 0.0, 0.0
    return expected / total, chance / total


def turn_prospects(state) -> tuple[int, float, float]:
    """(player to move, what they can expect to capture this turn, what the next player can
    expect to capture in their turn after it).

    Both are read from the board as it stands. A turn whose rolls capture nothing leaves it
    much as it was, so whatever the mover fails to take the next player may; a capture takes
    the best group away and reforms the block, after which only :data:`AFTER_CAPTURE` of the
    next player's prospect is counted (the main block and reform phases come after one)."""
    phase = state.phase
    player = state.player
    expected, chance = roll_prospects(state.cells)
    whole_turn = expected * (2.0 - chance)  # a first roll, and a second if it misses
    if phase in (MAIN_PHASE, REFORM):
        return player, 0.0, AFTER_CAPTURE * whole_turn
    if phase == SWAP_PHASE:  # the dice are known
        a, b = state.dice
        best, _ = capture_swaps(state.cells, a, b)
        if best:
            return player, float(best), AFTER_CAPTURE * whole_turn
        if state.rolled >= 2:
            return player, 0.0, whole_turn
        mine, hits = expected, chance  # the second roll is still to come
    elif phase == ROLL_PHASE and state.rolled == 0:
        mine, hits = whole_turn, 1.0 - (1.0 - chance) ** 2
    else:
        mine, hits = expected, chance
    return player, mine, whole_turn * (1.0 - hits + hits * AFTER_CAPTURE)


def playout_move(state, rng) -> tuple:
    """The search's playout policy: the largest capture the dice allow, else a random move.

    Uniform random swaps almost never capture, so playouts by them miss what a position
    gives away; every player worth the name takes a capture in reach, and so do these."""
    if state.phase == SWAP_PHASE:
        a, b = state.dice
        _, swaps = capture_swaps(state.cells, a, b)
        if swaps:
            return swaps[rng.randrange(len(swaps))]
    elif state.phase == REFORM:  # any completion will do, and the first found is cheap
        placements = state.search().completion()
        if placements:
            c, k = placements[0]
            return (PLACE, k, c)
    return random_move(state, rng)


def lookahead_value(state) -> tuple[float, ...]:
    """Each player's share of the game, from the scores, the prospects and what is left
    (the result once over; the score in the solo puzzle, as :func:`generic` gives it)."""
    n = state.num_players
    if n == 1 or state.is_over:
        return generic(state)
    strength = [float(sum(pile)) for pile in state.captured]
    player, mine, next_ = turn_prospects(state)
    strength[player] += PROSPECT_WEIGHT * mine
    strength[(player + 1) % n] += PROSPECT_WEIGHT * next_
    left = len(state.cells) + sum(state.pool) - SMALL_BLOCK
    temperature = TEMPERATURE * math.sqrt(max(left, 0) + TEMPERATURE_FLOOR)
    top = max(strength)
    weights = [math.exp((s - top) / temperature) for s in strength]
    total = sum(weights)
    span = 1.0 - n * MARGIN
    return tuple(MARGIN + span * w / total for w in weights)


__all__ = [
    "capture_swaps",
    "lookahead_value",
    "playout_move",
    "roll_prospects",
    "swap_gain",
    "turn_prospects",
]
