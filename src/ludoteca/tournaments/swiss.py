"""Swiss pairings by a maximum-weight matching.

Each round is a maximum-weight perfect matching (networkx's ``max_weight_matching``, Edmonds'
blossom algorithm, exact on integer weights) over every pair of players plus a "bye" vertex
when their number is odd. Chosen over a hand-written pairer, and over the FIDE Dutch
system's many-page procedure, because a matching finds the best pairing of the whole field
at once: a greedy pairer that takes the top player's best opponent first can leave the last
two to meet again, or give a second bye, which a matching never does while a better
pairing exists. (lichess's arena pairs by a weighted matching for the same reason.)

The weight of each pair is a sum of penalties in tiers, each tier larger than everything
below it can add up to across the whole round, so the matching settles them in order:

1. a second bye while someone has had none (the bye goes to whoever has had fewest);
2. two players meeting again;
3. a seat imbalance of two (both have had the same seat once more than the other);
4. the difference of their scores (squared: two pairs one point apart beat one pair two
   points apart), and for the bye, the score of who takes it (the lowest placed);
5. both wanting the same seat.

Seats follow :class:`~.seats.SeatBalance`. Only two-player games are paired here; tables of
three or four meet by :mod:`.roundrobin`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations

import networkx as nx

from ludoteca.tournaments.results import Played
from ludoteca.tournaments.seats import SeatBalance


class _Bye:
    """The bye vertex (one object, never equal to a player)."""

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "<bye>"


BYE_VERTEX = _Bye()


def pair_swiss(
    players: Sequence[Hashable], played: Iterable[Played], round_number: int
) -> tuple[list[tuple[Hashable, Hashable]], Hashable | None]:
    """The pairs of round ``round_number`` (first seat first) and who has the bye, if any.

    ``players``: who is paired this round (withdrawn players left out), best placed first
    where it matters for ties. ``played``: every earlier game and bye."""
    games = list(played)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) < 2:
        return [], (players[0] if players else None)
    score: dict[Hashable, float] = defaultdict(float)
    met: Counter = Counter()
    byes: Counter = Counter()
    for g in games:
        for p, pts in zip(g.players, g.points, strict=True):
            score[p] += pts
        if g.is_bye:
            byes[g.players[0]] += 1
        for a, b in combinations(g.players, 2):
            met[frozenset((a, b))] += 1
    seats = SeatBalance(games)
    n = len(players) + 1
    halves = {p: round(2 * score[p]) for p in players}
    low = min(halves.values())
    spread = max(halves.values()) - low
    t4 = 2 * n  # preference clash <= 1 per pair
    t3 = t4 * ((spread + 1) ** 2 + 1) * n
    t2 = t3 * 3 * n
    t1 = t2 * (max(met.values(), default=0) + 1) * n
    least = min(byes[p] for p in players)
    top = t1 * (max(byes.values(), default=0) + 2) * n * 4
    graph = nx.Graph()
    for a, b in combinations(players, 2):
        penalty = (
            t2 * met[frozenset((a, b))]
            + t3 * seats.clash(a, b)
            + t4 * (halves[a] - halves[b]) ** 2
            + seats.preference_clash(a, b)
        )
        graph.add_edge(a, b, weight=top - penalty)
    if len(players) % 2:
        for p in players:
            penalty = t1 * (byes[p] - least) + t4 * (halves[p] - low) * (spread + 1)
            graph.add_edge(p, BYE_VERTEX, weight=top - penalty)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    order = {p: i for i, p in enumerate(players)}
    pairs: list[tuple[Hashable, Hashable]] = []
    bye: Hashable | None = None
    for a, b in matching:
        if a is BYE_VERTEX or b is BYE_VERTEX:
            bye = b if a is BYE_VERTEX else a
            continue
        if order[b] < order[a]:
            a, b = b, a
        pairs.append(seats.order(a, b, a_first_on_tie=round_number % 2 == 1))
    pairs.sort(key=lambda pair: min(order[pair[0]], order[pair[1]]))
    return pairs, bye
