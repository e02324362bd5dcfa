"""``ludoteca serve``: run the web club on uvicorn.

The database (``--database``, else ``DATABASE_URL``, else ``sqlite:///var/ludoteca.sqlite3``
under the current directory) is created and migrated before the server accepts requests.

Behind a load balancer the client's address (which the log-in and registration limits count)
comes from its ``X-Forwarded-For`` header, trusted only from the addresses given to
``--forwarded-allow-ips`` (uvicorn's setting; by default ``$FORWARDED_ALLOW_IPS``, else
127.0.0.1 and ::1).
``/metrics`` (Prometheus) answers the addresses of ``--metrics-allow`` (default: this machine
only) and requests with ``Authorization: Bearer $LUDOTECA_METRICS_TOKEN`` when that is set.
Logs go to stderr as JSON lines (``--log-format json``, the default) or plain lines.
Websocket messages over ``WS_MAX_SIZE`` bytes close the connection; smaller ones are still
checked against the club's own, lower limit. A request's head (request line and headers) may
take at most 32 KB and ``--header-timeout`` seconds (:mod:`ludoteca.web.infra.httpprotocol`).
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys

from ludoteca.core.errors import MalformedError

from ..common import whole_number

WS_MAX_SIZE = 16 * 1024
MAX_BOT_WORKERS = 256
LOG_LEVELS = ("debug", "info", "warning", "error")


def register(subparsers) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the web club",
        description="Run the web club: register, play in the browser, watch replays.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument(
        "--port", type=whole_number(0, 65535), default=8000, help="port to listen on (8000)"
    )
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
    p.add_argument(
        "--bot-workers",
        type=whole_number(1, MAX_BOT_WORKERS),
        default=None,
        metavar="N",
        help="the most computer turns thought at once, the most workers the pool grows to "
        "(default $LUDOTECA_BOT_WORKERS, else sixteen a core, fewer where a quarter of the "
        "memory holds fewer workers of 120 MB); below it, as many turns think at once as "
        "their levels' times allow (four 0.25 s turns a core, sixteen 1 s ones): beyond the "
        "cores, each turn keeps its level's time and searches less",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="ADDRESSES",
        help="comma-separated addresses of trusted proxies (load balancers) whose "
        "X-Forwarded-For names the client; '*' trusts any (default: $FORWARDED_ALLOW_IPS "
        "or 127.0.0.1,::1)",
    )
    p.add_argument(
        "--registrations-per-hour",
        type=whole_number(1, 1_000_000),
        default=10,
        metavar="N",
        help="accounts that may be registered from one address in an hour (10); raise it "
        "for a room of new players behind one address",
    )
    p.add_argument(
        "--smtp",
        default=None,
        metavar="URL",
        help="send e-mail notifications through this SMTP server: smtp://[USER:PASSWORD@]HOST"
        "[:PORT][?starttls=1&from=ADDRESS] or smtps://… (default $LUDOTECA_SMTP; none: no e-mail)",
    )
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the club's address as players reach it, for links in e-mails and to tell "
        "the club's own links in forum posts (default http://HOST:PORT)",
    )
    p.add_argument(
        "--header-timeout",
        type=whole_number(1, 3600),
        default=10,
        metavar="SECONDS",
        help="close a connection whose request headers are not all sent within this many "
        "seconds (10); headers over 32 KB are refused with 431",
    )
    p.add_argument(
        "--sqlite-sync",
        choices=("normal", "full"),  # store.SQLITE_SYNC, not imported: parsing loads no database
        default=os.environ.get("LUDOTECA_SQLITE_SYNC", "normal"),
        help="with SQLite: 'normal' (default, or $LUDOTECA_SQLITE_SYNC) keeps every move "
        "through a crash of the club and never corrupts the file, but a power cut may take "
        "back the last moments' moves; 'full' waits for the disk on every commit, which "
        "makes a busy club queue moves",
    )
    p.add_argument(
        "--site-pages",
        default=None,
        metavar="DIR",
        help="a folder of the operator's own pages in Markdown: contact.md, privacy.md, "
        "terms.md (and contact.de.md … for one language), linked from /about; a page without "
        "a file shows the club's default text (default $LUDOTECA_SITE_PAGES)",
    )
    p.add_argument(
        "--metrics-allow",
        default=os.environ.get("LUDOTECA_METRICS_ALLOW", "127.0.0.1,::1"),
        metavar="ADDRESSES",
        help="comma-separated addresses or networks that may read /metrics (default "
        "$LUDOTECA_METRICS_ALLOW or 127.0.0.1,::1); $LUDOTECA_METRICS_TOKEN, when set, is "
        "a bearer token that may read them from anywhere",
    )
    p.add_argument(
        "--log-format",
        choices=("json", "plain"),
        default=os.environ.get("LUDOTECA_LOG_FORMAT", "json"),
        help="logs on stderr as JSON lines (default, or $LUDOTECA_LOG_FORMAT) or plain lines "
        "for a person",
    )
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=os.environ.get("LUDOTECA_LOG_LEVEL", "info"),
        help="the least severe records written (default info, or $LUDOTECA_LOG_LEVEL): "
        "warning leaves out the line per request and per websocket",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _check_host(args.host, args.port)
    given = args.database or os.environ.get("DATABASE_URL")
    if given:  # refused before anything is said or started (the default needs no check)
        _check_url(given)
    # said before the web stack is imported and the database migrated, which take a second
    print(f"ludoteca web club: starting on http://{args.host}:{args.port}/", flush=True)
    import uvicorn

    from ludoteca.web.app import create_app
    from ludoteca.web.infra.httpprotocol import HeadLimitedProtocol
    from ludoteca.web.infra.store import SQLITE_SYNC, database_url
    from ludoteca.web.infra.throttle import Limit, Limits
    from ludoteca.web.infra.wsprotocol import WebSocketProtocol

    url = database_url(args.database)
    _check_url(url)
    if args.sqlite_sync not in SQLITE_SYNC:  # a default from the environment: not checked yet
        print(
            f"ludoteca serve: LUDOTECA_SQLITE_SYNC={args.sqlite_sync!r}: use normal or full",
            file=sys.stderr,
        )
        return 2
    from ludoteca.web.ops import logs
    from ludoteca.web.ops.metrics import parse_networks

    if args.log_format not in logs.FORMATS:
        print(
            f"ludoteca serve: LUDOTECA_LOG_FORMAT={args.log_format!r}: use json or plain",
            file=sys.stderr,
        )
        return 2
    try:
        parse_networks(args.metrics_allow)
    except ValueError as exc:
        print(f"ludoteca serve: --metrics-allow: {exc}", file=sys.stderr)
        return 2
    if args.log_level not in LOG_LEVELS:
        print(
            f"ludoteca serve: LUDOTECA_LOG_LEVEL={args.log_level!r}: use {', '.join(LOG_LEVELS)}",
            file=sys.stderr,
        )
        return 2
    bot_workers = _bot_workers(args.bot_workers)
    if bot_workers is None:
        return 2
    logs.configure(args.log_format, level=getattr(logging, args.log_level.upper()))
    limits = Limits(register_per_address=Limit(args.registrations_per_hour, 60))
    smtp = args.smtp or os.environ.get("LUDOTECA_SMTP") or None
    if smtp:
        from ludoteca.web.notify.mail import SmtpServer

        try:
            SmtpServer.parse(smtp)
        except ValueError as exc:
            print(f"ludoteca serve: {exc}", file=sys.stderr)
            return 2
    public = args.public_url or f"http://{args.host}:{args.port}"
    site_pages = args.site_pages or os.environ.get("LUDOTECA_SITE_PAGES") or None
    if site_pages is not None and not os.path.isdir(site_pages):
        print(f"ludoteca serve: --site-pages {site_pages!r} is not a folder", file=sys.stderr)
        return 2
    app = create_app(
        url,
        bot_pool=args.bot_pool,
        bot_workers=bot_workers,
        limits=limits,
        smtp=smtp,
        public_url=public,
        sqlite_sync=args.sqlite_sync,
        site_pages=site_pages,
        metrics_allow=args.metrics_allow,
        metrics_token=os.environ.get("LUDOTECA_METRICS_TOKEN") or None,
    )
    print(f"ludoteca web club on http://{args.host}:{args.port}/ (database {_safe(url)})")
    HeadLimitedProtocol.head_seconds = float(args.header_timeout)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        # uvicorn's warnings and errors go through the club's log format; its INFO lines
        # (three per websocket) repeat what the club's own records say.
        log_level="warning",
        log_config=None,
        access_log=False,  # the club logs each request itself, with its route and ids
        ws=WebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
        http=HeadLimitedProtocol,
        proxy_headers=True,
        forwarded_allow_ips=args.forwarded_allow_ips,
        server_header=False,
    )
    return 0


def _check_url(url: str) -> None:
    """Refuse a database URL that does not parse, or names a database kind SQLAlchemy does
    not know, before anything is created."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        dialect = make_url(url).get_dialect()  # an unknown database kind is refused here too
    except (ArgumentError, ValueError):
        raise MalformedError(
            _safe(url), "not a database URL (e.g. sqlite:///var/club.sqlite3)"
        ) from None
    try:
        dialect.import_dbapi()  # the driver: mysql:// names one that may not be installed
    except ImportError as exc:
        raise MalformedError(
            _safe(url),
            f"the database driver is not installed ({getattr(exc, 'name', None) or exc}); "
            "the club runs on sqlite:/// and postgresql://",
        ) from None


def _bot_workers(given: int | None) -> int | None:
    """The cap of the bot workers: ``--bot-workers``, else ``$LUDOTECA_BOT_WORKERS``, else
    sized from this machine (:mod:`ludoteca.web.round.bot_workers`); None, said on stderr,
    when the environment's value is not a count."""
    from ludoteca.web.round.bot_workers import ENV, default_bot_workers

    if given is not None:
        return given
    text = os.environ.get(ENV)
    if not text:
        return default_bot_workers()
    try:
        return whole_number(1, MAX_BOT_WORKERS)(text)
    except argparse.ArgumentTypeError as exc:
        print(f"ludoteca serve: {ENV}: {exc}", file=sys.stderr)
        return None


def _check_host(host: str, port: int) -> None:
    """Refuse, before anything starts, an address this machine cannot listen on: a blank
    one, a name that does not resolve, an address not its own, or a port already taken
    (uvicorn found these out after the database was migrated, in its own words)."""
    if not host.strip():
        raise MalformedError(host, "--host must name an address, e.g. 127.0.0.1 or 0.0.0.0")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise MalformedError(host, f"--host is not an address to listen on ({reason})") from None
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except OSError as exc:
        raise MalformedError(
            f"{host}:{port}", f"cannot listen there ({exc.strerror or exc})"
        ) from None


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unparsed URL)"
