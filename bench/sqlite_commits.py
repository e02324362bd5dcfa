"""How long the club's SQLite commits take, with the log checkpointed inside commits (SQLite's
default) and by the club's background thread (:mod:`ludoteca.web.infra.sqlite_checkpoints`).

    python bench/sqlite_commits.py [--commits 6000] [--json]

Each commit is a move as the club writes one: the game's row updated, a move inserted, in
WAL mode with ``synchronous=NORMAL``, on a fresh file in the system's temporary folder (put
``TMPDIR`` on the disk the club's database lives on). It prints p50, p99, p99.9 and the
slowest commit, and how many took over 5 ms, for both set-ups measured one after the other
in the same run. Moves take turns to commit, so a slow commit holds up every move behind it.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from ludoteca.web.infra.sqlite_checkpoints import Checkpointer

GAMES = 200


def _commits(path: Path, commits: int, background: bool) -> list[float]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    if background:
        conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, ply INTEGER, status TEXT)")
    conn.execute(
        "CREATE TABLE moves (game_id INTEGER, ply INTEGER, text TEXT, player INTEGER, "
        "note TEXT, PRIMARY KEY (game_id, ply))"
    )
    conn.executemany("INSERT INTO games VALUES (?, 0, 'active')", [(i,) for i in range(GAMES)])
    checkpointer = Checkpointer(str(path)).start() if background else None
    took = []
    try:
        for n in range(commits):
            game, ply = n % GAMES, n // GAMES
            started = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("UPDATE games SET ply = ply + 1 WHERE id = ?", (game,))
            conn.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, NULL)", (game, ply, "c3-c6", ply % 2)
            )
            conn.execute("COMMIT")
            took.append((time.perf_counter() - started) * 1000)
    finally:
        if checkpointer is not None:
            checkpointer.stop()
        conn.close()
    return took


def _figures(took: list[float]) -> dict[str, float]:
    ordered = sorted(took)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)

    return {
        "p50_ms": at(0.5),
        "p99_ms": at(0.99),
        "p999_ms": at(0.999),
        "max_ms": round(ordered[-1], 3),
        "over_5ms": sum(t > 5 for t in ordered),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    p.add_argument("--commits", type=int, default=6000, help="commits per set-up (6000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if args.commits < 1:
        p.error("--commits is at least 1")
    out = {}
    with tempfile.TemporaryDirectory(prefix="ludoteca-commits-") as tmp:
        for name, background in (("in commits", False), ("background thread", True)):
            out[name] = _figures(
                _commits(Path(tmp) / f"{background}.sqlite3", args.commits, background)
            )
    if args.json:
        print(json.dumps({"commits": args.commits, "checkpoints": out}, indent=2))
        return 0
    print(f"{args.commits} move-like commits each, WAL, synchronous=NORMAL")
    print(
        f"{'checkpoints':<20}{'p50 ms':>9}{'p99 ms':>9}{'p99.9 ms':>10}{'max ms':>9}{'> 5 ms':>8}"
    )
    for name, f in out.items():
        print(
            f"{name:<20}{f['p50_ms']:>9}{f['p99_ms']:>9}{f['p999_ms']:>10}"
            f"{f['max_ms']:>9}{f['over_5ms']:>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
