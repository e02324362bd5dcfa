"""The ASGI application of the web club: ``create_app(database_url)``.

It wires storage, accounts, the game service and the live hub together, bounds request
sizes, adds security headers, and turns every refusal into a clear message (HTML for pages,
JSON for the API) while never showing a traceback to anyone.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import sys
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DataError, DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from ludoteca.core.messages import N_, Text
from ludoteca.web.accounts.password import router as password_router
from ludoteca.web.accounts.profiles import router as profiles_router
from ludoteca.web.accounts.routes import router as accounts_router
from ludoteca.web.accounts.service import Accounts
from ludoteca.web.analysis.live import router as analysis_live_router
from ludoteca.web.analysis.review import Reviews
from ludoteca.web.analysis.routes import router as analysis_router
from ludoteca.web.challenges.routes import router as challenges_router
from ludoteca.web.challenges.service import Challenges
from ludoteca.web.chat import live as chat_live
from ludoteca.web.chat.models import ChatLine
from ludoteca.web.club import Club
from ludoteca.web.forum.routes import router as forum_router
from ludoteca.web.help.routes import router as help_router
from ludoteca.web.help.site_pages import checked_folder
from ludoteca.web.i18n.catalogs import check_compiled
from ludoteca.web.i18n.routes import router as language_router
from ludoteca.web.infra.fanout import events_on_commit, notify_on_commit, register_event
from ludoteca.web.infra.store import Store, database_unavailable, database_url
from ludoteca.web.infra.throttle import Limits, Throttle
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.learn.challenge import router as challenge_router
from ludoteca.web.learn.puzzles import router as puzzles_router
from ludoteca.web.learn.routes import router as learn_router
from ludoteca.web.lobby.new_game import router as new_game_router
from ludoteca.web.lobby.pairing.pool import Pool
from ludoteca.web.lobby.pairing.socket import Seekers
from ludoteca.web.lobby.pairing.socket import router as pairing_router
from ludoteca.web.lobby.routes import router as lobby_router
from ludoteca.web.middleware import (
    NO_PAGE,
    UNAVAILABLE,
    UNEXPECTED,
    UNSTORABLE,
    BodyLimit,
    InternalErrors,
    RefuseNul,
    SecurityHeaders,
    error_response,
)
from ludoteca.web.moderation.routes import router as moderation_router
from ludoteca.web.notify import service as notify_service
from ludoteca.web.notify.live import Inbox
from ludoteca.web.notify.live import router as inbox_router
from ludoteca.web.notify.mail import TURN_DELAY_SECONDS, Mailer, SmtpServer
from ludoteca.web.notify.models import Notification
from ludoteca.web.notify.routes import router as notify_router
from ludoteca.web.ops import logs as ops_logs
from ludoteca.web.ops import recent as recent_errors
from ludoteca.web.ops.fanout_lag import fanout_probe
from ludoteca.web.ops.health import QUIET_PATHS
from ludoteca.web.ops.health import router as health_router
from ludoteca.web.ops.metrics import ClubMetrics, MetricsAccess, RequestMetrics
from ludoteca.web.ops.page import router as operator_router
from ludoteca.web.ops.routes import router as metrics_router
from ludoteca.web.presence.routes import beat_forever
from ludoteca.web.presence.routes import router as presence_router
from ludoteca.web.ratings.service import update_ratings
from ludoteca.web.round import clocks, offers_live, vacation
from ludoteca.web.round.api import HOT_ROUTES
from ludoteca.web.round.api import router as game_api_router
from ludoteca.web.round.assets import router as game_assets_router
from ludoteca.web.round.botqueue import BOT_WORKERS
from ludoteca.web.round.bots import BotRunner, PlayThreads, take_over_stalled_bots
from ludoteca.web.round.hub import Hub
from ludoteca.web.round.pages import router as game_pages_router
from ludoteca.web.round.preview import router as preview_router
from ludoteca.web.round.replays import router as replays_router
from ludoteca.web.round.seats import make_pool
from ludoteca.web.round.service import GameService
from ludoteca.web.round.socket import router as live_router
from ludoteca.web.rules.routes import router as rules_router
from ludoteca.web.stats.routes import router as stats_router
from ludoteca.web.stats.service import Stats
from ludoteca.web.stats.tallies import tally_finished
from ludoteca.web.tournaments.director import Director, finish_hook
from ludoteca.web.tournaments.routes import router as tournaments_router
from ludoteca.web.tournaments.service import Tournaments
from ludoteca.web.warm import warm_up

log = logging.getLogger("ludoteca.web")
STATIC = Path(__file__).with_name("static")
GC_THRESHOLDS = (20_000, 10, 10)
"""The collector's thresholds while serving (Python's default is 700, 10, 10). Each full
collection walks every live object and pauses every move in flight; a server allocates
fast, so by default it ran several a minute under load. Collecting young objects after
20,000 allocations instead of 700 makes full collections some thirty times rarer."""
GIL_SWITCH_SECONDS = 0.002
"""How long a Python thread of the server may run before another waiting one takes over.

The event loop (sockets, every broadcast) shares the interpreter with the worker threads that
read and write the database and render pages. With Python's default of 5 ms, a move arriving
while pages are rendered for players setting up new games waited 5 ms at each of the half
dozen hand-overs between the loop and the threads on its way; the load benchmark's p99 went
from about 110 ms at 5 ms to under 60 ms at 1-2 ms (and back up to about 200 ms at 0.5 ms,
where the switching itself costs too much): ``bench/load.py --games 200 --think 2``."""


def chat_event(obj: object) -> tuple[str, int] | None:
    return ("chat", obj.id) if isinstance(obj, ChatLine) else None


def note_event(obj: object) -> tuple[str, int] | None:
    return ("note", obj.id) if isinstance(obj, Notification) else None


def create_app(
    url: str | None = None,
    *,
    bot_pool: str = "process",
    bot_workers: int = BOT_WORKERS,
    bot_delay: float = 0.0,
    limits: Limits | None = None,
    smtp: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    sqlite_sync: str = "normal",
    turn_mail_delay: float = TURN_DELAY_SECONDS,
    site_pages: str | Path | None = None,
    metrics_allow: str | None = None,
    metrics_token: str | None = None,
) -> FastAPI:
    """The club's application on the database at ``url``. ``smtp`` (``smtp://host:port``)
    lets it send e-mail, whose links start with ``public_url``; a turn e-mail waits
    ``turn_mail_delay`` seconds for its player to come by first. ``site_pages``: a folder of
    the operator's contact, privacy and terms pages (:mod:`.help.site_pages`). ``/metrics``
    answers the addresses or networks of ``metrics_allow`` (default: this machine) and
    requests bearing ``metrics_token``."""
    server = SmtpServer.parse(smtp) if smtp else None  # a bad URL is refused before anything
    pages = checked_folder(site_pages)
    metrics_access = MetricsAccess(metrics_allow, metrics_token)  # a bad address: refused here
    check_compiled()  # a club must not silently lose its languages
    store = Store(database_url(url), sqlite_sync=sqlite_sync)
    secret = store.setting("secret_key", lambda: secrets.token_hex(32)).encode()
    # The round, wired from its parts: the hub is built from what it uses.
    accounts = Accounts(store, secret, Throttle(store, limits))
    games = GameService(store)
    threads = PlayThreads()
    bots = BotRunner(games, threads, delay=bot_delay, workers=bot_workers)
    hub = Hub(store, games, bots, threads, open_sessions=accounts.open_sessions)
    club = Club(
        store=store,
        accounts=accounts,
        games=games,
        hub=hub,
        bot_pool_kind=bot_pool,
        bot_delay=bot_delay,
    )
    club.public_url = public_url
    club.metrics = ClubMetrics()
    bots.think_seconds = club.metrics.think_seconds
    club.challenges = Challenges(store, club.games)
    club.reviews = Reviews(club)
    club.inbox = Inbox(club)
    hub.on_sessions_ended.append(club.inbox.session_ended)
    club.stats = Stats(store)
    club.site_pages = pages
    if server is not None:
        club.mailer = Mailer(store, server, public_url, secret, turn_mail_delay)
    club.games.on_finish.append(notify_service.finish_hook)
    club.games.on_moves.append(notify_service.turn_hook)
    # Chat lines and notifications reach the sockets that should show them once committed.
    register_event(chat_event)
    register_event(note_event)
    events_on_commit(store, hub.origin, hub.local_event)
    hub.event_handlers["chat"] = lambda ident: chat_live.deliver(hub, ident)
    hub.event_handlers["note"] = club.inbox.on_note
    # Quick pairing: a game made of seeks tells their pages, here and in the other processes.
    club.seekers = Seekers(Pool(store, games, hub.origin))
    club.seekers.pool.told = lambda pk: hub.local_event("pair", pk)
    hub.event_handlers["pair"] = club.seekers.on_paired
    hub.on_message("chat", chat_live.validate, chat_live.on_message)
    # Offers during a game (abort, draw, takeback): each step reaches the players live.
    register_event(offers_live.event_of)
    hub.event_handlers["offer"] = lambda ident: offers_live.deliver(hub, ident)
    hub.on_message("offer", offers_live.validate, offers_live.on_message)
    club.games.on_turn.append(vacation.turn_hook)  # a turn reaching someone away waits
    club.accounts.on_session_closed.append(hub.session_closed)  # log-out closes its sockets
    club.games.on_finish.append(update_ratings)  # rated games change ratings as they end
    # A tournament's game gives its pairing the points as it ends (same transaction).
    club.tournaments = Tournaments(store)
    club.director = Director(store, games)
    club.games.on_finish.append(finish_hook)
    # /stats counts every game as it ends. Last: its row is shared by every game of the month
    # and held from this write to the commit, which the other hooks' writes would delay.
    club.games.on_finish.append(tally_finished)
    # With PostgreSQL every committed change to a game tells the other server processes.
    notify_on_commit(store, hub.origin)
    club.metrics.watch(club)
    recent_errors.install()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        club.bot_pool = bots.pool = make_pool(bot_pool, bots.workers)
        club.analysis_pool = make_pool(bot_pool, workers=1)
        # What pages make once a process, made before their first visit (ludoteca.web.warm),
        # without holding up the start.
        threading.Thread(
            target=warm_up, args=(Stats(store).snapshot,), name="warm-up", daemon=True
        ).start()
        await hub.start()
        # A restarted server picks up every game waiting for a computer move.
        for pk in await anyio.to_thread.run_sync(club.games.games_waiting_for_bots):
            hub.kick_bots(pk)
        # Ends games whose player to move ran out of time, though no one acts.
        sweeper = asyncio.create_task(clocks.sweep(club.games.expire_overdue, hub.publish))
        # Takes over computer turns left behind by a server process that died.
        bot_watch = asyncio.create_task(take_over_stalled_bots(games, hub.kick_bots))
        mail = asyncio.create_task(club.mailer.run()) if club.mailer is not None else None
        reviewing = asyncio.create_task(club.reviews.serve())
        assert club.seekers is not None
        pairing = asyncio.create_task(club.seekers.run())
        presence = asyncio.create_task(beat_forever(club))
        probe = asyncio.create_task(fanout_probe(hub, club)) if hub.listener is not None else None
        director = asyncio.create_task(club.director.run())  # starts, pairs, ends tournaments
        app.state.workers = {
            "clock sweep": sweeper,
            "computer watch": bot_watch,
            "tournament director": director,
        }
        if mail is not None:
            app.state.workers["mail"] = mail
        # Everything loaded so far (the engines, the web stack) lives as long as the server:
        # keep it out of the collector's full passes, whose pauses would otherwise land on
        # whichever move is being answered.
        gc.collect()
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        switch = sys.getswitchinterval()
        sys.setswitchinterval(GIL_SWITCH_SECONDS)
        try:
            yield
        finally:
            sys.setswitchinterval(switch)
            gc.set_threshold(*thresholds)
            sweeper.cancel()
            bot_watch.cancel()
            director.cancel()
            if mail is not None:
                mail.cancel()
            reviewing.cancel()
            pairing.cancel()
            presence.cancel()
            if probe is not None:
                probe.cancel()
            gc.unfreeze()
            await hub.stop()
            for task in bots.tasks.values():
                task.cancel()
            for pool in (club.bot_pool, club.analysis_pool):
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)
            store.dispose()

    app = FastAPI(
        title="ludoteca",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        # FastAPI's OpenTelemetry hooks looked up the global providers at every request; the
        # club counts and logs its requests itself (ludoteca/web/ops)
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.club = club
    app.state.metrics_access = metrics_access
    app.state.workers = {}
    # Pages and views carry the board's SVG and the structured legal moves, which repeat a
    # lot (a Comune view lists thousands of turns): compressed, a game page is a tenth of it.
    # The websocket compresses each message itself (permessage-deflate).
    # Level 1, zlib's fastest, as the websockets' views: on a 40 KB game page the default 9
    # took 1.5 ms and 4 took 0.5 ms, for 6% more bytes (bench/pages.py); an API client's
    # view of a game (15 KB) takes 25 µs at 1 against 50 at 4, for 11% more bytes, and an
    # API client reads the position two or three times a move.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=1)
    app.add_middleware(InternalErrors)
    app.add_middleware(BodyLimit)
    app.add_middleware(RefuseNul)

    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestMetrics, metrics=lambda: club.metrics, skip=QUIET_PATHS)
    app.add_middleware(ops_logs.RequestContext, quiet=QUIET_PATHS)

    @app.exception_handler(ClubError)
    async def club_error(request: Request, exc: ClubError):
        pk = str(request.path_params.get("pk", ""))
        if exc.changed and pk.isdigit():  # refused, but the game ended on time
            await club.hub.publish(int(pk))
        response = error_response(request, exc.text, exc.status)
        if exc.retry_after and "Retry-After" not in response.headers:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = {404: NO_PAGE, 405: N_("That action is not allowed here.")}.get(
            exc.status_code, str(exc.detail)
        )
        return error_response(request, message, exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        fields = ", ".join(str(e.get("loc", ["?"])[-1]) for e in exc.errors())
        return error_response(
            request,
            Text("The request is missing or has bad fields: {fields}.", {"fields": fields}),
            400,
        )

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_error(request: Request, exc: Exception):
        """The database down or restarting is a moment's unavailability (503, with
        ``Retry-After``), not a fault; a value it refuses to store (a number out of its
        range) is a bad request. Anything else is unexpected."""
        if database_unavailable(exc):
            log.warning("database unavailable on %s: %s", request.url.path, exc)
            return error_response(request, UNAVAILABLE, 503)
        if isinstance(exc, DataError):
            log.warning("a value the database refused on %s: %s", request.url.path, exc)
            return error_response(request, UNSTORABLE, 400)
        log.error("unexpected error on %s", request.url.path, exc_info=exc)
        return error_response(request, UNEXPECTED, 500)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception):
        log.exception("unexpected error on %s", request.url.path)
        return error_response(request, UNEXPECTED, 500)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        """Browsers ask for ``/favicon.ico`` whatever the page links (a bookmark, a page that
        failed to load): the club's mark, so that no page load ends in a 404."""
        return FileResponse(
            STATIC / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    app.include_router(health_router)
    app.include_router(metrics_router)
    app.include_router(operator_router)
    app.include_router(live_router)
    app.include_router(game_api_router)
    app.router.routes[0:0] = HOT_ROUTES  # matched first: see HotRoute
    app.include_router(accounts_router)
    app.include_router(lobby_router)
    app.include_router(new_game_router)
    app.include_router(pairing_router)
    app.include_router(presence_router)
    app.include_router(game_pages_router)
    app.include_router(replays_router)
    app.include_router(rules_router)
    app.include_router(profiles_router)
    app.include_router(password_router)
    app.include_router(forum_router)
    app.include_router(moderation_router)
    app.include_router(help_router)
    app.include_router(language_router)
    app.include_router(game_assets_router)
    app.include_router(notify_router)
    app.include_router(inbox_router)
    app.include_router(challenges_router)
    app.include_router(chat_live.router)
    app.include_router(offers_live.router)
    app.include_router(vacation.router)
    app.include_router(stats_router)
    app.include_router(preview_router)
    app.include_router(analysis_router)
    app.include_router(analysis_live_router)
    app.include_router(learn_router)
    app.include_router(puzzles_router)
    app.include_router(challenge_router)
    app.include_router(tournaments_router)
    return app
