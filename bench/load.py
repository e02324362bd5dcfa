"""Load benchmark of the web club: many simulated players in live games at once.

    python bench/load.py [--games 200] [--seconds 60] [--think 0.5] [--servers N]
                         [--postgres] [--game kuniumi] [--json]

It starts the club itself: ``--servers`` real ``ludoteca serve`` processes on a fresh SQLite
file, or (``--postgres``, required for more than one server) on a throw-away PostgreSQL
server it starts on loopback. It registers two players per game over HTTP, creates the games,
and each player plays through the game's websocket exactly as the browser does, a random
legal move after a think time of ``--think`` seconds on average, starting a new game when one
ends, for ``--seconds``. It reports accepted moves per second and the time from a move sent
to the view showing it (for the mover and for the opponent: 50th and 99th percentile, max),
refusals and errors; then it checks that every game's stored record replays through the
engine and holds every move a client saw accepted ("nothing lost").

Everything runs on this machine (loopback only); the servers, the database and the temporary
folder are removed at the end, also after Ctrl-C. Exit status: 0 when nothing was lost and
there was no error, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

try:
    import loadclient
    from loadclient import ClubProcesses, Load, LoadError, default_seats, verify
except ImportError as exc:  # httpx and websockets come with the dev tools
    sys.exit(f"bench/load.py needs the dev tools ({exc.name} is missing): run `make test` once.")

TARGET_GAMES = 200
TARGET_P99_MS = 100.0
CLIENT_LIMIT_PERCENT = 85
"""A client process busier than this (of one core) may itself be what delays the views it
measures: the output says so."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/load.py",
        description=__doc__.split("\n\n")[0],
        epilog="Target on a 2-core machine: 200 concurrent games, p99 under 100 ms, nothing lost.",
    )
    p.add_argument("--games", type=int, default=TARGET_GAMES, help="concurrent games (200)")
    p.add_argument("--seconds", type=float, default=60.0, help="how long to play (60)")
    p.add_argument("--think", type=float, default=0.5, help="mean think time per move, s (0.5)")
    p.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="start the games at random moments over this many seconds before measuring, so "
        "that they do not all end together (0: all start at once)",
    )
    p.add_argument("--servers", type=int, default=1, help="server processes (1)")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="use a throw-away PostgreSQL server (default: a SQLite file)",
    )
    p.add_argument("--database", metavar="URL", help="use this existing database instead")
    p.add_argument("--game", default="kuniumi", help="which game (kuniumi)")
    p.add_argument(
        "--page-like",
        action="store_true",
        help="behave as game pages do: compressed websockets, an anonymous watcher on every "
        "game, and each move sent over the page's socket as static/game.js sends it (the "
        "measure of the club's capacity)",
    )
    p.add_argument(
        "--http-moves",
        action="store_true",
        help="with --page-like: send each move as a page without a socket does, a POST "
        "whose answer holds the new view",
    )
    p.add_argument(
        "--api-players",
        action="store_true",
        help="with --page-like: the players have no socket, as API clients: the player to "
        "move reads the position (GET /api/games/N), thinks and posts the move (POST "
        "/api/games/N/move); only the watchers use sockets",
    )
    p.add_argument(
        "--game-affinity",
        action="store_true",
        help="with several servers: every connection of a game on one server, as a load "
        "balancer that routes a game's pages and socket by its number puts them (default: "
        "the seats of a game on different servers, the worst case)",
    )
    p.add_argument(
        "--register-over-http",
        action="store_true",
        help="register every player through the sign-up form (argon2: minutes for hundreds "
        "of players) instead of writing their accounts and sessions into the database",
    )
    p.add_argument("--seed", type=int, default=1, help="seed for moves and think times")
    p.add_argument(
        "--server-src",
        type=Path,
        metavar="DIR",
        help="run the servers from this source tree, e.g. an older revision's src unpacked "
        "with 'git archive REV src | tar -x -C DIR', to compare revisions under this same "
        "client (add --register-over-http if its database schema differs)",
    )
    p.add_argument("--progress", type=float, default=5.0, help="seconds between progress lines")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    from ludoteca.web.round.catalog import available_games

    if args.game not in available_games():
        p.error(f"no game {args.game!r} (games: {', '.join(sorted(available_games()))})")
    if not 1 <= args.games <= 2000:
        p.error("--games must be 1 to 2000")
    if not 1 <= args.servers <= 8:
        p.error("--servers must be 1 to 8")
    if not 0 < args.seconds <= 3600:
        p.error("--seconds must be more than 0 and at most 3600")
    if not 0 <= args.ramp <= 600:
        p.error("--ramp must be 0 to 600 seconds")
    if not 0 <= args.think <= 60:
        p.error("--think must be 0 to 60 seconds")
    if args.servers > 1 and not args.postgres and not (args.database or "").startswith("postgres"):
        p.error("several servers share one club through PostgreSQL: add --postgres")
    if (args.http_moves or args.api_players) and not args.page_like:
        p.error("--http-moves and --api-players go with --page-like")
    if args.http_moves and args.api_players:
        p.error("--http-moves or --api-players, not both")
    if args.server_src is not None:
        args.server_src = args.server_src.resolve()
        if not (args.server_src / "ludoteca" / "cli" / "main.py").is_file():
            p.error(f"--server-src {args.server_src} holds no ludoteca/cli/main.py")
    return args


def run_loop(coro):
    """Run the clients on uvloop where it is installed (it comes with uvicorn's standard
    extras): the client shares the machine with the servers, so it should cost little."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def table(result: dict) -> str:
    def lat(name: str) -> str:
        d = result[name]
        return f"{d['p50_ms']} / {d['p99_ms']} / {d['max_ms']} ms  ({d['count']} views)"

    v = result["verify"]
    cpu = ", ".join(f"{c}%" for c in result.get("server_cpu_percent", []))
    rows = [
        ("game", f"{result['game']} ({result['seats']} seats)"),
        ("servers", f"{result['servers']} on {result['database']}"),
        ("concurrent games", f"{result['concurrent_games']} ({result['players']} players)"),
        ("think time (mean)", f"{result['think_s']} s"),
        (
            "measured",
            f"{result['seconds']} s after a ramp of {result['ramp_seconds']:g} s "
            f"(set-up {result['setup_seconds']} s)",
        ),
        ("moves accepted", f"{result['moves_accepted']} of {result['moves_sent']} sent"),
        ("moves per second", f"{result['moves_per_s']}"),
        ("mover p50/p99/max", lat("mover_latency")),
        ("opponent p50/p99/max", lat("opponent_latency")),
        *(
            [
                ("moves sent over", result["moves_over"]),
                ("watcher p50/p99/max", lat("watcher_latency")),
                *(
                    [("HTTP move p50/p99/max", lat("http_move_latency"))]
                    if result["moves_over"] in ("http", "api")
                    else []
                ),
            ]
            if result.get("page_like")
            else []
        ),
        ("games started/finished", f"{result['games_started']} / {result['games_finished']}"),
        ("refused moves", f"{result['refused']} {result['refusals'] or ''}".strip()),
        ("errors", f"{sum(result['errors'].values())} {result['errors'] or ''}".strip()),
        ("reconnects", str(result["reconnects"])),
        ("server CPU", cpu or "-"),
        (
            "client CPU",
            f"{result['client_cpu_percent']}% (this process)"
            + ("  — THE CLIENT MAY BE THE LIMIT" if result.get("client_limited") else ""),
        ),
        (
            "client's loop late",
            "p99 {p99_ms} ms, max {max_ms} ms (delay of the client's own, in every latency)".format(
                **result["client_loop_lag"]
            ),
        ),
        ("records replayed", f"{v['games_checked']} games, {v['moves_stored']} moves"),
        ("nothing lost", "yes" if v["ok"] else f"NO: {len(v['problems'])} problems"),
        ("target", result["target"]),
    ]
    width = max(len(k) for k, _ in rows)
    out = [f"{k:<{width}}  {val}" for k, val in rows]
    out += [f"  - {problem}" for problem in v["problems"][:20]]
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-load-"))
    pg = None
    club = None
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if args.progress > 0 else None
    try:
        if args.database:
            url, where = args.database, "the given database"
        elif args.postgres:
            from ludoteca.web.infra.throwaway_postgres import ThrowawayPostgres

            pg = ThrowawayPostgres(max_connections=100 + 60 * args.servers).start()
            url, where = pg.fresh_database("load"), "PostgreSQL (throw-away)"
        else:
            url, where = f"sqlite:///{tmp / 'club.sqlite3'}", "SQLite"
        if say:
            say(f"starting {args.servers} server(s) on {where} (logs in {tmp})")
        club = ClubProcesses(url, args.servers, tmp, server_src=args.server_src).start()
        load = Load(
            club.bases,
            games=args.games,
            seconds=args.seconds,
            think=args.think,
            game=args.game,
            seed=args.seed,
            ramp=args.ramp,
            progress=say,
            progress_every=args.progress or 5.0,
            page_like=args.page_like,
            http_moves=args.http_moves,
            api_players=args.api_players,
            accounts_in=None if args.register_over_http else url,
            game_affinity=args.game_affinity,
        )
        cpu: dict[str, list] = {}

        def mark_start() -> None:
            cpu["start"] = club.cpu_seconds()
            cpu["at"] = [time.perf_counter()]

        result = run_loop(load.run(on_start=mark_start))
        end = club.cpu_seconds()
        span = time.perf_counter() - cpu["at"][0]
        result["server_cpu_percent"] = [
            round(100 * (b - a) / span) if a is not None and b is not None else None
            for a, b in zip(cpu["start"], end, strict=True)
        ]
        result["database"] = where
        result["game_affinity"] = args.game_affinity
        if say:
            say("checking every stored record …")
        if args.server_src is not None:
            club.stop()  # another revision's servers: this one's schema is put in for the check
        result["verify"] = verify(url, load.seen, upgrade=args.server_src is not None)
        del result["verify"]["stored_lengths"]  # one number per game: too long to print
        measures = ("mover_latency", "opponent_latency", "watcher_latency")
        p99 = max((result[k]["p99_ms"] or 0.0) for k in measures if k in result)
        result["p99_ms"] = p99
        result["client_limited"] = result["client_cpu_percent"] >= CLIENT_LIMIT_PERCENT
        met = args.games >= TARGET_GAMES and p99 < TARGET_P99_MS and result["verify"]["ok"]
        result["target"] = (
            f"{'met' if met else 'not met'} at {args.games} games (the target: "
            f"{TARGET_GAMES} games or more, p99 < {TARGET_P99_MS:g} ms, nothing lost)"
        )
        result["target_met"] = met
    except LoadError as exc:
        print(f"load failed: {exc}", file=sys.stderr)
        if club is not None:
            for i in range(club.count):
                print(f"--- server {i} log (end) ---\n{club.log_tail(i)}", file=sys.stderr)
        return 1
    finally:
        if club is not None:
            club.stop()
        if pg is not None:
            pg.stop()
        loadclient.clean_up_workdir(tmp, args.keep)
    return loadclient.report(result, args.json, table, result["errors"])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.seats = default_seats(args.game)
    return loadclient.run_interruptible(lambda: run(args), "servers stopped")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
