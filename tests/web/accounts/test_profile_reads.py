"""A member's profile reads what it shows (issue 46, item 2): it read every one of the
member's games three times (the counts per game, the statistics, the streaks), so a member with
4,000 games waited a quarter of a second on every visit. The database now counts them: the
rows the page reads do not grow with the games played, and the numbers are those the games
give one by one."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import datetime, timedelta

from sqlalchemy import insert, select

from ludoteca.web.accounts import record
from ludoteca.web.accounts.history import outcome_of
from ludoteca.web.accounts.profiles import game_counts
from ludoteca.web.infra import sqlite_writes
from ludoteca.web.infra.store import GameRow, Seat, User
from ludoteca.web.stats.service import user_stats
from tests.web.helpers import register
from tests.web.inprocess import club_in_process

RESULTS = (
    {"over": True, "winners": [0], "draw": False},
    {"over": True, "winners": [1], "draw": False},
    {"over": True, "winners": [0, 1], "draw": True},
    {"over": True, "winners": [], "draw": True},
    {"over": True, "ended": "resignation", "winners": [1]},
    {"over": True, "ended": "aborted"},
    None,
)


RESULTS_OF_THREE = (*RESULTS, {"over": True, "winners": [2], "draw": False})
KINDS = [
    (game, players, mine, result)
    for game in ("toy", "other")
    for players in (1, 2, 3)
    for mine in range(players)
    for result in (RESULTS_OF_THREE if players == 3 else RESULTS)
]
"""Every kind of game the record groups apart: 100 of them."""


def _add_games(store, user_id: int, other_id: int, count: int, seed: int, kinds=KINDS) -> None:
    """``count`` finished games of ``user_id``, every kind of :data:`KINDS` in turn (each
    round of them in a shuffled order), written straight into the tables."""
    rng = random.Random(seed)
    with store.engine.begin() as conn:
        first = (conn.execute(select(GameRow.id).order_by(GameRow.id.desc())).scalar() or 0) + 1
        rows, seats = [], []
        todo: list = []
        for pk in range(first, first + count):
            if not todo:
                todo = rng.sample(kinds, len(kinds))
            game, players, mine, result = todo.pop()
            finished = datetime(2026, 1, 1) + timedelta(minutes=pk * 7 + rng.randrange(5))
            rows.append(
                {
                    "id": pk,
                    "game": game,
                    "rules_version": "1",
                    "options": {},
                    "seed": pk,
                    "status": "finished",
                    "created": finished - timedelta(minutes=5),
                    "finished": finished,
                    "to_move": -2,
                    "ply": 9,
                    "result": result,
                    "rated": False,
                    "private": False,
                }
            )
            seats += [
                {
                    "game_id": pk,
                    "index": i,
                    "kind": "user",
                    "user_id": user_id if i == mine else other_id,
                }
                for i in range(players)
            ]
        conn.execute(insert(GameRow), rows)
        conn.execute(insert(Seat), seats)


def _one_by_one(db, user_id: int) -> tuple[dict, dict]:
    """The counts and statistics read game by game, as the profile did."""
    rows = db.execute(
        select(GameRow.id, GameRow.game, GameRow.result, Seat.index)
        .join(Seat, Seat.game_id == GameRow.id)
        .where(Seat.user_id == user_id, GameRow.status == "finished")
        .order_by(GameRow.finished.desc(), GameRow.id.desc())
    ).all()
    players = Counter(db.scalars(select(Seat.game_id)).all())
    counts: dict[str, Counter] = defaultdict(Counter)
    by_seat: dict[int, Counter] = defaultdict(Counter)
    outcomes = []
    for pk, game, result, index in rows:
        counts[game]["played"] += 1
        if players[pk] >= 2:
            counts[game][outcome_of(result, players[pk], index)] += 1
        result = result or {}
        if result.get("ended") == "aborted":
            continue
        won = index in (result.get("winners") or [])
        outcome = "draw" if result.get("draw") else "win" if won else "loss"
        by_seat[index][outcome] += 1
        outcomes.append(outcome)
    current = next((i for i, o in enumerate(outcomes) if o != "win"), len(outcomes))
    longest = run = 0
    for outcome in reversed(outcomes):
        run = run + 1 if outcome == "win" else 0
        longest = max(longest, run)
    stats = {
        "played": len(rows),
        "by_seat": {i + 1: dict(c) for i, c in by_seat.items()},
        "streak": current,
        "longest_streak": longest,
    }
    return {g: dict(c) for g, c in counts.items()}, stats


def _rows_read(monkeypatch) -> list[int]:
    """Count the rows every SQLite cursor hands back from now on."""
    read = [0]
    cursor = sqlite_writes._Cursor

    def counted(name: str):
        original = getattr(cursor, name)

        def fetch(self, *args):
            out = original(self, *args)
            read[0] += len(out) if isinstance(out, list) else int(out is not None)
            return out

        return fetch

    for name in ("fetchone", "fetchmany", "fetchall"):
        monkeypatch.setattr(cursor, name, counted(name))
    return read


def test_the_profile_reads_the_same_rows_for_400_games_as_for_4000(tmp_path, monkeypatch):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        assert register(client, "many").status_code == 303
        assert register(client, "rival").status_code == 303
        store = client.app.state.club.store
        with store.reading() as db:
            me, rival = (
                db.scalar(select(User.id).where(User.name == name)) for name in ("many", "rival")
            )
        read = _rows_read(monkeypatch)
        seen = []
        for added in (400, 3600):
            _add_games(store, me, rival, added, seed=added)
            client.get("/users/many")  # anything kept once (the catalogues) is kept
            read[0] = 0
            page = client.get("/users/many")
            assert page.status_code == 200 and 'id="user-stats"' in page.text
            seen.append(read[0])
        # 3,600 more games: ten times as many, and no more rows to read than the shown page's
        # seats (its 20 games have one to three seats each) make
        assert seen[1] <= seen[0] + 2 * 20, seen

        _add_games(store, me, rival, 3, seed=1, kinds=[("toy", 2, 1, RESULTS[1])])  # 3 wins
        with store.reading() as db:
            counts, stats = _one_by_one(db, me)
            kept = record.read(db, me)
            mine = user_stats(db, db.get(User, me), kept)
        shown = {
            c["game"]: {k: v for k, v in c.items() if k not in ("game", "title")}
            for c in game_counts(kept.groups)
        }
        assert shown == counts
        assert mine["played"] == stats["played"] == 4003
        assert {
            s["seat"]: {k: v for k, v in s.items() if k != "seat" and v} for s in mine["by_seat"]
        } == stats["by_seat"]
        assert (mine["streak"], mine["longest_streak"]) == (
            stats["streak"],
            stats["longest_streak"],
        )
        assert stats["streak"] >= 3 and stats["longest_streak"] >= 3
