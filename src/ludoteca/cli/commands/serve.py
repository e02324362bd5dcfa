"""``ludoteca serve``: run the web club on uvicorn.

The database (``--database``, else ``DATABASE_URL``, else ``sqlite:///var/ludoteca.sqlite3``
under the current directory) is created and migrated before the server accepts requests.
"""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the web club",
        description="Run the web club: register, play in the browser, watch replays.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL; default $DATABASE_URL or sqlite:///var/ludoteca.sqlite3",
    )
    p.add_argument(
        "--bot-pool",
        choices=("process", "thread"),
        default="process",
        help="where computer players think (default: a process pool)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ludoteca.web.app import create_app
    from ludoteca.web.store import database_url

    url = database_url(args.database)
    app = create_app(url, bot_pool=args.bot_pool)
    print(f"ludoteca web club on http://{args.host}:{args.port}/ (database {_safe(url)})")
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=64 * 1024,
        proxy_headers=True,
        server_header=False,
    )
    return 0


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unparsed URL)"
