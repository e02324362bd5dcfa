"""Simulated players for the web club: the load benchmark's and the fault test's client.

Each simulated player is what a browser tab is to the club: it registers over HTTP, creates
or joins a game, loads the game page for its CSRF token and then plays through the game's
websocket (``/ws/games/{pk}``) exactly as ``static/game.js`` does: it waits for a view of type
``state`` with ``your_turn``, thinks, and sends ``{"type": "move", "move", "ply", "csrf"}``
with a random move from ``legal``. Every view carries the whole move list, so each client
knows which moves the club accepted; afterwards :func:`verify` checks that each of them is in
the stored record and that every record replays through the engine ("nothing lost").

Latency is measured from a move sent to the first view showing it, for the mover and for
every other seat, only on views pushed over a live connection (the first view after a
(re)connection answers the connection, not a move). A client whose server dies reconnects to
the next server in its list and carries on from the view it gets there.

Only loopback addresses are ever contacted; every loop is bounded by ``seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

PASSWORD = "load-test password"
CSRF_RE = re.compile(r'data-csrf="([0-9a-f]{64})"|name="csrf" value="([0-9a-f]{64})"')
SESSION_COOKIE = "ludoteca_session"
RECONNECT_ERRORS = (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, EOFError)


# --- the servers -----------------------------------------------------------------------------
def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Ask Linux to kill the server if the benchmark itself is killed (no orphans)."""
    os.setsid()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _free_port() -> int:
    from ludoteca.web.infra.throwaway_postgres import free_port

    return free_port()


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a process (Linux /proc), for the report."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_env(server_src: Path | None = None) -> dict[str, str]:
    """The environment a club's process runs in: this one, unbuffered, with ``server_src``
    (another revision's ``src``) first on ``PYTHONPATH`` where given."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if server_src is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(server_src), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
    return env


def ready_compiled_searches(server_src: Path | None = None) -> float:
    """Load the games' compiled searches once, in a process of their own, before a club is
    started; returns the seconds it took.

    numba keeps what it compiles on disk beside the source, so a club's bot workers load
    their searches from that cache in about a second. A fresh checkout has no cache: the
    first club started compiles them (11 s of a core here, more on a slower machine, and
    longer still beside a benchmark's load), and a benchmark's unmeasured first seconds
    did not cover it: the first run of ``bench/club_budgets.py`` on a fresh checkout timed
    replies that waited for the compiler (``hard``: p99 2.0 s, max 9.9 s), the next one 1.06
    s. This makes the cache what the measured run finds, whichever run it is."""
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ludoteca.web.round.worker_preload"],
        env=server_env(server_src),
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return time.perf_counter() - began


class ClubProcesses:
    """``count`` real ``ludoteca serve`` processes on one database, on loopback ports.

    The first one is started alone (it creates and migrates the database), the others after
    it. :meth:`kill` ends one at once, as a crash would; :meth:`stop` ends them all.
    """

    def __init__(
        self,
        url: str,
        count: int,
        logdir: Path,
        extra_args: tuple[str, ...] = (),
        server_src: Path | None = None,
    ):
        self.url = url
        self.count = count
        self.logdir = logdir
        self.extra_args = extra_args
        self.server_src = server_src
        """Run the servers from this source tree (another revision's ``src``) instead of the
        installed package, so that two revisions meet the very same client and machine."""
        self.procs: list[subprocess.Popen | None] = []
        self.ports: list[int] = []

    @property
    def bases(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def _spawn(self, index: int) -> None:
        """Start server ``index``: a new one at the end, or anew in the place of a stopped one."""
        port = _free_port()
        log = open(self.logdir / f"server{index}.log", "ab")  # noqa: SIM115 - the child keeps it
        cmd = [sys.executable, "-m", "ludoteca.cli.main", "serve", "--port", str(port)]
        cmd += ["--database", self.url, "--bot-pool", "thread", *self.extra_args]
        env = server_env(self.server_src)
        proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent, env=env
        )
        log.close()
        if index < len(self.procs):
            self.procs[index] = proc
            self.ports[index] = port
        else:
            self.procs.append(proc)
            self.ports.append(port)

    def _wait_ready(self, index: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        proc = self.procs[index]
        assert proc is not None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"server {index} exited with {proc.returncode}:\n{self.log_tail(index)}"
                )
            try:
                if httpx.get(self.bases[index] + "/rules", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server {index} did not answer within {timeout:.0f} s")

    def start(self) -> ClubProcesses:
        try:
            self._spawn(0)
            self._wait_ready(0)
            for index in range(1, self.count):
                self._spawn(index)
            for index in range(1, self.count):
                self._wait_ready(index)
        except BaseException:
            self.stop()
            raise
        return self

    def log_tail(self, index: int, chars: int = 3000) -> str:
        path = self.logdir / f"server{index}.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def pid(self, index: int) -> int | None:
        proc = self.procs[index]
        return proc.pid if proc is not None else None

    def cpu_seconds(self) -> list[float | None]:
        return [_cpu_seconds(p.pid) if p is not None else None for p in self.procs]

    def restart(self, index: int) -> None:
        """Start server ``index`` again after :meth:`kill` (on another port: see :attr:`bases`),
        as an operator would after a crash."""
        assert self.procs[index] is None, "stop the server first"
        self._spawn(index)
        self._wait_ready(index)

    def kill(self, index: int) -> None:
        proc = self.procs[index]
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        self.procs[index] = None

    def stop(self) -> None:
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for index, proc in enumerate(self.procs):
            if proc is None:
                continue
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                # A killed server with a large heap can take more than ten seconds to be
                # reaped on a busy machine; the run's figures are taken by now, so wait for it
                # rather than lose them to a traceback.
                proc.wait()
            self.procs[index] = None


# --- measurements ----------------------------------------------------------------------------
LAG_PROBE_SECONDS = 0.01
"""How often the client checks that its own event loop keeps up (:attr:`Metrics.loop_lag`)."""


def percentile(values: list[float], q: float) -> float | None:
    """The q-quantile (0..1) by the nearest-rank method; None without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def latency_summary(values: list[float]) -> dict[str, Any]:
    def ms(v: float | None) -> float | None:
        return None if v is None else round(v * 1000, 1)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 0.50)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values) if values else None),
    }


@dataclass
class Metrics:
    sent: int = 0
    accepted: int = 0
    refused: int = 0
    reconnects: int = 0
    games_started: int = 0
    games_finished: int = 0
    mover: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)
    watcher: list[float] = field(default_factory=list)
    """Page-like runs: from a move sent to an anonymous watcher's socket showing it."""
    http_move: list[float] = field(default_factory=list)
    """Page-like runs: the answer to each ``POST /api/games/PK/move``."""
    loop_lag: list[float] = field(default_factory=list)
    """How late this client's own event loop woke a task asked to sleep 10 ms: what of each
    latency above may be the client's delay in noticing, not the club's."""
    errors: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def refusal(self, message: str) -> None:
        self.refused += 1
        key = re.sub(r"'[^']*'|\d+", "…", message)[:120]
        self.refusals[key] = self.refusals.get(key, 0) + 1


@dataclass
class Sent:
    at: float
    text: str
    mover: str


@dataclass
class GameSeen:
    """Everything the clients learnt about one game."""

    pk: int
    moves: list[str] = field(default_factory=list)
    """The longest move list any client was shown."""
    sent: dict[int, Sent] = field(default_factory=dict)
    """The last move sent at each ply (by whoever was to move)."""
    accepted: dict[int, str] = field(default_factory=dict)
    """Moves their movers saw accepted, by ply."""
    diverged: list[str] = field(default_factory=list)
    finished: bool = False

    def observe(self, texts: list[str]) -> None:
        shared = min(len(texts), len(self.moves))
        if texts[:shared] != self.moves[:shared]:
            self.diverged.append(f"game {self.pk}: two clients were shown different histories")
        if len(texts) > len(self.moves):
            self.moves = texts


@dataclass
class Player:
    name: str
    http: httpx.AsyncClient
    bases: list[str]
    home: int
    address: str
    """This player's own loopback source address, as separate people have separate ones
    (the club limits registrations and log-ins per address)."""
    csrf: str = ""

    @property
    def base(self) -> str:
        return self.bases[self.home % len(self.bases)]

    def fail_over(self) -> None:
        self.home = (self.home + 1) % len(self.bases)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def open_accounts(url: str, names: list[str]) -> list[str]:
    """Accounts ``names`` (password :data:`PASSWORD`) with an open session each, written into
    the club's database as registering would: their session cookies, in order."""
    import secrets
    from datetime import timedelta

    from argon2 import PasswordHasher
    from sqlalchemy import create_engine, insert, select

    from ludoteca.web.accounts.service import hash_token
    from ludoteca.web.infra.store import Session, User, normalise_url, utcnow

    password_hash = PasswordHasher().hash(PASSWORD)  # one hash serves them all
    now = utcnow()
    tokens = [secrets.token_urlsafe(32) for _ in names]
    engine = create_engine(normalise_url(url))
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(User),
                [
                    {
                        "name": n,
                        "name_key": n.lower(),
                        "password_hash": password_hash,
                        "created": now,
                    }
                    for n in names
                ],
            )
            ids = dict(conn.execute(select(User.name, User.id).where(User.name.in_(names))).all())
            conn.execute(
                insert(Session),
                [
                    {
                        "token_hash": hash_token(token),
                        "user_id": ids[name],
                        "created": now,
                        "expires": now + timedelta(days=1),
                    }
                    for name, token in zip(names, tokens, strict=True)
                ],
            )
    finally:
        engine.dispose()
    return tokens


def _page_message(html: str) -> str:
    """The club's message on an error page (its ``<p>`` text), not the whole page."""
    found = re.findall(r"<p[^>]*>(.*?)</p>", html, re.S)
    text = " ".join(re.sub(r"<[^>]+>", "", p).strip() for p in found) or html
    return re.sub(r"\s+", " ", text)[:300]


class LoadError(RuntimeError):
    """The club refused something the load needs (registration, creating a game)."""


# --- the load ------------------------------------------------------------------------------------
class Load:
    """``games`` concurrent games between simulated players for ``seconds``.

    Players are spread over ``bases`` (player ``i`` starts on server ``i % len(bases)``, so
    the seats of one game sit on different servers when there are several), or, with
    ``game_affinity``, each group of players on one server (as a load balancer that routes a
    game's pages and socket by the game's number puts them). Each group of players keeps one
    game going: when it ends, another starts, until time is up.
    """

    def __init__(
        self,
        bases: list[str],
        *,
        games: int,
        seconds: float,
        think: float,
        game: str = "kuniumi",
        seats: int | None = None,
        seed: int = 1,
        ramp: float = 0.0,
        new_games: bool = True,
        grace: float = 10.0,
        progress: Callable[[str], None] | None = None,
        progress_every: float = 5.0,
        name_prefix: str = "",
        page_like: bool = False,
        http_moves: bool = False,
        accounts_in: str | None = None,
        game_affinity: bool = False,
        api_players: bool = False,
    ) -> None:
        if games < 1 or seconds <= 0 or think < 0:
            raise ValueError("games must be at least 1, seconds positive and think not negative")
        self.bases = bases
        self.games = games
        self.seconds = seconds
        self.think = think
        self.game = game
        self.seats = seats or default_seats(game)
        self.rng = random.Random(seed)
        self.ramp = ramp
        self.new_games = new_games
        self.grace = grace
        self.progress = progress
        self.progress_every = progress_every
        self.prefix = name_prefix or f"p{os.getpid() % 10000}x{random.randrange(10**6)}x"
        self.page_like = page_like
        """Behave as the game page does: compressed websockets, an anonymous watcher on
        every game, and each move sent as ``static/game.js``'s ``sendMove`` sends it (over
        the page's socket, which is open while the page shows the game)."""
        self.http_moves = http_moves
        """With ``page_like``: send every move as a page whose socket is down does, a
        ``POST /api/games/PK/move?view=1`` whose answer holds the new view (the views still
        come over the socket as well, as they do to a page whose socket is back)."""
        self.accounts_in = accounts_in
        """A database URL: write the players' accounts and open sessions straight into it
        instead of registering over HTTP. Registering hashes a password with argon2 (a tenth
        of a second of a core, on purpose), so a thousand players took minutes of set-up
        that measured nothing; the sessions are exactly what a log-in would store."""
        self.game_affinity = game_affinity
        """Every connection of a game on one server: the seats of a group of players, and the
        watcher of their game, share their server instead of being spread over the servers."""
        self.api_players = api_players
        """With ``page_like``: the players have no socket at all, as an API client (or a page
        whose socket stays down): the player to move reads the position with ``GET
        /api/games/PK``, thinks, and sends ``POST /api/games/PK/move``; the load client
        knows from its own answers whose turn comes next. Only the watchers use sockets."""
        self._tokens: list[str] = []
        self.metrics = Metrics()
        self.seen: dict[int, GameSeen] = {}
        self.go = asyncio.Event()
        self.stop_moving = False
        self.active = 0
        self.started_at = 0.0
        self.elapsed = 0.0
        self.setup_seconds = 0.0
        self.connected = 0
        self.client_cpu = 0.0
        """CPU time of this (client) process per second while playing: it shares the
        machine with the servers."""
        self._ws_tasks: set[asyncio.Task] = set()
        self._first_move_at: dict[int, float] = {}
        self._go_at = 0.0
        self._counted_before = (0, 0)

    # --- accounts and games -------------------------------------------------------------------
    async def _request(self, player: Player, method: str, path: str, **kw) -> httpx.Response:
        """One request to the player's server, moving to the next server if it is gone."""
        last: Exception | None = None
        for _ in range(len(player.bases) * 2):
            try:
                return await player.http.request(method, player.base + path, **kw)
            except httpx.TransportError as exc:
                last = exc
                player.fail_over()
                await asyncio.sleep(0.2)
        raise LoadError(f"{method} {path}: no server answered ({last!r})")

    async def _csrf(self, player: Player, path: str) -> str:
        r = await self._request(player, "GET", path)
        match = CSRF_RE.search(r.text)
        if r.status_code != 200 or not match:
            raise LoadError(f"GET {path} gave {r.status_code} without a CSRF token")
        return match.group(1) or match.group(2)

    def home_of(self, index: int) -> int:
        """The server player ``index`` starts on (see the class text)."""
        return (index // self.seats if self.game_affinity else index) % len(self.bases)

    async def register(self, index: int) -> Player:
        address = loopback_address(index)
        seeded = {SESSION_COOKIE: self._tokens[index]} if self._tokens else None
        http = httpx.AsyncClient(
            timeout=60,
            limits=httpx.Limits(max_connections=4),
            transport=httpx.AsyncHTTPTransport(local_address=address),
            cookies=seeded,
        )
        home = self.home_of(index)
        player = Player(f"{self.prefix}{index}", http, self.bases, home, address)
        if seeded:
            return player
        token = await self._csrf(player, "/register")
        r = await self._request(
            player,
            "POST",
            "/register",
            data={"name": player.name, "password": PASSWORD, "password2": PASSWORD, "csrf": token},
        )
        if r.status_code != 303 or SESSION_COOKIE not in http.cookies:
            raise LoadError(
                f"registering {player.name} gave {r.status_code}: {_page_message(r.text)}"
            )
        return player

    async def create_game(self, creator: Player, others: list[Player]) -> int:
        from ludoteca.core.registry import game_class

        cls = game_class(self.game)
        data = {"csrf": await self._csrf(creator, "/games/new"), "game": self.game}
        if cls.max_players != cls.min_players:
            data["players"] = str(self.seats)
        data["seat0"] = "me"
        for i, other in enumerate(others, start=1):
            data[f"seat{i}"] = "user"
            data[f"seat{i}_user"] = other.name
        r = await self._request(creator, "POST", "/games", data=data)
        if r.status_code != 303:
            raise LoadError(f"creating a game gave {r.status_code}: {_page_message(r.text)}")
        pk = int(r.headers["location"].rsplit("/", 1)[1])
        for other in others:
            token = await self._csrf(other, f"/games/{pk}")
            r = await self._request(other, "POST", f"/games/{pk}/join", data={"csrf": token})
            if r.status_code != 303:
                raise LoadError(f"joining game {pk} gave {r.status_code}: {_page_message(r.text)}")
        # The page a browser loads before opening the socket; its token signs the moves.
        for p in [creator, *others]:
            p.csrf = await self._csrf(p, f"/games/{pk}")
        self.seen[pk] = GameSeen(pk)
        self.metrics.games_started += 1
        return pk

    # --- one seat at one game -----------------------------------------------------------------
    def _think(self) -> float:
        """A think time with the requested mean, rarely very short or very long."""
        return self.rng.gammavariate(2.0, self.think / 2) if self.think > 0 else 0.0

    async def _move_later(self, player: Player, ws, seat: dict, ply: int, legal: list[str]):
        await self.go.wait()
        ramp_left = self._go_at + self._first_move_at.get(seat["pk"], 0.0) - time.perf_counter()
        await asyncio.sleep(max(0.0, ramp_left) + self._think())
        if self.stop_moving or seat["ply"] != ply or seat["ws"] is not ws or not legal:
            return
        text = self.rng.choice(legal)
        gs = self.seen[seat["pk"]]
        gs.sent[ply] = Sent(time.perf_counter(), text, player.name)
        self.metrics.sent += 1
        if self.http_moves:
            await self._move_over_http(player, seat["pk"], text, ply)
            return
        message = {"type": "move", "move": text, "ply": ply, "csrf": player.csrf}
        with contextlib.suppress(ConnectionClosed):  # the reading side reconnects
            await ws.send(json.dumps(message))

    async def _move_over_http(self, player: Player, pk: int, text: str, ply: int) -> None:
        """The page's way without a socket to send on (static/game.js, sendMove): POST the
        move, asking for the new view in the answer, which the page then shows."""
        started = time.perf_counter()
        try:
            r = await self._request(
                player,
                "POST",
                f"/api/games/{pk}/move?view=1&compact=1",
                json={"move": text, "ply": ply},
                headers={"X-CSRF-Token": player.csrf},
            )
            self.metrics.http_move.append(time.perf_counter() - started)
            if r.status_code != 200:
                self.metrics.refusal(str(r.json().get("error", r.status_code)))
                return
            shown = r.json().get("view")
            if not isinstance(shown, dict) or shown.get("type") != "state" or shown["ply"] <= ply:
                self.metrics.error("the move's answer holds no view after the move")
        except (LoadError, ValueError) as exc:
            self.metrics.error(f"http move: {type(exc).__name__}")

    def _on_state(self, player: Player, ws, seat: dict, data: dict, pushed: bool) -> bool:
        """Take in one view; schedule a move when it is this player's turn. True: game over."""
        now = time.perf_counter()
        gs = self.seen[seat["pk"]]
        if data["ply"] < seat["ply"]:
            self.metrics.error("a view older than one shown before")
        texts = [m["text"] for m in data["moves"]]
        gs.observe(texts)
        for ply in range(seat["ply"], len(texts)):
            sent = gs.sent.get(ply)
            if sent is None or sent.text != texts[ply]:
                continue
            if sent.mover == player.name:
                if ply not in gs.accepted:
                    gs.accepted[ply] = sent.text
                    self.metrics.accepted += 1
                if pushed:
                    self.metrics.mover.append(now - sent.at)
            elif pushed:
                self.metrics.opponent.append(now - sent.at)
        seat["ply"] = max(seat["ply"], data["ply"])
        if data["status"] == "finished":
            if not gs.finished:
                gs.finished = True
                self.metrics.games_finished += 1
            return True
        if data["your_turn"] and data["status"] == "active" and seat["scheduled"] != data["ply"]:
            seat["scheduled"] = data["ply"]
            task = asyncio.create_task(
                self._move_later(player, ws, seat, data["ply"], [m["text"] for m in data["legal"]])
            )
            self._ws_tasks.add(task)
            task.add_done_callback(self._ws_tasks.discard)
        return False

    async def play_seat(self, player: Player, pk: int) -> None:
        """Play ``pk`` for ``player`` until it ends (or the run stops), reconnecting as needed."""
        seat: dict[str, Any] = {"pk": pk, "ply": 0, "scheduled": None, "ws": None}
        shown = False
        failures = 0
        while True:
            url = player.base.replace("http://", "ws://", 1) + f"/ws/games/{pk}"
            try:
                async with connect(
                    url,
                    additional_headers={"Cookie": player.cookie_header()},
                    open_timeout=20,
                    max_size=2**22,
                    ping_interval=None,
                    compression="deflate" if self.page_like else None,
                    local_addr=(player.address, 0),
                ) as ws:
                    seat["scheduled"] = None
                    seat["ws"] = ws
                    pushed = False
                    async for raw in ws:
                        data = json.loads(raw)
                        kind = data.get("type")
                        if kind == "state":
                            if not shown:
                                shown = True
                                self.connected += 1
                            if self._on_state(player, ws, seat, data, pushed):
                                return
                            pushed = True
                            failures = 0
                        elif kind == "error":
                            self.metrics.refusal(str(data.get("message", "")))
                            seat["scheduled"] = None
                            await ws.send(json.dumps({"type": "refresh"}))
                            pushed = False
                        elif kind != "pong":
                            self.metrics.error(f"unexpected message {kind!r}")
                self.metrics.error("server closed the socket")
            except RECONNECT_ERRORS as exc:
                if self.stop_moving and not self._waiting():
                    return
                self.metrics.error(f"socket: {type(exc).__name__}")
            failures += 1
            if failures > 4 * len(player.bases) + 4:
                self.metrics.error("gave up reconnecting")
                return
            self.metrics.reconnects += 1
            player.fail_over()
            await asyncio.sleep(min(0.1 * failures, 1.0))

    async def play_over_api(self, players: list[Player], pk: int) -> None:
        """Play ``pk`` as API clients do (:attr:`api_players`): the player to move reads the
        position (``GET /api/games/PK``), thinks, then posts a random legal move; whose turn
        comes next is in the view (``to_move``, the seat; ``players`` in seat order). Until
        the game ends."""
        gs = self.seen[pk]
        mover = players[0]
        first = True
        while True:
            data = await self._api_view(mover, pk)
            if data is None:
                return
            if first:
                first = False
                self.connected += len(players)
            texts = [m["text"] for m in data["moves"]]
            gs.observe(texts)
            if data["status"] == "finished":
                if not gs.finished:
                    gs.finished = True
                    self.metrics.games_finished += 1
                return
            if not data["your_turn"] or data["status"] != "active":
                # Another seat is to move: its player reads the position next.
                seat = data.get("to_move")
                if not isinstance(seat, int) or not 0 <= seat < len(players):
                    self.metrics.error("api view: no seat to move")
                    return
                mover = players[seat]
                continue
            await self.go.wait()
            ramp_left = self._go_at + self._first_move_at.get(pk, 0.0) - time.perf_counter()
            await asyncio.sleep(max(0.0, ramp_left) + self._think())
            if self.stop_moving:
                return
            data = await self._api_view(mover, pk)  # the position just before moving
            if data is None:
                return
            legal = [m["text"] for m in data["legal"]]
            if not data["your_turn"] or not legal:
                continue
            ply = int(data["ply"])
            text = self.rng.choice(legal)
            gs.sent[ply] = Sent(time.perf_counter(), text, mover.name)
            self.metrics.sent += 1
            started = time.perf_counter()
            try:
                r = await self._request(
                    mover,
                    "POST",
                    f"/api/games/{pk}/move",
                    json={"move": text, "ply": ply},
                    headers={"X-CSRF-Token": mover.csrf},
                )
            except LoadError as exc:
                self.metrics.error(f"api move: {str(exc)[:60]}")
                return
            took = time.perf_counter() - started
            self.metrics.http_move.append(took)
            if r.status_code != 200:
                self.metrics.refusal(str(r.json().get("error", r.status_code)))
                continue
            gs.accepted[ply] = text
            self.metrics.accepted += 1
            self.metrics.mover.append(took)

    async def _api_view(self, player: Player, pk: int) -> dict[str, Any] | None:
        """``GET /api/games/PK`` as ``player`` (the whole view, as an API client asks), or
        None after an error (counted)."""
        try:
            r = await self._request(player, "GET", f"/api/games/{pk}")
        except LoadError as exc:
            self.metrics.error(f"api view: {str(exc)[:60]}")
            return None
        if r.status_code != 200:
            self.metrics.error(f"api view: {r.status_code}")
            return None
        data = r.json()
        if data.get("type") != "state":
            self.metrics.error("api view: not a state")
            return None
        return data

    async def watch(self, near: Player, pk: int) -> None:
        """An anonymous spectator of ``pk`` (compressed socket, as a browser's): how long each
        move takes to reach a page that only watches."""
        url = near.base.replace("http://", "ws://", 1) + f"/ws/games/{pk}"
        gs = self.seen[pk]
        shown = 0
        with contextlib.suppress(*RECONNECT_ERRORS):
            async with connect(
                url,
                open_timeout=20,
                max_size=2**22,
                ping_interval=None,
                compression="deflate",
                local_addr=(near.address, 0),
            ) as ws:
                async for raw in ws:
                    data = json.loads(raw)
                    if data.get("type") != "state":
                        continue
                    now = time.perf_counter()
                    ply = int(data["ply"])
                    if shown:
                        for seen in range(shown, ply):
                            sent = gs.sent.get(seen)
                            if sent is not None:
                                self.metrics.watcher.append(now - sent.at)
                    shown = max(shown, ply)
                    if data["status"] == "finished":
                        return

    # --- groups of players ----------------------------------------------------------------------
    async def _group(self, players: list[Player], first: int) -> None:
        round_ = 0
        pk = first
        order = players
        while True:
            self.active += 1
            watcher = asyncio.create_task(self.watch(players[0], pk)) if self.page_like else None
            try:
                if self.api_players:
                    await self.play_over_api(order, pk)
                else:
                    await asyncio.gather(*(self.play_seat(p, pk) for p in players))
            finally:
                self.active -= 1
                if watcher is not None:
                    watcher.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await watcher
            round_ += 1
            if not self.new_games or self.stop_moving:
                return
            order = players[round_ % len(players) :] + players[: round_ % len(players)]
            try:
                pk = await self.create_game(order[0], order[1:])
            except LoadError as exc:
                self.metrics.error(f"new game: {str(exc)[:80]}")
                return

    def _waiting(self) -> int:
        """Moves sent whose fate no client has seen yet (accepted or replaced)."""
        return sum(
            1
            for gs in self.seen.values()
            if not gs.finished
            for ply in gs.sent
            if ply >= len(gs.moves)
        )

    def snapshot(self) -> str:
        m = self.metrics
        elapsed = time.perf_counter() - self.started_at if self.started_at else 0.0
        accepted = m.accepted - self._counted_before[1]
        p = percentile(m.mover[-2000:], 0.99)
        q = percentile(m.opponent[-2000:], 0.99)
        lag = percentile(m.loop_lag[-500:], 0.99)
        fmt = "-" if p is None else f"{p * 1000:.0f}"
        fmt2 = "-" if q is None else f"{q * 1000:.0f}"
        return (
            f"[{elapsed:5.1f}s] moves {accepted} ({accepted / max(elapsed, 1e-9):.0f}/s)  "
            f"p99 mover {fmt} ms, opponent {fmt2} ms, client's loop late "
            f"{'-' if lag is None else f'{lag * 1000:.0f}'} ms  games {self.active} playing, "
            f"{m.games_finished} finished  refused {m.refused}  errors {sum(m.errors.values())}"
        )

    async def _probe_loop(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_PROBE_SECONDS)
            self.metrics.loop_lag.append(time.perf_counter() - asked - LAG_PROBE_SECONDS)

    async def _report_progress(self) -> None:
        while True:
            await asyncio.sleep(self.progress_every)
            if self.progress is not None:
                self.progress(self.snapshot())

    async def run(self, on_start: Callable[[], Any] | None = None) -> dict[str, Any]:
        """Register, create the games, play for ``seconds``, then wait for moves in flight."""
        t0 = time.perf_counter()
        count = self.games * self.seats
        gate = asyncio.Semaphore(16)

        if self.accounts_in:
            names = [f"{self.prefix}{i}" for i in range(count)]
            self._tokens = await asyncio.to_thread(open_accounts, self.accounts_in, names)

        async def register(i: int) -> Player:
            async with gate:
                return await self.register(i)

        players = await asyncio.gather(*(register(i) for i in range(count)))
        groups = [players[i : i + self.seats] for i in range(0, count, self.seats)]

        async def first_game(group: list[Player]) -> int:
            async with gate:
                return await self.create_game(group[0], group[1:])

        firsts = await asyncio.gather(*(first_game(g) for g in groups))
        pairs = zip(groups, firsts, strict=True)
        tasks = [asyncio.create_task(self._group(group, pk)) for group, pk in pairs]
        await self._wait_connected(len(players))
        self.setup_seconds = time.perf_counter() - t0
        if self.progress:
            self.progress(
                f"set up {count} players and {self.games} games in "
                f"{self.setup_seconds:.1f} s; playing for {self.seconds:g} s"
            )
        for pk in firsts:
            self._first_move_at[pk] = self.rng.uniform(0.0, self.ramp)
        # What the set-up made lives to the end: collections need not walk it again (a full
        # one over a thousand players' clients paused this loop for up to 266 ms, which
        # every latency measured then would have counted as the club's).
        gc.collect()
        gc.freeze()
        reporter = asyncio.create_task(self._report_progress())
        probe = asyncio.create_task(self._probe_loop())
        self.started_at = self._go_at = time.perf_counter()
        self.go.set()
        try:
            if self.ramp > 0:
                # Games begin at random moments over the ramp, so that they do not all end
                # (and new ones start) together; measuring begins once all are going.
                await asyncio.sleep(self.ramp)
                m = self.metrics
                for measured in (m.mover, m.opponent, m.watcher, m.http_move, m.loop_lag):
                    measured.clear()
                self._counted_before = (m.sent, m.accepted)
                self.started_at = time.perf_counter()
                if self.progress:
                    self.progress(f"ramp of {self.ramp:g} s over; measuring now")
            cpu_start = time.process_time()
            if on_start is not None:
                result = on_start()
                if asyncio.iscoroutine(result):
                    await result
            await asyncio.sleep(max(0.0, self.seconds - (time.perf_counter() - self.started_at)))
            self.stop_moving = True
            self.elapsed = time.perf_counter() - self.started_at
            self.client_cpu = (time.process_time() - cpu_start) / self.elapsed
            deadline = time.perf_counter() + self.grace
            while self._waiting() and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
        finally:
            reporter.cancel()
            probe.cancel()
            for task in [*tasks, *self._ws_tasks]:
                task.cancel()
            await asyncio.gather(*tasks, *self._ws_tasks, return_exceptions=True)
            await asyncio.gather(*(p.http.aclose() for p in players), return_exceptions=True)
        return self.summary()

    async def _wait_connected(self, count: int, timeout: float = 120) -> None:
        """Until every seat has been shown its first view (so all start together)."""
        deadline = time.perf_counter() + timeout
        while self.connected < count:
            if time.perf_counter() > deadline:
                raise LoadError(f"only {self.connected} of {count} players connected in time")
            await asyncio.sleep(0.05)

    def summary(self) -> dict[str, Any]:
        m = self.metrics
        accepted = m.accepted - self._counted_before[1]
        return {
            "game": self.game,
            "seats": self.seats,
            "servers": len(self.bases),
            "concurrent_games": self.games,
            "players": self.games * self.seats,
            "think_s": self.think,
            "seconds": round(self.elapsed, 2),
            "setup_seconds": round(self.setup_seconds, 2),
            "ramp_seconds": self.ramp,
            "moves_sent": m.sent - self._counted_before[0],
            "moves_accepted": accepted,
            "moves_per_s": round(accepted / self.elapsed, 1) if self.elapsed else None,
            "mover_latency": latency_summary(m.mover),
            "opponent_latency": latency_summary(m.opponent),
            **(
                {
                    "page_like": True,
                    "moves_over": "api"
                    if self.api_players
                    else ("http" if self.http_moves else "socket"),
                    "watcher_latency": latency_summary(m.watcher),
                    "http_move_latency": latency_summary(m.http_move),
                }
                if self.page_like
                else {}
            ),
            "refused": m.refused,
            "refusals": m.refusals,
            "errors": m.errors,
            "reconnects": m.reconnects,
            "games_started": m.games_started,
            "games_finished": m.games_finished,
            "client_cpu_percent": round(100 * self.client_cpu),
            "client_loop_lag": latency_summary(m.loop_lag),
        }


def loopback_address(index: int) -> str:
    """A distinct address in 127.0.0.0/8 for player ``index`` (Linux routes all of it to
    the loopback interface), from 127.1.0.1 on."""
    if not 0 <= index < 250 * 250 * 200:
        raise ValueError("too many players for distinct loopback addresses")
    return f"127.{1 + index // 62500}.{index // 250 % 250}.{index % 250 + 1}"


def default_seats(game_id: str) -> int:
    """Two seats where the game allows it, else its fewest."""
    from ludoteca.core.registry import game_class

    cls = game_class(game_id)
    return min(max(2, cls.min_players), cls.max_players)


# --- afterwards ------------------------------------------------------------------------------
def verify(url: str, seen: dict[int, GameSeen], *, upgrade: bool = False) -> dict[str, Any]:
    """Check every game in the store against what the clients were shown (``upgrade``: first
    bring the schema to this revision's, after servers of another revision wrote it).

    Each stored record must replay through the engine; every move a client saw accepted
    must be stored at its ply; the longest history any client was shown must be the start
    of the stored one; and no two clients may have been shown different histories.
    """
    from ludoteca.core.errors import GameError
    from ludoteca.record import replay
    from ludoteca.web.infra.store import Store
    from ludoteca.web.round.service import GameService

    store = Store(url, migrate_schema=upgrade)
    service = GameService(store)
    problems: list[str] = []
    lengths: dict[int, int] = {}
    stored_moves = 0
    accepted = 0
    try:
        for pk, gs in sorted(seen.items()):
            problems += gs.diverged
            record = service.record(pk)
            stored_moves += len(record.moves)
            lengths[pk] = len(record.moves)
            try:
                replay(record)
            except GameError as exc:
                problems.append(f"game {pk}: the stored record does not replay: {exc}")
            for ply, text in sorted(gs.accepted.items()):
                accepted += 1
                if ply >= len(record.moves) or record.moves[ply] != text:
                    problems.append(f"game {pk}: accepted move {ply + 1} {text!r} is not stored")
            if record.moves[: len(gs.moves)] != gs.moves:
                problems.append(f"game {pk}: the history shown to players is not the stored one")
    finally:
        store.dispose()
    return {
        "games_checked": len(seen),
        "moves_stored": stored_moves,
        "accepted_checked": accepted,
        "problems": problems,
        "ok": not problems,
        "stored_lengths": lengths,
    }


def clean_up_workdir(tmp: Path, keep: bool) -> None:
    """Remove a benchmark's temporary folder, or say where it is when ``--keep`` asked for
    its logs: every benchmark that starts servers ends this way, run or fail."""
    if keep:
        print(f"kept {tmp}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def run_interruptible(run: Callable[[], int], stopped: str = "server stopped") -> int:
    """Run a benchmark so that SIGTERM (a CI timeout, ``kill``) unwinds like Ctrl-C: the
    benchmark's ``finally`` blocks then stop its servers and remove its temporary files, and
    the exit status is 130 as after an interrupt. ``stopped`` names what was stopped."""

    def terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        return run()
    except KeyboardInterrupt:
        print(f"interrupted; {stopped} and temporary files removed", file=sys.stderr)
        return 130


def report(
    result: dict[str, Any], as_json: bool, table: Callable[[dict[str, Any]], str], errors: object
) -> int:
    """Print a benchmark's result (``--json`` or its table) and give its exit status: 0 only
    when every stored record checked out and no request failed (``errors`` is empty or 0)."""
    print(json.dumps(result, indent=2) if as_json else table(result))
    return 0 if result["verify"]["ok"] and not errors else 1
