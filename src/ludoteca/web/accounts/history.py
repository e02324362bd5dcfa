"""A member's history on their profile: every finished game, filtered by game, result, rated
or casual, and against people or the computer (``/users/NAME?game=…&result=…``).

A filter the address gets wrong (an unknown game, a mistyped result) is ignored rather than
refused: the page shows the games without it, and the form shows which filters hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import select

from ludoteca.web.accounts.record import decoded, newest_first, outcome_of, parts, seat_counts
from ludoteca.web.infra.store import GameRow, Seat
from ludoteca.web.round.catalog import available_games

RESULTS = ("win", "draw", "loss", "aborted")
RATED = ("rated", "casual")
OPPONENTS = ("people", "computer")


@dataclass(frozen=True)
class HistoryFilter:
    game: str = ""
    result: str = ""
    rated: str = ""
    opponent: str = ""

    @classmethod
    def parse(cls, params) -> HistoryFilter:
        """The filters of a profile's address; anything unknown is left out."""

        def pick(name: str, allowed) -> str:
            value = params.get(name, "")
            return value if value in allowed else ""

        return cls(
            game=pick("game", available_games()),
            result=pick("result", RESULTS),
            rated=pick("rated", RATED),
            opponent=pick("opponent", OPPONENTS),
        )

    @property
    def active(self) -> bool:
        return any((self.game, self.result, self.rated, self.opponent))

    def query(self, **extra: Any) -> str:
        """The address's query for these filters (and ``extra``, a page say), ``?…``."""
        fields = {k: v for k, v in vars(self).items() if v}
        fields.update({k: v for k, v in extra.items() if v})
        return "?" + urlencode(fields) if fields else "?"

    def conditions(self) -> list[Any]:
        """The SQL conditions for the filters SQL can test (all but the result)."""
        out: list[Any] = []
        if self.game:
            out.append(GameRow.game == self.game)
        if self.rated:
            out.append(GameRow.rated.is_(self.rated == "rated"))
        if self.opponent:
            with_bot = GameRow.id.in_(select(Seat.game_id).where(Seat.kind == "bot"))
            out.append(with_bot if self.opponent == "computer" else ~with_bot)
        return out

    def result_ids(self, db, user_id: int, where: list[Any]) -> list[int] | None:
        """With a result filter: the ids of the games ``where`` selects whose result for
        ``user_id`` is the one asked for (newest first); None without one. Only what an
        outcome depends on is read (:mod:`.record`), not the whole result."""
        if not self.result:
            return None

        seats = seat_counts(user_id)
        rows = db.execute(
            select(GameRow.id, Seat.index, seats.c.n, *parts())
            .join(Seat, Seat.game_id == GameRow.id)
            .join(seats, seats.c.game_id == GameRow.id)
            .where(*where, Seat.user_id == user_id)
            .order_by(*newest_first())
        ).all()
        out: list[int] = []
        seen: set[int] = set()
        for pk, index, count, winners, draw, ended in rows:
            result = decoded(winners, draw, ended)
            if pk not in seen and outcome_of(result, count, index) == self.result:
                seen.add(pk)
                out.append(pk)
        return out

    def choices(self) -> dict[str, list[str]]:
        """What the filter form offers (the games by id; the words are the template's)."""
        return {
            "game": sorted(available_games()),
            "result": list(RESULTS),
            "rated": list(RATED),
            "opponent": list(OPPONENTS),
        }
