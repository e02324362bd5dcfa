"""Arena (lichess's): a fixed duration, and whoever finishes a game is paired again at once.

Points: a win 2, a draw 1, a loss 0; after two wins in a row a player is *on fire* and
scores double (4 a win, 2 a draw) until a game that is not a win. Free players are paired by
a maximum-weight matching (networkx, as for :mod:`.swiss`) that keeps opponents close in the
standings and avoids meeting the last opponent again, as lichess's arena pairs its waiting
players: not first come, first served, which pairs the leader with whoever happened to
finish at the same moment. A player left over waits for the next pairing; a paused player is
not paired until they come back.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

from ludoteca.tournaments.results import Played
from ludoteca.tournaments.seats import SeatBalance

WIN_POINTS = 2
DRAW_POINTS = 1
FIRE_AFTER = 2
"""Wins in a row after which wins and draws count double."""
REMATCH_PENALTY = 10_000
"""Meeting one's last opponent again costs more than any gap in the standings can."""
CHUNK = 40
"""Free players matched at once. The matching takes time cubic in its players: at the start
of an arena of 500, all free, one matching took seconds; players are matched among their
neighbours in the standings anyway, so the free players, in standings order, are matched
in consecutive groups of this many (a 40-player matching takes a few milliseconds)."""


@dataclass
class ArenaLine:
    points: int = 0
    streak: int = 0
    """Wins in a row up to now."""
    last_opponent: Hashable | None = None
    sheet: list[int] = field(default_factory=list)
    """Points of each game in order (lichess's score sheet)."""

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


def arena_points(played: Iterable[Played]) -> dict[Hashable, ArenaLine]:
    """Every player's arena points, from the games in the order they ended."""
    lines: dict[Hashable, ArenaLine] = {}
    for g in played:
        if g.is_bye:
            continue
        for p, pts in zip(g.players, g.points, strict=True):
            line = lines.setdefault(p, ArenaLine())
            factor = 2 if line.on_fire else 1
            if pts >= 1.0:
                gained = WIN_POINTS * factor
                line.streak += 1
            elif pts > 0.0:
                gained = DRAW_POINTS * factor
                line.streak = 0
            else:
                gained = 0
                line.streak = 0
            line.points += gained
            line.sheet.append(gained)
            others = g.opponents(p)
            line.last_opponent = others[0] if len(others) == 1 else None
    return lines


def pair_arena(
    free: Sequence[Hashable], ranking: Sequence[Hashable], played: Iterable[Played]
) -> list[tuple[Hashable, Hashable]]:
    """Pairs among the ``free`` players (first seat first); ``ranking`` is every player,
    best first (the standings). An odd player out is left for the next pairing."""
    games = list(played)
    if len(set(free)) != len(free):
        raise ValueError("a player is listed twice")
    if len(free) < 2:
        return []
    place = {p: i for i, p in enumerate(ranking)}
    lines = arena_points(games)
    seats = SeatBalance(games)
    if len(free) > CHUNK:
        ordered = sorted(free, key=lambda p: place.get(p, len(ranking)))
        pairs: list[tuple[Hashable, Hashable]] = []
        for start in range(0, len(ordered), CHUNK):
            pairs += _match(ordered[start : start + CHUNK], place, lines, seats, len(ranking))
        return pairs
    return _match(list(free), place, lines, seats, len(ranking))


def _match(free, place, lines, seats, ranked: int) -> list[tuple[Hashable, Hashable]]:
    graph = nx.Graph()
    top = REMATCH_PENALTY * 2 + ranked + len(free)
    for a, b in combinations(free, 2):
        gap = abs(place.get(a, ranked) - place.get(b, ranked))
        again = (a in lines and lines[a].last_opponent == b) or (
            b in lines and lines[b].last_opponent == a
        )
        graph.add_edge(a, b, weight=top - gap - (REMATCH_PENALTY if again else 0))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    order = {p: i for i, p in enumerate(free)}
    pairs = []
    for a, b in matching:
        if place.get(b, 0) < place.get(a, 0):
            a, b = b, a
        pairs.append(seats.order(a, b))
    pairs.sort(key=lambda pair: min(order[pair[0]], order[pair[1]]))
    return pairs
