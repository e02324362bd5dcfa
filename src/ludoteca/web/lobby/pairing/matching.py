"""Who may be paired with whom: the pool's rules, as pure functions over the waiting seeks.

As lichess's pool: each seeker accepts opponents within a rating range around their own,
:data:`BASE_RANGE` at first and widening by :data:`WIDEN_PER_SECOND` while they wait, so
that a close game is found when one exists and a game at all after a few seconds when not.
Two seekers match when each one's rating lies in the other's range, they are different
people and neither blocks the other; a table of ``n`` is ``n`` seekers who all match each
other. The oldest seeker is served first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

BASE_RANGE = 150.0
"""Rating points either side of a new seeker's own rating."""
WIDEN_PER_SECOND = 50.0
"""How fast the range grows while a seeker waits: after 20 s it spans 1,150 points either
side, enough for nearly every pair of members."""


@dataclass(frozen=True, slots=True)
class Seeker:
    seek_id: int
    user_id: int
    rating: float
    waited: float
    """Seconds since the seek was made."""


def rating_range(waited: float) -> float:
    return BASE_RANGE + WIDEN_PER_SECOND * max(0.0, waited)


def blocks_between(pairs: Iterable[tuple[int, int]]) -> set[frozenset[int]]:
    """The block rows ``(user, blocked)`` as unordered pairs: a block keeps both apart."""
    return {frozenset(pair) for pair in pairs if pair[0] != pair[1]}


def compatible(a: Seeker, b: Seeker, blocks: Collection[frozenset[int]]) -> bool:
    if a.user_id == b.user_id or frozenset((a.user_id, b.user_id)) in blocks:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= rating_range(a.waited) and gap <= rating_range(b.waited)


def tables(
    seekers: list[Seeker], size: int, blocks: Collection[frozenset[int]]
) -> list[list[Seeker]]:
    """Tables of ``size`` from ``seekers`` (oldest first), each seeker in at most one: the
    oldest waiting seeker takes the oldest who match them all, and waits on if too few do."""
    free = list(seekers)
    found: list[list[Seeker]] = []
    while len(free) >= size:
        first, *rest = free
        table = [first]
        for other in rest:
            if all(compatible(other, t, blocks) for t in table):
                table.append(other)
                if len(table) == size:
                    break
        if len(table) == size:
            found.append(table)
            taken = {s.seek_id for s in table}
            free = [s for s in free if s.seek_id not in taken]
        else:
            free = rest
    return found


def seat_order(people: list[int], first_seats: dict[int, float]) -> list[int]:
    """The seats of a new table, balanced over recent games: whoever sat nearest the front
    on average lately (``first_seats``: their mean seat, 0 the first, 1 the last) sits
    furthest back now; people without recent games count as the middle."""
    return sorted(people, key=lambda p: -first_seats.get(p, 0.5))
