"""Quick-pairing benchmark: many people seeking through the lobby's socket over a minute.

    python bench/pairing.py [--people 1000] [--seconds 60] [--cells 4] [--spread 0]
                            [--database URL] [--servers 1] [--json]

It starts ``--servers`` real ``ludoteca serve`` processes (one by default, on a fresh SQLite
file; several need ``--database`` on PostgreSQL), writes ``--people`` accounts with a session
each into the database, and has each person arrive at a random moment within ``--seconds``,
open ``/ws/seek`` as the lobby does and seek in one of ``--cells`` cells of the grid (two-player
games, live and untimed controls), spread evenly so that every cell can pair everyone. It
measures, for every person, the time from sending the seek to the ``paired`` message, and
separately for the people whose seek found an opponent already waiting (the second of each
pair: the time the pool takes when an opponent exists). With ``--spread`` the people have
ratings drawn around 1500 with that standard deviation, so the range must widen for some.

It checks that everyone was paired, each into exactly one game with someone else, and that
no game holds anyone twice. Exit status 0 when all were paired and the p99 with an opponent
waiting is under :data:`TARGET_P99_S`, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from websockets.asyncio.client import connect  # noqa: E402

from loadclient import ClubProcesses, open_accounts, percentile  # noqa: E402

TARGET_P99_S = 1.0


@dataclass
class Seeker:
    name: str
    cookie: str
    base: str
    cell: dict
    at: float = 0.0
    sent: float | None = None
    paired: float | None = None
    game: int | None = None
    errors: list[str] = field(default_factory=list)


async def seek(person: Seeker, timeout: float = 60.0, cancel_after: float | None = None) -> None:
    """Open the lobby's socket, seek, and wait for the game (or leave after
    ``cancel_after`` seconds, as a person closing the page)."""
    url = person.base.replace("http://", "ws://", 1) + "/ws/seek"
    try:
        async with connect(
            url, additional_headers={"Cookie": person.cookie}, open_timeout=30, ping_interval=None
        ) as ws:
            person.sent = time.perf_counter()
            await ws.send(json.dumps({"type": "seek", **person.cell}))
            deadline = person.sent + (cancel_after if cancel_after is not None else timeout)
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    return
                if message.get("type") == "paired":
                    person.paired = time.perf_counter()
                    person.game = message["game"]
                    return
                if message.get("type") == "error":
                    person.errors.append(message.get("message", "?"))
                    return
    except Exception as exc:  # noqa: BLE001 - counted, not fatal to the run
        person.errors.append(f"{type(exc).__name__}: {exc}")


def two_player_games() -> list[str]:
    from ludoteca.web.round.catalog import available_games

    return [
        gid
        for gid, cls in available_games().items()
        if cls.__module__.startswith("ludoteca.games.") and cls.min_players <= 2 <= cls.max_players
    ]


def cells(count: int) -> list[dict]:
    games = two_player_games()
    controls = ["none", "10+5", "5+3", "3d"]
    out = [{"game": g, "players": 2, "control": c, "rated": False} for c in controls for g in games]
    return out[:count]


def seat_ratings(url: str, names: list[str], spread: float, seed: int) -> None:
    """Give each person a rating in every pool, drawn around 1500."""
    from sqlalchemy import create_engine, insert, select

    from ludoteca.web.infra.store import Rating, User, normalise_url, utcnow

    rng = random.Random(seed)
    engine = create_engine(normalise_url(url))
    try:
        with engine.begin() as conn:
            ids = conn.execute(select(User.id).where(User.name.in_(names))).scalars().all()
            conn.execute(
                insert(Rating),
                [
                    {
                        "user_id": uid,
                        "pool": game,
                        "rating": rng.gauss(1500, spread),
                        "deviation": 100.0,
                        "volatility": 0.06,
                        "games": 10,
                        "updated": utcnow(),
                    }
                    for uid in ids
                    for game in two_player_games()
                ],
            )
    finally:
        engine.dispose()


def check_games(url: str, people: list[Seeker]) -> list[str]:
    """Every paired person sits in their game, with another person, nobody twice."""
    from sqlalchemy import create_engine, select

    from ludoteca.web.infra.store import Seat, User, normalise_url

    problems = []
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(Seat.game_id, User.name).join(User, User.id == Seat.user_id)
            ).all()
    finally:
        engine.dispose()
    seated: dict[str, list[int]] = {}
    tables: dict[int, list[str]] = {}
    for pk, name in rows:
        seated.setdefault(name, []).append(pk)
        tables.setdefault(pk, []).append(name)
    for p in people:
        if p.game is not None and seated.get(p.name) != [p.game]:
            problems.append(f"{p.name} told game {p.game}, seated at {seated.get(p.name)}")
    for pk, names in tables.items():
        if len(set(names)) != len(names) or len(names) < 2:
            problems.append(f"game {pk} seats {names}")
    return problems


def summary(values: list[float]) -> dict:
    return {
        "count": len(values),
        "p50_ms": round(1000 * (percentile(values, 0.5) or 0), 1),
        "p99_ms": round(1000 * (percentile(values, 0.99) or 0), 1),
        "max_ms": round(1000 * max(values, default=0), 1),
    }


async def run(people: list[Seeker], seconds: float) -> None:
    start = time.perf_counter()

    async def one(p: Seeker) -> None:
        await asyncio.sleep(max(0.0, start + p.at - time.perf_counter()))
        await seek(p, timeout=seconds + 60)

    await asyncio.gather(*(one(p) for p in people))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/pairing.py", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--people", type=int, default=1000, help="people seeking, an even number (default 1000)"
    )
    ap.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        help="seconds within which each person arrives at a random moment (default 60)",
    )
    ap.add_argument(
        "--cells",
        type=int,
        default=4,
        help="cells of the seek grid (game and time control) the people share (default 4)",
    )
    ap.add_argument("--spread", type=float, default=0.0, help="rating spread (0: all 1500)")
    ap.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    ap.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes; more than one needs --database on PostgreSQL (default 1)",
    )
    ap.add_argument(
        "--seed", type=int, default=1, help="seed of the arrivals and ratings (default 1)"
    )
    ap.add_argument(
        "--json", action="store_true", help="print the JSON on one line (default: indented)"
    )
    args = ap.parse_args(argv)
    if args.people < 2 or args.people % 2 or args.cells < 1:
        ap.error("--people must be even and at least 2; --cells at least 1")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="ludoteca-pairing-") as tmp:
        url = args.database or f"sqlite:///{Path(tmp) / 'club.sqlite3'}"
        club = ClubProcesses(url, args.servers, Path(tmp)).start()
        try:
            names = [f"seeker{i}" for i in range(args.people)]
            tokens = open_accounts(url, names)
            if args.spread:
                seat_ratings(url, names, args.spread, args.seed)
            grid = cells(args.cells)
            # Each cell gets an even number of people, so everyone can be paired.
            per_cell = [grid[(i // 2) % len(grid)] for i in range(args.people)]
            people = [
                Seeker(
                    name,
                    f"ludoteca_session={token}",
                    club.bases[i % len(club.bases)],
                    per_cell[i],
                    at=rng.uniform(0, args.seconds),
                )
                for i, (name, token) in enumerate(zip(names, tokens, strict=True))
            ]
            began = time.perf_counter()
            asyncio.run(run(people, args.seconds))
            took = time.perf_counter() - began
            problems = check_games(url, people)
        finally:
            club.stop()
    paired = [p for p in people if p.paired is not None and p.sent is not None]
    waits = [p.paired - p.sent for p in paired]  # type: ignore[operator]
    by_game: dict[int, list[Seeker]] = {}
    for p in paired:
        by_game.setdefault(p.game, []).append(p)  # type: ignore[arg-type]
    second = [
        max(g, key=lambda p: p.sent).paired - max(g, key=lambda p: p.sent).sent
        for g in by_game.values()
    ]
    errors = sorted({e for p in people for e in p.errors})
    result = {
        "people": args.people,
        "servers": args.servers,
        "seconds": round(took, 1),
        "cells": len(grid),
        "spread": args.spread,
        "paired": len(paired),
        "games": len(by_game),
        "seek_to_game_all": summary(waits),
        "seek_to_game_with_opponent_waiting": summary(second),
        "errors": errors[:10],
        "problems": problems[:10],
    }
    print(json.dumps(result, indent=None if args.json else 2))
    ok = (
        len(paired) == args.people
        and not problems
        and (percentile(second, 0.99) or 0) < TARGET_P99_S
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
