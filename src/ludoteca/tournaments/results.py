"""A game's result as a tournament counts it: who sat where and the points each took."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

BYE = "bye"
"""The reason of a :class:`Played` that was a bye: a player left without an opponent."""
BYE_POINTS = 1.0
"""A Swiss bye counts as a win, as FIDE's rules count a pairing-allocated bye."""


@dataclass(frozen=True)
class Played:
    """One finished game (or a bye) of a tournament.

    ``players`` in seat order (the first seat moves first); ``points`` the game points each
    took (:func:`points_for`): 1 for a win, ½ for a draw, 0 for a loss. A bye has one player.
    """

    round: int
    players: tuple[Hashable, ...]
    points: tuple[float, ...]
    reason: str = ""

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    def opponents(self, player: Hashable) -> tuple[Hashable, ...]:
        return tuple(p for p in self.players if p != player)

    def points_of(self, player: Hashable) -> float:
        return self.points[self.players.index(player)]


def points_for(seats: int, winners: Sequence[int]) -> tuple[float, ...]:
    """Game points of each seat from the winning seats: the one winner takes 1, every loser
    0; nobody winning (a draw) or everybody winning gives each ½; several but not all
    winners (a shared first place at a table of three or four) take ½ each."""
    won = set(winners)
    if not won or len(won) == seats:
        return tuple(0.5 for _ in range(seats))
    share = 1.0 if len(won) == 1 else 0.5
    return tuple(share if s in won else 0.0 for s in range(seats))


def bye(round_number: int, player: Hashable) -> Played:
    return Played(round_number, (player,), (BYE_POINTS,), BYE)
