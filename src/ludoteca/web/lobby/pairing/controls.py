"""The quick-pairing grid: for each game, its player counts and the club's time controls.

The controls are the club's (a few live ones, correspondence, untimed), the same for every
game; the player counts are each game's own (:attr:`Game.min_players` to
:attr:`Game.max_players`, from two: a table for one has nobody to pair with). The web
names no game: everything here comes from the common protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.core.messages import N_, Text
from ludoteca.web.round import clocks
from ludoteca.web.round.catalog import available_games


@dataclass(frozen=True)
class Control:
    key: str
    clock: dict[str, Any] | None

    @property
    def text(self) -> Text:
        return clocks.describe(self.clock) if self.clock else Text(N_("untimed"))

    @property
    def short(self) -> Text:
        """The cell's label: a phone's width holds a game's five cells in a row only if
        ``3 days a move`` is ``3 d`` and untimed is ``∞`` (the whole :attr:`text` is the
        cell's title and is read out with it; a legend under the grid says what they mean)."""
        if self.clock is None:
            return Text(N_("∞"))
        if self.clock.get("kind") == clocks.CORRESPONDENCE:
            return Text(N_("{days:g} d"), {"days": self.clock["days"]})
        return self.text


CONTROLS: tuple[Control, ...] = (
    Control("5+3", {"kind": "live", "base": 300, "increment": 3}),
    Control("10+5", {"kind": "live", "base": 600, "increment": 5}),
    Control("20+10", {"kind": "live", "base": 1200, "increment": 10}),
    Control("3d", {"kind": "correspondence", "days": 3}),
    Control("none", None),
)
"""What the grid offers: three live controls (a quick game, the club's usual ten minutes,
a slow one), three days a move, and untimed."""
BY_KEY = {c.key: c for c in CONTROLS}


def player_counts(game_id: str) -> list[int]:
    """The table sizes the grid offers for ``game_id``: every count it allows, from two."""
    cls = available_games()[game_id]
    return list(range(max(2, cls.min_players), cls.max_players + 1))


def grid() -> list[dict[str, Any]]:
    """The lobby's grid: one block per game, a row per table size, a cell per control."""
    out = []
    for gid, cls in available_games().items():
        counts = player_counts(gid)
        if not counts:
            continue
        out.append({"id": gid, "title": cls.title, "counts": counts, "controls": CONTROLS})
    return out


def cell_refusal(game_id: str, players: int, control: str) -> str | None:
    """Why a seek's cell is not on the grid (English, for a :class:`Text`), or None."""
    if game_id not in available_games():
        return N_("There is no game called {game_id!r}.")
    if players not in player_counts(game_id):
        return N_("This game is not played by {players} players.")
    if control not in BY_KEY:
        return N_("Unknown time control {control!r}.")
    return None
