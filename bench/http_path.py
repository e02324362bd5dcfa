"""What one request of an API client costs the club, in process: SQL statements and time.

    python bench/http_path.py [--games 30] [--moves 400] [--json]

It starts the club on a fresh SQLite file (the application with its lifespan, as ``ludoteca
serve`` runs it), registers two members per game, starts ``--games`` Kuniumi games between
them, and then plays ``--moves`` moves as an API client does (``bench/load.py --page-like
--api-players``): the player to move reads the position (``GET /api/games/N``) and sends a
random legal move (``POST /api/games/N/move``), until ``--moves`` or every game is over.
Each request goes straight through the ASGI interface, one at a time, so what is measured
is the server's own work: per kind of request, the SQL statements it ran (counted on the
engine) and its time, p50 and p99.

``--load-like`` makes each move's requests as ``bench/load.py --page-like --api-players``
makes them: the player who has just moved reads the position (and learns whose turn it is),
the player to move reads it, reads it again after thinking, and sends the move; and an
anonymous watcher of every game is told of each move (its views made as for a socket, not
sent). It then also prints the processor time of a whole move: its requests and the
watcher's view, the server's work per move under that load, the GZip of each answer
included (the players accept it, as httpx does).

Statement counts do not depend on how busy the machine is: they are the figure to compare
between revisions (``PYTHONPATH=OLD/src python bench/http_path.py``). Times on a shared
machine are noisy: compare processor times of revisions run in turns.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))


async def _call(
    app, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes = b""
) -> tuple[float, int, bytes]:
    """One request through the ASGI interface: (seconds, status, body)."""
    status = 0
    out: list[bytes] = []
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            out.append(message.get("body", b""))

    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    start, cpu = time.perf_counter(), time.process_time()
    await app(scope, receive, send)
    _CPU.append(time.process_time() - cpu)
    return time.perf_counter() - start, status, b"".join(out)


_CPU: list[float] = []
"""The processor time of each request (every thread of this process: the request is the
only work it does), the figure least disturbed by a busy machine."""


async def _post_random_move(
    app, rng, seen: dict[str, Any], pk: int, headers: list[tuple[bytes, bytes]], csrf: str
) -> tuple[float, int, bytes]:
    """A random legal move of the view ``seen``, posted as an API client posts it."""
    text = rng.choice([m["text"] for m in seen["legal"]])
    payload = json.dumps({"move": text, "ply": seen["ply"]}).encode()
    return await _call(
        app,
        "POST",
        f"/api/games/{pk}/move",
        [*headers, (b"x-csrf-token", csrf.encode()), (b"content-type", b"application/json")],
        payload,
    )


def _summary(
    kind: str, seconds: list[float], statements: list[int], cpu: list[float]
) -> dict[str, Any]:
    ms = sorted(t * 1000 for t in seconds)
    return {
        "request": kind,
        "count": len(ms),
        "statements_mean": round(statistics.mean(statements), 2),
        "cpu_ms_median": round(1000 * statistics.median(cpu), 3),
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
    }


class _Unsent:
    """A watcher's socket that drops what it is sent (the views are made all the same)."""

    async def send_text(self, _text: str) -> None:
        return None


async def _play_like_load(
    app, tables, players, moves: int, rng, timed, counted, watchers, per_move: list[float]
) -> None:
    """The moves of :func:`measure` with ``load_like`` (see the module's text)."""

    async def read(pk: int, name: str) -> dict[str, Any] | None:
        counted[0] = 0
        took, status, body = await _call(app, "GET", f"/api/games/{pk}", players[name][0])
        timed["GET view"][0].append(took)
        timed["GET view"][1].append(counted[0])
        timed["GET view"][2].append(_CPU[-1])
        if status != 200:
            return None
        return json.loads(gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body)

    done, before = 0, -1
    movers = {pk: 0 for pk, _ in tables}
    while done < moves and done > before:  # until enough, or every game is over
        before = done
        for pk, names in tables:
            started = time.process_time()
            seen = await read(pk, names[movers[pk]])  # who moved last (or first)
            if seen is None or seen["status"] != "active":
                continue
            if not seen["your_turn"]:
                movers[pk] = seen["to_move"]
                seen = await read(pk, names[movers[pk]])
            seen = await read(pk, names[movers[pk]])  # after thinking
            if seen is None or not seen["your_turn"]:
                continue
            headers, csrf = players[names[movers[pk]]]
            counted[0] = 0
            took, status, body = await _post_random_move(app, rng, seen, pk, headers, csrf)
            if status != 200:
                raise SystemExit(f"a move was refused: {status} {body[:200]!r}")
            timed["POST move"][0].append(took)
            timed["POST move"][1].append(counted[0])
            timed["POST move"][2].append(_CPU[-1])
            per_move.append(time.process_time() - started)
            for watcher in watchers:
                watcher.queue.clear()  # as if sent
            done += 1


def measure(games: int, moves: int, seed: int = 1, load_like: bool = False) -> list[dict[str, Any]]:
    from helpers import PASSWORD, create_game, join
    from sqlalchemy import event
    from starlette.testclient import TestClient

    from ludoteca.web.accounts.service import SESSION_COOKIE
    from ludoteca.web.app import create_app

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/club.db", bot_pool="thread")
        with TestClient(app) as admin:
            players: dict[str, tuple[list[tuple[bytes, bytes]], str]] = {}
            tables: list[tuple[int, list[str]]] = []
            accounts = app.state.club.accounts
            for g in range(games):
                pair = []
                for side in "ab":
                    name = f"m{g}{side}"
                    # Straight into the accounts (the sign-up form limits sign-ups per address).
                    token = accounts.open_session(accounts.register(name, PASSWORD))
                    client = TestClient(app, cookies={SESSION_COOKIE: token})
                    cookie = f"{SESSION_COOKIE}={token}".encode()
                    headers = [(b"host", b"127.0.0.1:8000"), (b"cookie", cookie)]
                    if load_like:
                        headers.append((b"accept-encoding", b"gzip, deflate"))
                    players[name] = (headers, accounts.csrf_token(token))
                    pair.append((name, client))
                pk = create_game(pair[0][1], "kuniumi", [("me", ""), ("user", pair[1][0])])
                assert join(pair[1][1], pk).status_code == 303
                tables.append((pk, [pair[0][0], pair[1][0]]))
            counted = [0]

            def count(*_args) -> None:
                counted[0] += 1

            engine = app.state.club.store.engine
            event.listen(engine, "before_cursor_execute", count)
            timed: dict[str, tuple[list[float], list[int], list[float]]] = {
                "GET view": ([], [], []), "POST move": ([], [], [])}  # fmt: skip

            async def play() -> None:
                done, before = 0, -1
                while done < moves and done > before:  # until enough, or every game is over
                    before = done
                    for pk, names in tables:
                        for name in names:
                            headers, csrf = players[name]
                            counted[0] = 0
                            took, status, body = await _call(
                                app, "GET", f"/api/games/{pk}", headers
                            )
                            timed["GET view"][0].append(took)
                            timed["GET view"][1].append(counted[0])
                            timed["GET view"][2].append(_CPU[-1])
                            seen = json.loads(body)
                            if status != 200 or not seen.get("your_turn"):
                                continue
                            counted[0] = 0
                            took, status, body = await _post_random_move(
                                app, rng, seen, pk, headers, csrf
                            )
                            if status != 200:
                                raise SystemExit(f"a move was refused: {status} {body[:200]!r}")
                            timed["POST move"][0].append(took)
                            timed["POST move"][1].append(counted[0])
                            timed["POST move"][2].append(_CPU[-1])
                            done += 1

            watchers: list[Any] = []
            per_move: list[float] = []

            async def watch() -> None:
                from ludoteca.web.infra.outbox import Connection

                for pk, _ in tables:
                    watcher = Connection(_Unsent(), pk, None, None, "127.0.0.9")  # type: ignore[arg-type]
                    app.state.club.hub.connections[pk].add(watcher)
                    watchers.append(watcher)

            async def play_like_load() -> None:
                await _play_like_load(
                    app, tables, players, moves, rng, timed, counted, watchers, per_move
                )

            assert admin.portal is not None
            if load_like:
                admin.portal.call(watch)
            admin.portal.call(play_like_load if load_like else play)
            if len(timed["POST move"][0]) < moves:
                print(f"every game ended after {len(timed['POST move'][0])} moves: use more "
                      "--games", file=sys.stderr)  # fmt: skip
            event.remove(engine, "before_cursor_execute", count)
            rows = [_summary(kind, *values) for kind, values in timed.items()]
            if per_move:
                moved = _summary("whole move", per_move, [0], per_move)
                moved["statements_mean"] = round(
                    (sum(timed["GET view"][1]) + sum(timed["POST move"][1])) / len(per_move), 2
                )
                rows.append(moved)
            return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=30, help="Kuniumi games started, two members each (default 30)"
    )
    parser.add_argument(
        "--moves", type=int, default=400, help="moves measured, over all the games (default 400)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    parser.add_argument(
        "--load-like",
        action="store_true",
        help="each move's requests as bench/load.py --api-players makes them, with a watcher "
        "on every game; also prints a whole move's processor time",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.moves < 1:
        parser.error("--games and --moves must be at least 1")
    rows = measure(args.games, args.moves, args.seed, args.load_like)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'request':10} {'count':>6} {'statements':>10} {'CPU ms':>7} {'p50 ms':>8} "
          f"{'p99 ms':>8}")  # fmt: skip
    for r in rows:
        print(f"{r['request']:10} {r['count']:6} {r['statements_mean']:10.2f} "
              f"{r['cpu_ms_median']:7.3f} {r['p50_ms']:8.3f} {r['p99_ms']:8.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
