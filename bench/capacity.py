"""The club's capacity curve: how the move-to-view p99 grows with the number of live games.

    python bench/capacity.py [--games 50,100,200,300,400,500] [--seconds 30]
                             [--setups sqlite1,postgres2] [--http-moves]
                             [--png capacity.png] [--json]

For each set-up (``sqlite1``: one server process on SQLite; ``postgres2``: two processes on
a throw-away PostgreSQL, the seats of each game on different processes;
``postgres2-by-game``: the same with every connection of a game on one process, as a load
balancer routing by game puts them; also ``postgres1``; ``sqlite1-api``: one process on
SQLite whose players are API clients without sockets, each reading the position with
``GET /api/games/N`` before sending ``POST /api/games/N/move``, the watchers on sockets)
and each number of games, it runs
``bench/load.py --page-like`` (pages' behaviour: moves sent over the page's socket,
compressed sockets, a watcher on every game; with ``--http-moves`` each move is a POST
answered with the new view, as a page whose socket is down sends it; 2 s mean think time, so
N games offer about N/2 moves a second), and reports moves per second, the worst p99 of
mover, opponent and watcher, the servers' CPU and
whether anything was lost. The table ends with the number of games at which each set-up's
p99 first exceeds 100 ms; ``--png`` draws the curves (matplotlib). Operators read it to know
when to add a process or a machine. Each point takes about ``--seconds`` + 15 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
SETUPS = {"sqlite1": [], "sqlite2": None, "postgres1": ["--postgres"],
          "postgres2": ["--postgres", "--servers", "2"],
          "postgres2-by-game": ["--postgres", "--servers", "2", "--game-affinity"],
          "sqlite1-api": ["--api-players"]}  # fmt: skip
LIMIT_MS = 100.0


def point(
    setup: str, games: int, seconds: float, think: float, http_moves: bool = False
) -> dict[str, Any]:
    extra = SETUPS[setup]
    assert extra is not None, "SQLite takes one server process (see load.py)"
    if http_moves and "--api-players" not in extra:
        extra = [*extra, "--http-moves"]
    command = [sys.executable, str(BENCH / "load.py"), "--page-like", "--json",
               "--games", str(games), "--seconds", str(seconds), "--think", str(think),
               "--ramp", "10", "--progress", "1000", *extra]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, cwd=BENCH.parent)
    text = out.stdout[out.stdout.find("{") :]
    if not text:
        raise SystemExit(f"{setup} at {games} games failed: {out.stderr[-1500:]}")
    r = json.loads(text)
    return {
        "setup": setup,
        "games": games,
        "moves_per_s": r["moves_per_s"],
        "p99_ms": r["p99_ms"],
        "p50_ms": r["watcher_latency"]["p50_ms"],
        "http_move_p99_ms": r["http_move_latency"]["p99_ms"],
        "server_cpu_percent": r["server_cpu_percent"],
        "client_cpu_percent": r["client_cpu_percent"],
        "nothing_lost": r["verify"]["ok"],
        "errors": sum(r["errors"].values()),
    }


def crossing(rows: list[dict[str, Any]]) -> int | None:
    """The fewest games whose p99 exceeds the limit (None: never, in the points measured)."""
    over = [r["games"] for r in rows if r["p99_ms"] > LIMIT_MS]
    return min(over) if over else None


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for setup in dict.fromkeys(r["setup"] for r in rows):
        mine = [r for r in rows if r["setup"] == setup]
        ax.plot([r["games"] for r in mine], [r["p99_ms"] for r in mine], marker="o", label=setup)
    ax.axhline(LIMIT_MS, color="grey", linestyle="--", linewidth=1)
    ax.set_yscale("log")
    ax.set_xlabel("live games (about half as many moves a second)")
    ax.set_ylabel("move → view p99 (ms, log scale)")
    ax.set_title("ludoteca on 2 cores: p99 against live games")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        default="50,100,200,300,400,500",
        help="numbers of live games, one point each, comma-separated "
        "(default 50,100,200,300,400,500)",
    )
    parser.add_argument(
        "--seconds", type=float, default=30.0, help="seconds of play at each point (default 30)"
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="a player's mean think time, s (default 2)"
    )
    parser.add_argument(
        "--setups",
        default="sqlite1,sqlite1-api,postgres2",
        help="set-ups measured, comma-separated, of sqlite1, sqlite1-api, postgres1, "
        "postgres2, postgres2-by-game (default sqlite1,sqlite1-api,postgres2)",
    )
    parser.add_argument(
        "--http-moves", action="store_true", help="moves as POSTs, as a page without a socket"
    )
    parser.add_argument("--png", type=Path, default=None, help="draw the curves here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    try:
        counts = sorted({int(g) for g in args.games.split(",") if g.strip()})
    except ValueError:
        parser.error("--games is a comma-separated list of whole numbers")
    setups = [s for s in args.setups.split(",") if s]
    bad = [s for s in setups if SETUPS.get(s) is None]
    if bad or not counts or counts[0] < 1:
        parser.error(f"set-ups are {', '.join(k for k, v in SETUPS.items() if v is not None)}")
    rows = []
    for setup in setups:
        for games in counts:
            print(f"{setup}: {games} games …", file=sys.stderr, flush=True)
            rows.append(point(setup, games, args.seconds, args.think, args.http_moves))
    if args.png:
        plot(rows, args.png)
    crossings = {s: crossing([r for r in rows if r["setup"] == s]) for s in setups}
    result = {
        "rows": rows,
        "limit_ms": LIMIT_MS,
        "crossing": crossings,
        "moves_over": "http" if args.http_moves else "socket",
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print("| set-up | games | moves/s | p50 / p99 ms | server CPU | lost |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        cpu = ", ".join(f"{c}%" for c in r["server_cpu_percent"])
        lost = "nothing" if r["nothing_lost"] and not r["errors"] else "SOMETHING"
        print(f"| {r['setup']} | {r['games']} | {r['moves_per_s']:.0f} | "
              f"{r['p50_ms']:.0f} / {r['p99_ms']:.0f} | {cpu} | {lost} |")  # fmt: skip
    for setup, games in result["crossing"].items():
        where = f"first above {LIMIT_MS:.0f} ms at {games} games" if games else "never above"
        print(f"{setup}: p99 {where} (of {', '.join(map(str, counts))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
