"""Round-robin: everyone meets everyone (Berger tables), or tables of three or four.

:func:`berger` is the classic schedule of FIDE's Berger tables (the circle method): ``n``
players (one more, "nobody", if ``n`` is odd, whose opponent sits out) in ``n - 1`` rounds
(``n`` if odd), every pair once, each player's first and second seats within one.

:func:`tables` is for games of more players (Hexagone at three or four): each round splits
the players into tables of ``size`` (and ``size - 1`` where the numbers ask for it, if the
game allows that many), and the rounds are chosen so that every two players share a table
as evenly as the numbers allow: the number of rounds makes the meetings add up to about one
per pair, and a local search (seeded, so the same players get the same schedule) swaps
players between tables while that makes the counts of pairs' meetings more even.
"""

from __future__ import annotations

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
    played by); a player at no table sits out that round."""
    if size == 2:
        return berger(players)
    n = len(players)
    sizes = table_sizes(n, size, smallest)
    if not sizes:
        raise ValueError(f"{n} players cannot fill a table of {size}")
    seated = sum(sizes)
    pairs_per_round = sum(s * (s - 1) // 2 for s in sizes)
    rounds = max(1, math.ceil(n * (n - 1) / 2 / pairs_per_round))
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    for more in range(n):  # more rounds only while some pair could not meet
        for attempt in range(RESTARTS):
            rng = random.Random(f"ludoteca-tables:{n}:{size}:{seed}:{more}:{attempt}")
            split = _start(n, rounds + more, sizes, rng)
            low, high = _even_out(split, n - seated, rng)
            if best is None or (-low, high) < best[0]:
                best = ((-low, high), split)
            if high - low <= 1 and low >= 1:
                break
        if best is not None and best[0][0] <= -1:
            break
    assert best is not None
    return [[tuple(players[i] for i in sorted(t)) for t in at] for at in best[1]]


RESTARTS = 3
"""Fresh starts of the search for each number of rounds (it can settle in a local best)."""


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


SEARCH_STEPS = 4_000
"""Swaps tried by :func:`_even_out`: 20,000 found no more even counts for ten players or
fewer, and took seconds where these take a fraction of one."""


def _even_out(split: list[list[list[int]]], resting: int, rng: random.Random) -> tuple[int, int]:
    """Swap players between two tables of a round (or a table and those sitting out, where
    everyone still sits out as often as the others within one) while the sum of the
    squares of how often each pair meets does not grow (the sum is least when the counts
    are most even). Each round's last list is who sits out. Returns the fewest and the most
    meetings of a pair."""
    met: Counter = Counter()
    sat_out: Counter = Counter()
    n = sum(len(t) for t in split[0])
    for at in split:
        for t in at[:-1]:
            for a, b in combinations(t, 2):
                met[_pair(a, b)] += 1
        for x in at[-1]:
            sat_out[x] += 1

    def change(x: int, y: int, here: list[int], there: list[int]) -> int:
        """The sum's change when x (of ``here``) and y (of ``there``) swap tables."""
        delta = 0
        touched: Counter = Counter()
        for z in here:
            if z != x:
                touched[_pair(x, z)] -= 1
                touched[_pair(y, z)] += 1
        for z in there:
            if z != y:
                touched[_pair(y, z)] -= 1
                touched[_pair(x, z)] += 1
        for pair, d in touched.items():
            delta += (met[pair] + d) ** 2 - met[pair] ** 2
        return delta

    groups = len(split[0]) if resting else len(split[0]) - 1
    for _ in range(SEARCH_STEPS if groups > 1 else 0):
        at = split[rng.randrange(len(split))]
        i, j = rng.sample(range(groups), 2)
        x_at, y_at = rng.randrange(len(at[i])), rng.randrange(len(at[j]))
        x, y = at[i][x_at], at[j][y_at]
        rest = len(at) - 1
        if rest in (i, j):
            if j == rest:
                i, j, x_at, y_at, x, y = j, i, y_at, x_at, y, x
            if _swap_with_rest(met, sat_out, n, at[j], x, y):
                at[i][x_at], at[j][y_at] = y, x
            continue
        if change(x, y, at[i], at[j]) <= 0:
            for z in at[i]:
                if z != x:
                    met[_pair(x, z)] -= 1
                    met[_pair(y, z)] += 1
            for z in at[j]:
                if z != y:
                    met[_pair(y, z)] -= 1
                    met[_pair(x, z)] += 1
            at[i][x_at], at[j][y_at] = y, x
    counts = [met[pair] for pair in combinations(range(n), 2)]
    for at in split:
        at.pop()  # who sits out: whoever is at no table
    return min(counts), max(counts)


def _swap_with_rest(met: Counter, sat_out: Counter, n: int, table: list[int], x, y) -> bool:
    """Let ``x``, sitting out, take ``y``'s place at ``table`` if everyone still sits out as
    often as the others within one and the pairs' meetings get no less even (the counts
    are updated; the caller moves the two)."""
    after = sat_out.copy()
    after[x] -= 1
    after[y] += 1
    if max(after[p] for p in range(n)) - min(after[p] for p in range(n)) > 1:
        return False
    others = [z for z in table if z != y]
    delta = sum(
        (met[_pair(y, z)] - 1) ** 2
        - met[_pair(y, z)] ** 2
        + (met[_pair(x, z)] + 1) ** 2
        - met[_pair(x, z)] ** 2
        for z in others
    )
    if delta > 0:
        return False
    for z in others:
        met[_pair(y, z)] -= 1
        met[_pair(x, z)] += 1
    sat_out.clear()
    sat_out.update(after)
    return True


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)
