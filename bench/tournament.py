"""How soon an arena pairs a player whose game ended, with many players and games at once.

    python bench/tournament.py [--players 500] [--seconds 150] [--game-seconds 20 60]
                               [--database URL] [--json]

One process, as one server process runs it: the club's real store (a fresh SQLite file, or
``--database``), the round service making and ending the games, the finish hook and the
tournament director looking every :data:`~ludoteca.web.tournaments.limits.TICK_SECONDS` in
its own thread, as the server's background task does. ``--players`` members join one arena;
the simulated players (one thread, standing for their browsers) end each game by a
resignation a random ``--game-seconds`` after it was made, so about half the players are
in a game at any moment (250 games for 500 players). For every game that ends, each of its
players' wait is the time from the end to their next game being made (paired, created and
joined through the round service). The arena's start, when every player is paired at once,
is reported on its own (``start_seconds``: until the first half of the field's games are
made) and its games' ends are not counted. Reports p50, p90, p99 and max of the waits;
exit status 1 when p99 misses ``--target`` seconds (1).

Games of 20 to 60 seconds are far quicker than a club's (a three-minute live game lasts
four to six): 250 of them end about six times a second, each making a new game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import insert, select

from ludoteca.web.infra.store import GameRow, Store, User
from ludoteca.web.round.service import GameService, GameSettings
from ludoteca.web.tournaments import limits
from ludoteca.web.tournaments.director import Director, finish_hook
from ludoteca.web.tournaments.models import TournamentGame, TournamentPlayer
from ludoteca.web.tournaments.service import NewTournament, Tournaments

GAME = "kuniumi"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--players", type=int, default=500, help="members who join the arena (default 500)"
    )
    p.add_argument(
        "--seconds", type=float, default=150.0, help="how long the arena is run, s (default 150)"
    )
    p.add_argument(
        "--game-seconds",
        type=float,
        nargs=2,
        default=(20.0, 60.0),
        metavar=("LOW", "HIGH"),
        help="a game is resigned a random time between LOW and HIGH seconds after it is "
        "made (default 20 60)",
    )
    p.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    p.add_argument("--target", type=float, default=1.0, help="p99 wait to meet, s (default 1)")
    p.add_argument(
        "--seed", type=int, default=1, help="seed of the games' lengths and resigners (default 1)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p.parse_args(argv)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(args: argparse.Namespace) -> dict:
    folder = tempfile.mkdtemp(prefix="ludoteca-tournament-")
    store = Store(args.database or f"sqlite:///{Path(folder) / 'club.sqlite3'}")
    games = GameService(store)
    games.on_finish.append(finish_hook)
    director = Director(store, games)
    director.paired_at = {}
    with store.session() as db:  # members without a password hash each: none logs in
        db.execute(
            insert(User),
            [
                {"name": f"b{i}", "name_key": f"b{i}", "password_hash": "-"}
                for i in range(args.players)
            ],
        )
        db.commit()
        people = {u.id: u for u in db.scalars(select(User))}
    first = next(iter(people.values()))
    new = NewTournament(
        name="bench arena",
        game=GAME,
        options={},
        form="arena",
        settings=GameSettings(),
        starts_in=0,
        minutes=24 * 60,
        max_players=args.players,
    )
    tid = Tournaments(store).create(first, new)
    with store.session() as db:
        db.execute(
            insert(TournamentPlayer),
            [{"tournament_id": tid, "user_id": pk} for pk in people if pk != first.id],
        )
        db.commit()
    rng = random.Random(args.seed)
    ended_at: dict[int, float] = {}  # player -> when their last game ended
    waits: list[float] = []
    running: list[int] = []
    stop = threading.Event()

    def direct() -> None:
        while not stop.is_set():
            began = time.monotonic()
            director.tick()
            stop.wait(max(0.0, limits.TICK_SECONDS - (time.monotonic() - began)))

    seen: set[int] = set()
    ends: dict[int, float] = {}
    thread = threading.Thread(target=direct, daemon=True)
    started = time.monotonic()
    thread.start()
    finished_games = 0
    warm: float | None = None  # when the start's games were made
    while time.monotonic() - started < args.seconds:
        with store.reading() as db:
            rows = db.execute(
                select(TournamentGame.game_id, TournamentGame.players)
                .join(GameRow, GameRow.id == TournamentGame.game_id)
                .where(TournamentGame.tournament_id == tid, GameRow.status == "active")
            ).all()
        now = time.monotonic()
        if warm is None and len(rows) >= args.players // 4:
            warm = now
        if warm is not None:
            running.append(len(rows))
        for game, players in rows:
            if game not in seen:
                seen.add(game)
                made = (director.paired_at or {}).get(game, now)
                for p in players:
                    if p in ended_at:
                        waits.append(made - ended_at.pop(p))
                    ended_at.pop(p, None)
                ends[game] = made + rng.uniform(*args.game_seconds)
            if ends[game] <= now:
                games.resign(game, people[players[rng.randrange(2)]])
                done = time.monotonic()
                if warm is not None:
                    for p in players:
                        ended_at[p] = done
                finished_games += 1
        time.sleep(0.02)
    stop.set()
    thread.join()
    store.dispose()
    return {
        "players": args.players,
        "seconds": args.seconds,
        "games_ended": finished_games,
        "pairings_measured": len(waits),
        "start_seconds": (warm - started) if warm is not None else None,
        "running_games_mean": statistics.fmean(running) if running else 0,
        "wait_p50": quantile(waits, 0.5),
        "wait_p90": quantile(waits, 0.9),
        "wait_p99": quantile(waits, 0.99),
        "wait_max": max(waits, default=0.0),
        "target_p99": args.target,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = run(args)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for key, value in out.items():
            shown = f"{value:.3f}" if isinstance(value, float) else value
            print(f"{key:>20}: {shown}")
    return 0 if out["wait_p99"] <= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
