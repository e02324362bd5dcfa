"""Who takes the first seat: the player who has had it less often (then who had the second
seat last, then the higher placed), so every player's first and second seats stay within
one of each other wherever the pairings allow."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from ludoteca.tournaments.results import Played


class SeatBalance:
    """Each player's first seats less second seats, and the seat of their last game."""

    def __init__(self, played: Iterable[Played]) -> None:
        self.diff: dict[Hashable, int] = {}
        self.last: dict[Hashable, int] = {}
        for g in played:
            if len(g.players) != 2:
                continue
            a, b = g.players
            self.diff[a] = self.diff.get(a, 0) + 1
            self.diff[b] = self.diff.get(b, 0) - 1
            self.last[a], self.last[b] = 0, 1

    def order(self, a: Hashable, b: Hashable, a_first_on_tie: bool = True) -> tuple:
        """``(a, b)`` or ``(b, a)``: the first seat to the one who needs it more."""
        da, db = self.diff.get(a, 0), self.diff.get(b, 0)
        if da != db:
            return (a, b) if da < db else (b, a)
        la, lb = self.last.get(a), self.last.get(b)
        if la != lb:
            return (a, b) if la == 1 or lb == 0 else (b, a)
        return (a, b) if a_first_on_tie else (b, a)

    def clash(self, a: Hashable, b: Hashable) -> int:
        """1 if however they sit one of them ends two seats off balance (both have had the
        same seat once more than the other), else 0."""
        da, db = self.diff.get(a, 0), self.diff.get(b, 0)
        return int((da >= 1 and db >= 1) or (da <= -1 and db <= -1))

    def preference_clash(self, a: Hashable, b: Hashable) -> int:
        """1 if both would rather have the same seat (equal balance, same seat last)."""
        same = self.diff.get(a, 0) == self.diff.get(b, 0)
        last = self.last.get(a)
        return int(same and last is not None and last == self.last.get(b))
