"""A member's record of finished games, counted by the database rather than read game by game.

A profile shows per game and per seat how many games were won, drawn and lost, the favourite
game and the winning streaks. A member with thousands of games made the page read all of them
(three times): here the database groups the games by what decides an outcome (the game, the
seat, the number of seats, the winners, a draw, an abort) and returns one row per group, so
the rows read do not grow with the number of games. The outcome itself is still decided in
Python, by the same functions as everywhere else (:func:`outcome_of`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, String, and_, case, cast, func, literal, null, select, union_all

from ludoteca.web.infra.store import GameRow, Seat
from ludoteca.web.ratings.service import outcomes


def outcome_of(result: Any, seats: int, index: int) -> str:
    """``win``, ``draw``, ``loss`` or ``aborted`` for seat ``index`` of a finished game with
    ``seats`` seats (``""`` for a solo game): an aborted game has no result."""
    result = result if isinstance(result, dict) else {}
    if result.get("ended") == "aborted":
        return "aborted"
    if seats < 2:
        return ""
    return outcomes(result, seats)[index]


@dataclass(frozen=True)
class Group:
    """Finished games of one member that end alike for them: ``games`` of them."""

    game: str
    index: int
    seats: int
    result: dict[str, Any]
    games: int

    @property
    def outcome(self) -> str:
        """``win``, ``draw``, ``loss``, ``aborted`` or ``""`` (solo), as the history says."""
        return outcome_of(self.result, self.seats, self.index)

    @property
    def seat_outcome(self) -> str | None:
        """The outcome the statistics by seat count (a draw flag first, then the winners;
        None for an aborted game, which has no result)."""
        if self.result.get("ended") == "aborted":
            return None
        if self.result.get("draw"):
            return "draw"
        return "win" if self.index in (self.result.get("winners") or []) else "loss"


def newest_first() -> tuple[Any, Any]:
    """The order of a member's games, newest first, as an expression no index serves: with
    ``finished`` itself, the database walked the index of every finished game of the club
    (a million) looking for the member's, rather than sorting the member's few thousand."""
    return func.coalesce(GameRow.finished, GameRow.created).desc(), GameRow.id.desc()


def seat_counts(user_id: int):
    """Each of the member's games with its number of seats."""
    mine = select(Seat.game_id).where(Seat.user_id == user_id)
    return (
        select(Seat.game_id, func.count().label("n"))
        .where(Seat.game_id.in_(mine))
        .group_by(Seat.game_id)
        .subquery()
    )


def parts():
    """The result's parts an outcome depends on, as text (the same on SQLite and PostgreSQL
    once read back with :func:`decoded`)."""
    return (
        GameRow.result["winners"].as_string(),
        cast(GameRow.result["draw"].as_string(), String),  # SQLite: 1, PostgreSQL: true
        GameRow.result["ended"].as_string(),
    )


def decoded(winners: Any, draw: Any, ended: Any) -> dict[str, Any]:
    """The result again from its parts (only what an outcome depends on)."""
    result: dict[str, Any] = {}
    if isinstance(winners, str):
        try:
            winners = json.loads(winners)
        except ValueError:
            winners = None
    if isinstance(winners, list):
        result["winners"] = [w for w in winners if isinstance(w, int)]
    if draw not in (None, 0, "0", "false", "", "null", False):
        result["draw"] = True
    if ended is not None:
        result["ended"] = ended
    return result


@dataclass(frozen=True)
class Record:
    """A member's finished games as :func:`read` counts them."""

    groups: list[Group]
    streak: int
    """Wins in a row up to the newest game (aborted games neither count nor break a run)."""
    longest: int
    """The longest such run."""


def read(db, user_id: int) -> Record:
    """The member's finished games grouped by what decides their outcome for the member, and
    their winning streaks, in one statement over one pass of the member's games.

    The streaks are runs of wins in finishing order, found with window functions ("gaps and
    islands"): among the games that were not aborted, a game's number minus its number among
    the games with the same win-or-not is the same for every game of one run."""
    seats = seat_counts(user_id)
    winners, draw, ended = parts()
    listed = func.replace(
        func.replace(func.replace(func.coalesce(winners, ""), " ", ""), "[", ","), "]", ","
    )
    seat = literal(",").concat(cast(Seat.index, String)).concat(",")
    live = case((func.coalesce(ended, "") == "aborted", 0), else_=1)
    no_draw = func.coalesce(draw, "0").in_(("0", "false", "null"))
    won = case((and_(live == 1, no_draw, listed.contains(seat)), 1), else_=0)
    order = (GameRow.finished, GameRow.id)
    played = (
        select(
            GameRow.game.label("game"),
            Seat.index.label("seat"),
            seats.c.n.label("n"),
            winners.label("winners"),
            draw.label("draw"),
            ended.label("ended"),
            live.label("live"),
            won.label("won"),
            func.row_number().over(partition_by=live, order_by=order).label("at"),
            func.row_number().over(partition_by=(live, won), order_by=order).label("within"),
            func.count().over(partition_by=live).label("games"),
        )
        .join(Seat, Seat.game_id == GameRow.id)
        .join(seats, seats.c.game_id == GameRow.id)
        .where(Seat.user_id == user_id, GameRow.status == "finished")
        .cte("played")
    )
    kinds = (played.c.game, played.c.seat, played.c.n, played.c.winners, played.c.draw)
    grouped = select(
        literal("group").label("kind"), *kinds, played.c.ended, func.count().label("count")
    ).group_by(*kinds, played.c.ended)
    runs = (
        select(
            func.count().label("length"),
            func.max(played.c.at).label("last"),
            func.max(played.c.games).label("games"),
        )
        .where(played.c.live == 1, played.c.won == 1)
        .group_by(played.c.at - played.c.within)
        .subquery()
    )
    current = func.max(case((runs.c.last == runs.c.games, runs.c.length), else_=0))
    streak = select(  # one row: the current streak as ``n``, the longest as ``count``
        literal("streak"),
        cast(null(), String),
        cast(null(), Integer),
        func.coalesce(current, 0),
        cast(null(), String),
        cast(null(), String),
        cast(null(), String),
        func.coalesce(func.max(runs.c.length), 0),
    )
    out: list[Group] = []
    now = longest = 0
    for kind, game, index, n, w, d, e, count in db.execute(union_all(grouped, streak)).all():
        if kind == "streak":
            now, longest = int(n), int(count)
        else:
            out.append(Group(game, index, n, decoded(w, d, e), count))
    return Record(out, now, longest)
