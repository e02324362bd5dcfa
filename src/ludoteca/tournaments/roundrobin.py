"""Round-robin: everyone meets everyone (Berger tables), or tables of three or four.

:func:`berger` is the classic schedule of FIDE's Berger tables (the circle method): ``n``
players (one more, "nobody", if ``n`` is odd, whose opponent sits out) in ``n - 1`` rounds
(``n`` if odd), every pair once, each player's first and second seats within one.

:func:`tables` is for games of more players (Hexagone at three or four): each round splits
the players into tables of ``size`` (and ``size - 1`` where the numbers ask for it, if the
game allows that many), and every two players share a table as evenly as the numbers allow.
The design (:func:`design`) takes the fewest rounds in which every pair meets and no two
pairs' meetings differ by more than one, found by simulated annealing that minimises the sum
of the squares of the pairs' meetings (least exactly when they are most even); the seed only
chooses who takes which place in it. Every field of 3 to 10 reaches that bound but six
players at tables of three: there five rounds with meetings 1 to 3 are the best five rounds
can do (every choice of five rounds was tried), and meetings within one would take nine.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import combinations

MIN_PLAYERS = 3
MAX_PLAYERS = 10


def berger(players: Sequence[Hashable]) -> list[list[tuple[Hashable, ...]]]:
    """Every round's tables (pairs, first seat first; a player alone sits out)."""
    field: list[Hashable | None] = list(players)
    if len(field) % 2:
        field.append(None)
    n = len(field)
    rounds = []
    ring = list(range(n))
    for r in range(n - 1):
        pairs: list[tuple[Hashable, ...]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if i == 0 and r % 2 == 1:
                a, b = b, a  # the fixed player alternates seats
            pa, pb = field[a], field[b]
            if pa is None or pb is None:
                pairs.append((pb if pa is None else pa,))
            else:
                pairs.append((pa, pb))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def smallest_table(size: int) -> int:
    """The fewest players at a table of a round-robin of ``size``: one fewer at tables of
    four (a table of three where the numbers ask for it), none fewer at tables of two or
    three (a game of three is not played heads-up; someone sits out instead)."""
    return size - 1 if size >= 4 else size


def table_sizes(n: int, size: int, smallest: int) -> list[int]:
    """How ``n`` players sit at tables of ``size`` (or ``size - 1`` when that is at least
    ``smallest``): as many seated as can be, then as many full tables as can be."""
    best: list[int] = []
    small = size - 1 if size - 1 >= max(smallest, 2) else None
    for full in range(n // size, -1, -1):
        rest = n - full * size
        smaller = rest // small if small else 0
        sizes = [size] * full + [small] * smaller if small else [size] * full
        if sum(sizes) > sum(best):
            best = sizes
    return best


def tables(
    players: Sequence[Hashable], size: int, smallest: int, seed: int = 0
) -> list[list[tuple[Hashable, ...]]]:
    """Rounds of tables for games of ``size`` players (``smallest`` the fewest the game is
    played by); a player at no table sits out that round. The design depends only on the
    numbers (it is searched once and kept); ``seed`` chooses who takes which place in it."""
    if size == 2:
        return berger(players)
    n = len(players)
    sizes = table_sizes(n, size, smallest)
    if not sizes:
        raise ValueError(f"{n} players cannot fill a table of {size}")
    places = list(range(n))
    random.Random(f"ludoteca-places:{n}:{size}:{seed}").shuffle(places)
    return [
        [tuple(players[places[i]] for i in table) for table in at] for at in design(n, tuple(sizes))
    ]


@functools.cache
def design(n: int, sizes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The fewest rounds of tables of ``sizes`` for players ``0..n-1`` in which every pair
    meets and the pairs' meetings differ by at most one (or, where no number of rounds up to
    ``n`` more than the least reaches that, every pair meeting and the spread least), each
    player sitting out as often as the others within one. Searched (seeded, so always the
    same) by :func:`_anneal`; the tests check the bound for every field of 3 to 10."""
    pairs_per_round = sum(s * (s - 1) // 2 for s in sizes)
    least = max(1, math.ceil(n * (n - 1) / 2 / pairs_per_round))
    fallback: tuple[int, list[list[list[int]]]] | None = None
    for rounds in range(least, least + n):
        found: tuple[tuple[int, int, int], list[list[list[int]]]] | None = None
        for attempt in range(RESTARTS):
            rng = random.Random(f"ludoteca-tables:{n}:{sizes}:{rounds}:{attempt}")
            split = _start(n, rounds, list(sizes), rng)
            low, high, squares = _anneal(split, n, rng)
            score = (-min(low, 1), high - low, squares)
            if found is None or score < found[0]:
                found = (score, split)
            if low >= 1 and high - low <= 1:
                break
        assert found is not None
        (zero, spread, _), split = found
        if zero == -1 and spread <= 1:
            return _frozen(split)
        if zero == -1 and (fallback is None or spread < fallback[0]):
            fallback = (spread, split)
    assert fallback is not None, "every pair meets once the rounds are many enough"
    return _frozen(fallback[1])


def _frozen(split: list[list[list[int]]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The rounds' tables (who sits out, each round's last list, left out), sorted."""
    return tuple(tuple(tuple(sorted(t)) for t in at[:-1]) for at in split)


RESTARTS = 4
"""Fresh starts of the search for each number of rounds (it can settle in a local best)."""

SEARCH_STEPS = 6_000
"""Swaps tried by :func:`_anneal` per start."""


def _start(n: int, rounds: int, sizes: list[int], rng: random.Random) -> list[list[list[int]]]:
    """Random tables for every round, the players sitting out taking turns; the last list
    of each round is who sits out."""
    sat_out: Counter = Counter()
    split = []
    resting_count = n - sum(sizes)
    for _ in range(rounds):
        resting = sorted(range(n), key=lambda i: (sat_out[i], rng.random()))[:resting_count]
        for i in resting:
            sat_out[i] += 1
        order = [i for i in range(n) if i not in resting]
        rng.shuffle(order)
        at, start = [], 0
        for s in sizes:
            at.append(order[start : start + s])
            start += s
        split.append(at + [resting])
    return split


def _anneal(split: list[list[list[int]]], n: int, rng: random.Random) -> tuple[int, int, int]:
    """Simulated annealing over swaps of two players of one round between two of its tables
    (or a table and those sitting out, where everyone still sits out as often as the others
    within one), lowering the sum of the squares of how often each pair meets: with the
    number of meetings fixed by the rounds, that sum is least exactly when the counts are
    as even as they can be (none apart by more than one), which makes the least count as
    high and the most as low as they can be. A worse swap is taken now and then, less and
    less often, so the search leaves the local bests that a greedy one settles in. Leaves
    the best split found in ``split``; returns its fewest and most meetings of a pair and
    its sum of squares."""
    met = [[0] * n for _ in range(n)]
    sat_out = [0] * n
    for at in split:
        for t in at[:-1]:
            for a, b in combinations(t, 2):
                met[a][b] += 1
                met[b][a] += 1
        for x in at[-1]:
            sat_out[x] += 1
    squares = sum(met[a][b] ** 2 for a, b in combinations(range(n), 2))
    best = (squares, [[list(t) for t in at] for at in split])
    resting = len(split[0][-1])
    groups = len(split[0]) if resting else len(split[0]) - 1
    if groups < 2:
        return _spread(met, n) + (squares,)
    heat = 2.0
    cooling = (0.02 / heat) ** (1 / SEARCH_STEPS)
    for _ in range(SEARCH_STEPS):
        heat *= cooling
        at = split[rng.randrange(len(split))]
        i, j = rng.sample(range(groups), 2)
        here, there = at[i], at[j]
        xi, yi = rng.randrange(len(here)), rng.randrange(len(there))
        x, y = here[xi], there[yi]
        rest = len(at) - 1
        if rest in (i, j):
            out, seat = (x, y) if i == rest else (y, x)
            after_out, after_seat = sat_out[out] - 1, sat_out[seat] + 1
            others = [sat_out[p] for p in range(n) if p not in (out, seat)]
            counts = [*others, after_out, after_seat]
            if max(counts) - min(counts) > 1:
                continue
        delta = 0
        if i != rest:
            delta += sum(2 * (met[y][z] - met[x][z]) + 2 for z in here if z != x)
        if j != rest:
            delta += sum(2 * (met[x][z] - met[y][z]) + 2 for z in there if z != y)
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        if i != rest:
            _move(met, x, y, [z for z in here if z != x])
        if j != rest:
            _move(met, y, x, [z for z in there if z != y])
        here[xi], there[yi] = y, x
        if rest == i:
            sat_out[x] -= 1
            sat_out[y] += 1
        elif rest == j:
            sat_out[y] -= 1
            sat_out[x] += 1
        squares += delta
        if squares < best[0]:
            best = (squares, [[list(t) for t in at] for at in split])
    split[:] = best[1]
    recount = [[0] * n for _ in range(n)]
    for at in split:
        for t in at[:-1]:
            for a, b in combinations(t, 2):
                recount[a][b] += 1
                recount[b][a] += 1
    return _spread(recount, n) + (best[0],)


def _move(met: list[list[int]], leaving: int, coming: int, others: list[int]) -> None:
    """``leaving`` leaves a table of ``others`` and ``coming`` takes the place."""
    for z in others:
        met[leaving][z] -= 1
        met[z][leaving] -= 1
        met[coming][z] += 1
        met[z][coming] += 1


def _spread(met: list[list[int]], n: int) -> tuple[int, int]:
    counts = [met[a][b] for a, b in combinations(range(n), 2)]
    return min(counts), max(counts)
