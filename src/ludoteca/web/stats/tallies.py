"""Keeping the ``game_tallies`` rows: one finished game at a time, or all at once.

:func:`tally_finished` runs as a finish hook, inside the transaction that ends the game, with
an atomic ``INSERT … ON CONFLICT DO UPDATE`` so that games ending at once in several
processes each count once. :func:`rebuild` recounts every finished game (the migration runs it,
and so can an operator after restoring a backup).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite

from ludoteca.web.infra.store import GameRow, Seat
from ludoteca.web.stats.models import GameTally

COUNTS = ("games", "first_wins", "draws", "decided", "plies", "spread", "spread_sq", "scored")


@dataclass
class Outcome:
    """What one finished game adds to its tally row."""

    game: str
    players: int
    month: str
    counts: dict[str, float]


def outcome(game: str, players: int, finished: datetime | None, ply: int, result: Any) -> Outcome:
    result = result if isinstance(result, dict) else {}
    by_rules = "ended" not in result
    winners = result.get("winners") or []
    scores = result.get("scores")
    counts: dict[str, float] = dict.fromkeys(COUNTS, 0)
    counts["games"] = 1
    counts["first_wins"] = int(winners == [0])
    counts["draws"] = int(bool(result.get("draw")))
    if by_rules:
        counts["decided"] = 1
        counts["plies"] = ply
        if isinstance(scores, list) and len(scores) >= 2:
            try:
                top = sorted((float(s) for s in scores), reverse=True)
            except (TypeError, ValueError):
                top = []
            if top:
                margin = top[0] - top[1]
                counts.update(spread=margin, spread_sq=margin * margin, scored=1)
    month = (finished or datetime(1970, 1, 1)).strftime("%Y-%m")
    return Outcome(game, players, month, counts)


def _add(bind, item: Outcome) -> None:
    dialect = (bind.get_bind() if hasattr(bind, "get_bind") else bind).dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    values = {"game": item.game, "players": item.players, "month": item.month, **item.counts}
    statement = insert(GameTally).values(**values)
    table = GameTally.__table__
    statement = statement.on_conflict_do_update(
        index_elements=["game", "players", "month"],
        set_={name: table.c[name] + statement.excluded[name] for name in COUNTS},
    )
    bind.execute(statement)


def tally_finished(db, row: GameRow, _state=None) -> None:
    """The finish hook: count ``row`` (just finished, not yet committed) in its tally.

    The tally's row is one for all the games of a month: every game that ends waits for the
    transaction holding it. So whatever else the transaction has to write goes first
    (flushed here), and only its commit follows this statement."""
    if hasattr(db, "flush"):
        db.flush()
    _add(db, outcome(row.game, len(row.seats), row.finished, row.ply, row.result))


def rebuild(conn: Connection, batch: int = 5000) -> int:
    """Recount every finished game into ``game_tallies``; returns how many were counted."""
    conn.execute(delete(GameTally))
    totals: dict[tuple[str, int, str], dict[str, float]] = {}
    seats = dict(conn.execute(select(Seat.game_id, func.count()).group_by(Seat.game_id)).all())
    counted = 0
    query = (
        select(GameRow.id, GameRow.game, GameRow.finished, GameRow.ply, GameRow.result)
        .where(GameRow.status == "finished")
        .execution_options(yield_per=batch)
    )
    for pk, game, finished, ply, result in conn.execute(query):
        if isinstance(result, dict) and result.get("ended") == "aborted":
            continue  # as they end, aborted games are not counted (no finish hooks run)
        item = outcome(game, seats.get(pk, 0), finished, ply, result)
        into = totals.setdefault((item.game, item.players, item.month), dict.fromkeys(COUNTS, 0))
        for name, value in item.counts.items():
            into[name] += value
        counted += 1
    if totals:
        conn.execute(
            GameTally.__table__.insert(),
            [
                {"game": g, "players": p, "month": m, **counts}
                for (g, p, m), counts in totals.items()
            ],
        )
    return counted
