"""The club's Prometheus metrics, with ``prometheus-client``.

Each server process answers ``/metrics`` for itself: behind a balancer, Prometheus scrapes
every process at its own address (its ``instance`` label tells them apart) and sums them in
its queries. Nothing here is shared between processes, so nothing needs
``prometheus_client``'s multi-process mode; the computer players' worker processes record
nothing themselves (their think time is measured in the server process that waits for them).

Counters and histograms are updated as things happen; the figures that live in the database
(live games, the mail outbox) are read once per scrape, by :class:`DatabaseFigures`.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from ludoteca.web.club import Club

log = logging.getLogger("ludoteca.web")

PAGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""A move is stored and shown in a few milliseconds on an idle club (README, capacity
table): finer buckets at the low end than a page's."""
THINK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
DEFAULT_ALLOWED = "127.0.0.1,::1"
"""Who may read ``/metrics`` unless told otherwise: this machine only."""


class ClubMetrics:
    """Every metric of one club application, in a registry of its own (several clubs in
    one test process do not mix their figures)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter(
            "ludoteca_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ("route", "method", "status"),
            registry=r,
        )
        self.request_seconds = Histogram(
            "ludoteca_http_request_seconds",
            "Time from a request received to its answer begun, by route template.",
            ("route",),
            buckets=PAGE_BUCKETS,
            registry=r,
        )
        self.move_seconds = Histogram(
            "ludoteca_move_seconds",
            "A move from received: stage=stored once committed, stage=sent once its views "
            "are queued to every watcher in this process.",
            ("stage",),
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        for stage in ("stored", "sent"):  # reported from the start, at zero
            self.move_seconds.labels(stage)
        self.websockets = Gauge(
            "ludoteca_websockets_open", "Open websockets, by kind.", ("kind",), registry=r
        )
        self.bot_queue = Gauge(
            "ludoteca_bot_queue_waiting",
            "Computer turns waiting for a worker in this process.",
            registry=r,
        )
        self.bot_busy = Gauge(
            "ludoteca_bot_queue_busy", "Computer turns being searched now.", registry=r
        )
        self.think_seconds = Histogram(
            "ludoteca_bot_think_seconds",
            "Time a computer player took to choose a move (in its worker).",
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.fanout_lag = Histogram(
            "ludoteca_fanout_lag_seconds",
            "Time from another process's NOTIFY to this process hearing it (probes every "
            "few seconds; PostgreSQL only; includes any clock difference between machines).",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.stats_age = Gauge(
            "ludoteca_stats_age_seconds",
            "Age of the /stats figures this process shows (-1: none made yet).",
            registry=r,
        )
        self.errors = Gauge(
            "ludoteca_errors_logged",
            "Errors this process has logged since it started.",
            registry=r,
        )

    def watch(self, club: Club) -> None:
        """Read the club's live figures at each scrape: cheap in-memory counts through
        ``set_function``, the database's through :class:`DatabaseFigures`."""
        hub = club.hub
        self.websockets.labels("game").set_function(
            lambda: sum(len(conns) for conns in hub.connections.values())
        )
        self.websockets.labels("member").set_function(
            lambda: sum(map(len, club.inbox.sockets.values())) if club.inbox is not None else 0
        )
        self.bot_queue.set_function(hub.bots.queue.waiting)
        self.bot_busy.set_function(lambda: hub.bots.queue.busy)

        def stats_age() -> float:
            made = club.stats.made() if club.stats is not None else None
            return -1.0 if made is None else time.monotonic() - made

        self.stats_age.set_function(stats_age)
        from ludoteca.web.ops.recent import RECENT

        self.errors.set_function(lambda: RECENT.count)
        self.registry.register(DatabaseFigures(club))
        self.registry.register(ProcessCounts(club))


class DatabaseFigures(Collector):
    """Figures read from the database at each scrape: the live games (the whole club's,
    whichever process serves them) and the mail outbox. A database that does not answer
    leaves them out of that scrape rather than failing it."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def describe(self) -> Iterable:
        return []

    def collect(self) -> Iterable:
        from ludoteca.web.ops.overview import club_counts

        try:
            counts = club_counts(self.club.store)
        except Exception as exc:  # the scrape still reports the rest
            log.warning("metrics: the database figures failed: %s", type(exc).__name__)
            return
        games = GaugeMetricFamily(
            "ludoteca_games", "Games in the club, by status.", labels=("status",)
        )
        for status in ("open", "active"):
            games.add_metric((status,), counts.games.get(status, 0))
        yield games
        yield GaugeMetricFamily(
            "ludoteca_mail_outbox_waiting", "E-mails waiting to be sent.", value=counts.outbox
        )
        yield GaugeMetricFamily(
            "ludoteca_mail_outbox_failed",
            "E-mails given up after every attempt failed.",
            value=counts.outbox_failed,
        )


class ProcessCounts(Collector):
    """Counts the club's parts keep for themselves, reported as counters."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def describe(self) -> Iterable:
        return []

    def collect(self) -> Iterable:
        mailer = self.club.mailer
        sent = CounterMetricFamily(
            "ludoteca_mail_sent", "E-mails this process handed to the SMTP server."
        )
        sent.add_metric((), mailer.sent if mailer is not None else 0)
        yield sent
        failed = CounterMetricFamily(
            "ludoteca_mail_send_failures",
            "E-mails the SMTP server did not take from this process (each is tried again).",
        )
        failed.add_metric((), mailer.failures if mailer is not None else 0)
        yield failed
        stats = CounterMetricFamily(
            "ludoteca_stats_refresh_failures", "Failed computations of the /stats figures."
        )
        stats.add_metric((), self.club.stats.failures if self.club.stats is not None else 0)
        yield stats


class MetricsAccess:
    """Who may read ``/metrics``: a request from one of ``allowed`` (addresses or networks,
    comma-separated), or one bearing ``token`` (``Authorization: Bearer …``) when one is set.

    The address is the one uvicorn reports, which behind a trusted proxy is the client's
    from ``X-Forwarded-For``: a public visitor coming through nginx is not the loopback."""

    def __init__(self, allowed: str | None = None, token: str | None = None) -> None:
        self.networks = parse_networks(allowed if allowed is not None else DEFAULT_ALLOWED)
        self.token = token or None

    def allows(self, address: str | None, authorization: str | None) -> bool:
        if self.token and authorization:
            scheme, _, given = authorization.partition(" ")
            if scheme.lower() == "bearer" and secrets.compare_digest(
                given.strip().encode(), self.token.encode()
            ):
                return True
        if not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


def parse_networks(text: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``"127.0.0.1, 10.0.0.0/8"`` as networks; raises ValueError naming a bad entry."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an address or network") from None
    return out


def route_of(scope: dict) -> str:
    """The route template a request matched (``/games/{pk}``), never its raw path: raw
    paths would make a metric series per game and per mistyped address."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    return "unmatched"


class RequestMetrics:
    """ASGI middleware counting each HTTP request by route template and status, with its
    time to the answer's start. ``skip`` are paths not counted (the health checks)."""

    def __init__(self, app, metrics: Callable[[], ClubMetrics | None], skip: frozenset[str]):
        self.app = app
        self.metrics = metrics
        self.skip = skip

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path") in self.skip:
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = 500

        async def sending(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            metrics = self.metrics()
            if metrics is not None:
                route = route_of(scope)
                metrics.requests.labels(route, scope.get("method", "?"), str(status)).inc()
                metrics.request_seconds.labels(route).observe(time.perf_counter() - started)
