"""Every page's first visit after the club starts: server time and compressed size.

    python bench/first_visits.py [--database PATH] [--json]
                                 [--target-ms 200] [--target-kb 100]

It starts the club in process (the application with its lifespan, as ``ludoteca serve``
runs it; then ``--settle`` seconds pass) on ``--database`` (a SQLite file: e.g. the
million-game club ``python -m bench.stats_page`` fills and leaves, with ``--database``), or
on a fresh one, and then asks
each page once as a visitor who has not logged in, in order: every ``GET`` route of the
application without a parameter, and those with a game (``/rules/GAME``,
``/analysis/GAME``, ...), a finished game's number or a member's name filled in. It reports
each page's status, its server time (the request handed to the application to its last
byte, straight through the ASGI interface: no socket), and its HTML's size compressed as
the club sends it (gzip). Pages over ``--target-ms`` or ``--target-kb`` are marked; the
exit status is 1 if any is.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pages import _render  # noqa: E402

SKIPPED = ("/metrics", "/healthz", "/readyz", "/logout", "/api/", "/ws/", "/static/")
"""Not pages: the operators' endpoints, the JSON API, sockets and files."""


def page_paths(app, games: list[str], finished: int | None, member: str | None) -> list[str]:
    """The application's pages as a visitor may ask for them, parameters filled in."""
    from starlette.routing import Route

    def routes(items) -> list:
        """Every route, those of included routers too (FastAPI keeps them inside)."""
        found = []
        for item in items:
            inner = getattr(item, "original_router", None)
            found += routes(inner.routes) if inner is not None else [item]
        return found

    out: list[str] = []
    for route in routes(app.routes):
        if not isinstance(route, Route) or "GET" not in (route.methods or ()):
            continue
        path = route.path
        if path.startswith(SKIPPED) or path.endswith((".svg", ".png", ".js", ".css", ".txt")):
            continue
        if "{" not in path:
            out.append(path)
            continue
        name = path[path.index("{") + 1 : path.index("}")].split(":")[0]
        if path.count("{") > 1:
            continue
        if name in ("game_id", "game"):
            out += [path.replace(path[path.index("{") : path.index("}") + 1], g) for g in games]
        elif name == "pk" and finished is not None:
            out.append(path.replace(path[path.index("{") : path.index("}") + 1], str(finished)))
        elif name in ("name", "username") and member is not None:
            out.append(path.replace(path[path.index("{") : path.index("}") + 1], member))
    return list(dict.fromkeys(out))


def measure(database: Path | None, settle: float = 2.0) -> list[dict[str, Any]]:
    from sqlalchemy import select

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.store import GameRow, User
    from ludoteca.web.round.catalog import available_games

    path = database or Path(tempfile.mkdtemp()) / "club.sqlite3"
    app = create_app(f"sqlite:///{path}", bot_pool="thread")
    rows = []
    with TestClient(app) as client:
        time.sleep(settle)  # the server has started; its first visitor comes a moment later
        store = app.state.club.store
        with store.reading() as db:
            finished = db.scalar(
                select(GameRow.id).where(GameRow.status == "finished").order_by(GameRow.id.desc())
            )
            member = db.scalar(select(User.name).order_by(User.id))
        headers = [(b"host", b"127.0.0.1:8000"), (b"accept-encoding", b"gzip"),
                   (b"accept-language", b"en")]  # fmt: skip
        assert client.portal is not None
        for page in page_paths(app, sorted(available_games()), finished, member):

            async def once(page=page) -> tuple[float, int, int]:
                return await _render(app, page, headers)

            seconds, status, size = client.portal.call(once)
            rows.append({"page": page, "status": status, "ms": round(1000 * seconds, 1),
                         "kb_gzip": round(size / 1024, 1)})  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database",
        type=Path,
        default=None,
        help="an existing SQLite file to start the club on (default: a fresh one)",
    )
    parser.add_argument(
        "--target-ms",
        type=float,
        default=200.0,
        help="a page's server time above this many ms is marked (default 200)",
    )
    parser.add_argument(
        "--target-kb",
        type=float,
        default=100.0,
        help="a page's HTML above this many KB gzipped is marked (default 100)",
    )
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after start (2)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.database is not None and not args.database.exists():
        parser.error(f"no database at {args.database}")
    rows = measure(args.database, args.settle)
    for row in rows:
        row["ok"] = row["ms"] <= args.target_ms and row["kb_gzip"] <= args.target_kb
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'page':34} {'status':>6} {'ms':>8} {'KB gz':>7}")
        for r in rows:
            flag = "" if r["ok"] else "  OVER"
            print(f"{r['page']:34} {r['status']:>6} {r['ms']:8.1f} {r['kb_gzip']:7.1f}{flag}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
