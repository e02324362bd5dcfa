"""Standings: points, then Buchholz, then Sonneborn-Berger, recounted from the results.

Buchholz is the sum of the final scores of a player's opponents (a strong field counts);
Sonneborn-Berger the sum, over the games, of each opponent's final score times the points
taken from that opponent (beating strong players counts most). A bye adds to a player's
points only: it has no opponent, so it adds nothing to either tie-break, as in the simple
forms most clubs use. A game of three or four counts each opponent at the table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from ludoteca.tournaments.results import Played


@dataclass
class Standing:
    player: Hashable
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    rank: int = 0
    extra: dict[str, float] = field(default_factory=dict)


def standings(
    players: Iterable[Hashable],
    played: Iterable[Played],
    points: Mapping[Hashable, float] | None = None,
) -> list[Standing]:
    """Every player's line, best first, ranked (equal lines share a rank).

    ``points`` replaces the game points as the first key (an arena's points, with its
    streak bonus); the tie-breaks are still counted from the game points."""
    games = list(played)
    table = {p: Standing(p) for p in players}
    for g in games:
        for p in g.players:
            table.setdefault(p, Standing(p))
    for g in games:
        for p, pts in zip(g.players, g.points, strict=True):
            line = table[p]
            line.points += pts
            if g.is_bye:
                line.byes += 1
                continue
            line.games += 1
            if pts >= 1.0:
                line.wins += 1
            elif pts > 0.0:
                line.draws += 1
            else:
                line.losses += 1
    score = {p: line.points for p, line in table.items()}
    for g in games:
        if g.is_bye:
            continue
        for p, pts in zip(g.players, g.points, strict=True):
            for q in g.opponents(p):
                table[p].buchholz += score[q]
                table[p].sonneborn_berger += score[q] * pts
    if points is not None:
        for p, line in table.items():
            line.extra["game_points"] = line.points
            line.points = float(points.get(p, 0.0))
    lines = sorted(table.values(), key=_key)
    for i, line in enumerate(lines):
        same = i > 0 and _key(lines[i - 1])[:3] == _key(line)[:3]
        line.rank = lines[i - 1].rank if same else i + 1
    return lines


def _key(line: Standing) -> tuple:
    return (-line.points, -line.buchholz, -line.sonneborn_berger, str(line.player))
