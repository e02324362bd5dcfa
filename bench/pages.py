"""Server time of the club's pages, measured in process without network.

    python bench/pages.py [--renders 1000] [--json] [--target-p50 1] [--target-p99 5]

It starts the club on a fresh SQLite file (the application itself, its lifespan running, as
``ludoteca serve`` runs it), registers two members, seats them at a game of each of the four
games and plays a few moves in each. Then it renders each page ``--renders`` times, as the
first member (whose session is looked up on every request, as a browser's is) and as a
visitor who has not logged in, and reports the time from handing the request to the
application to its last byte, p50, p99 and max:

- the lobby ``/``, the rules index ``/rules`` and each game's rules page ``/rules/GAME``,
- the leaderboard ``/leaderboard``,
- the game page ``/games/PK`` of each game.

The requests are driven straight through the ASGI interface on the application's own event
loop, so no socket, HTTP parser or client library is timed: what is left is what the server
does for a page. Figures on a shared machine are noisy; the slowest renders show the noise
more than the page. Exit status 1 when a page misses a target.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = ("comune", "comino", "kuniumi", "hexagone")


sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))


def play_openings(alice, bob, rng: random.Random) -> dict[str, int]:
    """Seat ``alice`` and ``bob`` (HTTP clients of two members, ``bob`` named so) at one game
    of each kind and play a few moves in each: the game numbers, by game."""
    from helpers import create_game, join, legal_texts, move, view

    games = {}
    for game in GAMES:
        pk = create_game(alice, game, [("me", ""), ("user", "bob")], players=2)
        joined = join(bob, pk)
        assert joined.status_code == 303, (game, joined.status_code)
        for _ in range(6):
            for player in (alice, bob):
                seen = view(player, pk)
                if seen.get("your_turn") and legal_texts(seen):
                    move(player, pk, rng.choice(legal_texts(seen)), ply=seen["ply"])
        if view(alice, pk)["ply"] < 6:
            raise SystemExit(f"the {game} game did not get its first moves")
        games[game] = pk
    return games


def _seed_club(client, rng: random.Random) -> dict[str, int]:
    """Two members registered on the app ``client`` drives, at :func:`play_openings`."""
    from helpers import register
    from starlette.testclient import TestClient

    other = TestClient(client.app)
    assert register(client, "alice").status_code == 303
    assert register(other, "bob").status_code == 303
    return play_openings(client, other, rng)


async def _render(app, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[float, int, int]:
    """One GET through the ASGI interface: (seconds, status, body bytes)."""
    status = 0
    size = 0
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    start = time.perf_counter()
    await app(scope, receive, send)
    return time.perf_counter() - start, status, size


def measure(renders: int, seed: int = 1) -> list[dict[str, Any]]:
    """Each page's server time over ``renders`` renders (after 20 untimed ones), for a
    visitor and for a member."""
    from starlette.testclient import TestClient

    from ludoteca.web.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/club.db", bot_pool="thread")
        with TestClient(app) as client:
            games = _seed_club(client, random.Random(seed))
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            visitor = [
                (b"host", b"127.0.0.1:8000"),
                (b"accept-language", b"en"),
                (b"accept-encoding", b"gzip"),
            ]
            member = [*visitor, (b"cookie", cookie.encode())]
            pages = ["/", "/rules", *(f"/rules/{g}" for g in GAMES), "/leaderboard"]
            pages += [f"/games/{pk}" for pk in games.values()]
            rows = []
            for who, headers in (("visitor", visitor), ("member", member)):
                for path in pages:
                    assert client.portal is not None

                    async def run(path=path, headers=headers) -> list[tuple[float, int, int]]:
                        return [await _render(app, path, headers) for _ in range(20 + renders)]

                    timings = client.portal.call(run)[20:]
                    statuses = {status for _, status, _ in timings}
                    if statuses != {200}:
                        raise SystemExit(f"{path} answered {sorted(statuses)}")
                    ms = sorted(t * 1000 for t, _, _ in timings)
                    rows.append(
                        {
                            "page": path,
                            "who": who,
                            "renders": renders,
                            "p50_ms": round(statistics.median(ms), 3),
                            "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
                            "max_ms": round(ms[-1], 3),
                            "bytes": timings[-1][2],
                        }
                    )
            return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=1000, help="renders per page (1000)")
    parser.add_argument(
        "--target-p50", type=float, default=1.0, help="p50 a page may take, ms (default 1)"
    )
    parser.add_argument(
        "--target-p99", type=float, default=5.0, help="p99 a page may take, ms (default 5)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the opening moves played (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.renders < 1:
        parser.error("--renders must be at least 1")
    rows = measure(args.renders, args.seed)
    for row in rows:
        row["ok"] = row["p50_ms"] <= args.target_p50 and row["p99_ms"] <= args.target_p99
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'page':18} {'as':8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'bytes':>8}")
        for r in rows:
            flag = "ok" if r["ok"] else "SLOW"
            print(
                f"{r['page']:18} {r['who']:8} {r['p50_ms']:8.3f} {r['p99_ms']:8.3f} "
                f"{r['max_ms']:8.2f} {r['bytes']:8,} {flag}"
            )
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
