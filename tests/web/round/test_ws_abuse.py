"""Abusive websocket clients against a real server: a spectator that never reads, a client
that floods, one that sends 100 MB, refreshes asked for in bulk. Meanwhile moves answer in
their usual time, the other watchers are told of every move, and the clocks end games on
time. The clients are the load benchmark's (``bench/abuseclients.py``), as ``bench/abuse.py``
runs them to measure the honest players' latency."""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from datetime import timedelta

import httpx
import pytest
from bench.abuseclients import BigSender, Flooder, NeverReader
from sqlalchemy import update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ludoteca.core.registry import get
from ludoteca.core.table import start_from
from ludoteca.web.infra.outbox import SEND_SECONDS
from ludoteca.web.infra.store import GameRow, Store, utcnow
from ludoteca.web.round.flood import (
    REFRESHES_PER_ADDRESS,
    REFRESHES_PER_CONNECTION,
    REFRESHES_REFUSED_BEFORE_CLOSE,
    TOO_MANY_REFRESHES,
)
from tests.web.helpers import Server, create_game, csrf_of, join, legal_texts, register, view
from tests.web.round.test_clocks import shorten_clock

_names = itertools.count(1)
MOVE_SECONDS = 3.0
"""The longest an honest move may take here (usually some 30 ms; the margin is for a
loaded 2-core machine). Before the club's delivery stopped waiting on clients, a move on a
game with a stalled spectator did not answer at all."""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("abused")
    srv = Server(f"sqlite:///{tmp / 'club.sqlite3'}", log=tmp / "server.log").start()
    yield srv
    srv.kill()


def until_closed(ws) -> tuple[list[dict], int | None]:
    """Every message until the server closes the connection, and its close code."""
    seen = []
    try:
        while True:
            seen.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None


def member(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=20)
    client.name = f"honest{next(_names)}"  # type: ignore[attr-defined]
    assert register(client, client.name).status_code == 303  # type: ignore[attr-defined]
    return client


class Watcher:
    """A spectator that reads every view of a game, in a thread."""

    def __init__(self, server: Server, pk: int) -> None:
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/games/{pk}", open_timeout=10)
        self.views: list[dict] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.ws:
                data = json.loads(text)
                if data.get("type") == "state":
                    with self.changed:
                        data["_received"] = time.monotonic()
                        self.views.append(data)
                        self.changed.notify_all()
        except Exception:
            pass

    def wait_for(self, check, seconds: float) -> dict | None:
        deadline = time.monotonic() + seconds
        with self.changed:
            while True:
                for data in reversed(self.views):
                    if check(data):
                        return data
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def end_now(server: Server, pk: int) -> None:
    """Make the player to move in ``pk`` out of time (as if they had thought too long)."""
    store = Store(server.url, migrate_schema=False)
    with store.session() as db:
        past = utcnow() - timedelta(seconds=1)
        db.execute(update(GameRow).where(GameRow.id == pk).values(deadline=past))
        db.commit()
    store.dispose()


class Mirror:
    """The game ``pk`` followed in a local engine, so that the test can keep its own random
    game going: a random two-player Hexagone game may end within the test's moves."""

    def __init__(self, server: Server, pk: int) -> None:
        store = Store(server.url, migrate_schema=False)
        with store.session() as db:
            row = db.get(GameRow, pk)
            assert row is not None
            self.state = start_from(get(row.game, **dict(row.options)), row.seed, row.start)
        store.dispose()
        self.applied = 0

    def lasting(self, v: dict, texts: list[str]) -> list[str]:
        """Of ``texts`` (the moves ``v`` offers), those that do not end the game, if any."""
        for m in v["moves"][self.applied :]:
            self.state.play(m["text"])
        self.applied = len(v["moves"])
        keep = []
        for text in texts:
            probe = self.state.clone()
            probe.play(text)
            if not probe.is_over:
                keep.append(text)
        return keep or texts


def to_move(players: list[httpx.Client], pk: int) -> tuple[httpx.Client, dict]:
    """The player to move in ``pk`` and their view of it."""
    for player in players:
        v = view(player, pk)
        assert v["status"] == "active", "the game ended before the test was done with it"
        if v["your_turn"] and v["legal"]:
            return player, v
    raise AssertionError("no one is to move")


def timed_game(server: Server, game: str, seconds: float, **kw) -> tuple[int, list[httpx.Client]]:
    a, b = member(server), member(server)
    pk = create_game(a, game, [("me", ""), ("open", "")], **kw)
    shorten_clock(server, pk, seconds)
    assert join(b, pk).status_code == 303
    return pk, [a, b]


def test_abusive_clients_hold_up_no_one(club):
    """A spectator that never reads, sending pings all the while, stalls only itself:
    it is dropped, while moves on its game answer in their usual time, another spectator
    sees every move, and clocks end games on time. A flooder and a 100 MB message are cut
    off meanwhile. (Before: the first move after the stalled spectator's buffers filled
    never answered, nor did any later one on that game.)"""
    pk, players = timed_game(club, "hexagone", 3600, players=2)
    tokens = {p.name: csrf_of(p.get(f"/games/{pk}").text) for p in players}
    watcher = Watcher(club, pk)
    never = NeverReader("127.0.0.1", club.port, pk, source="127.0.0.2", seconds=120).open()
    # One that sends a ping a second: its answers pile up too slowly to fill its outbox, so
    # it is dropped by the send timeout; its next ping then fails, which shows it here.
    silent = NeverReader("127.0.0.1", club.port, pk, "127.0.0.5", 120, per_second=1).open()
    flooder = Flooder("127.0.0.1", club.port, pk, source="127.0.0.3", seconds=120)
    big = BigSender("127.0.0.1", club.port, pk, source="127.0.0.4", seconds=60)
    abusers = [never.start(), silent.start(), flooder.start(), big.start()]
    clocked = None
    took: list[float] = []
    rng = random.Random(1)
    mirror = Mirror(club, pk)
    try:
        started = time.monotonic()
        # Their buffers fill after a few moves; then the one pinging 19 times a second is
        # dropped as its outbox fills, the other once a send has waited SEND_SECONDS.
        # Moves go on all the while. How soon the buffers fill depends on how many views
        # were sent, so on how fast moves go: about 20 s here alone, and once, beside the
        # rest of the suite on a loaded machine, not within 40 s.
        while time.monotonic() - started < 60 + SEND_SECONDS and (
            never.dropped_at is None or silent.dropped_at is None
        ):
            mover, v = to_move(players, pk)
            t0 = time.monotonic()
            try:
                r = mover.post(
                    f"/api/games/{pk}/move",
                    json={"move": rng.choice(mirror.lasting(v, legal_texts(v))), "ply": v["ply"]},
                    headers={"X-CSRF-Token": tokens[mover.name]},
                    timeout=MOVE_SECONDS + 5,
                )
            except httpx.TimeoutException:
                pytest.fail(f"a move got no answer with a stalled spectator on the game: {took}")
            took.append(time.monotonic() - t0)
            assert r.status_code == 200, r.text
            # A brisk game, yet one long enough for the whole test: a random two-player
            # Hexagone game ends after 40 turns without a capture, which moves answered as
            # fast as they now are reached within the send timeout at 0.1 s apart.
            time.sleep(0.25)
            if clocked is None and time.monotonic() - started > 3:
                # A game whose clock runs out while the stalled spectator is on the other.
                clocked = timed_game(club, "toy", 2.0)[0]
                clock_watcher = Watcher(club, clocked)
                clock_started = time.monotonic()
        assert never.dropped_at is not None, "the spectator that never reads was not dropped"
        assert silent.dropped_at is not None, "the silent one that never reads was not dropped"
        assert silent.dropped_at - started > SEND_SECONDS - 1  # by the send timeout
        assert max(took) < MOVE_SECONDS, f"slowest move {max(took):.2f} s"
        final = view(players[0], pk)["ply"]
        assert watcher.wait_for(lambda d: d["ply"] >= final, 5), "the other spectator fell behind"
        # The clocks went on: the game started meanwhile ended on time, by the server alone.
        assert clocked is not None
        over = clock_watcher.wait_for(lambda d: d["status"] == "finished", 10)
        assert over is not None and over["result"]["ended"] == "timeout"
        # Its 2 s ran out with the sweep (every 0.5 s) and the delivery to spare.
        assert over["_received"] - clock_started < 2.0 + 6, over["_received"] - clock_started
        # And the abused game itself ends on time once its player to move is out of time.
        end_now(club, pk)
        over = watcher.wait_for(lambda d: d["status"] == "finished", 5)
        assert over is not None and over["result"]["ended"] == "timeout"
    finally:
        for abuser in abusers:
            abuser.stop()
        never.close()
        silent.close()
        watcher.close()
        if clocked is not None:
            clock_watcher.close()
    # The flooder was closed again and again; the 100 MB message was refused at once.
    assert flooder.connections >= 2 and flooder.closed >= 2, flooder
    assert big.cut_after is not None and big.accepted < 16 * 1024 * 1024, big
    assert not big.errors and not flooder.errors and not never.errors and not silent.errors


def test_refusals_spread_over_a_game_never_close_the_connection(club):
    """Only refusals in a row close a connection: a page that now and then asks too soon, and
    is granted a refresh between, is not a flood, however long its game lasts."""
    pk, _ = timed_game(club, "toy", 3600)
    per_conn, window = REFRESHES_PER_CONNECTION
    url = f"ws://127.0.0.1:{club.port}/ws/games/{pk}"
    headers = {"X-Forwarded-For": "198.51.100.79"}
    too_soon = REFRESHES_REFUSED_BEFORE_CLOSE - per_conn  # in a row: one short of a close
    refused = 0
    with connect(url, open_timeout=10, additional_headers=headers) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for _ in range(2):
            answers = []
            for _ in range(per_conn + too_soon):
                ws.send(json.dumps({"type": "refresh"}))
                answers.append(json.loads(ws.recv(timeout=10))["type"])
            assert answers[:per_conn] == ["state"] * per_conn, answers
            refused += answers.count("error")
            time.sleep(window + 0.2)  # the page waits; its next refresh is granted
        assert refused >= REFRESHES_REFUSED_BEFORE_CLOSE  # more than a close's worth in all
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"  # and still open


def test_refreshes_are_limited_per_connection_and_per_address(club):
    """A refresh reads the game again: beyond a few per connection, and a few more per
    address over all its connections, it is refused (the connection stays open)."""
    pk, _ = timed_game(club, "toy", 3600)
    per_conn, _ = REFRESHES_PER_CONNECTION
    per_address, window = REFRESHES_PER_ADDRESS
    url = f"ws://127.0.0.1:{club.port}/ws/games/{pk}"
    address = {"X-Forwarded-For": "198.51.100.77"}

    def ask(ws) -> dict:
        ws.send(json.dumps({"type": "refresh"}))
        return json.loads(ws.recv(timeout=10))

    with connect(url, open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        answers = [ask(ws) for _ in range(per_conn + 3)]
        assert [a["type"] for a in answers[:per_conn]] == ["state"] * per_conn
        assert answers[per_conn:] == [{"type": "error", "message": TOO_MANY_REFRESHES}] * 3
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"  # still open
    # A client that goes on asking regardless is closed as a flood.
    flooding = {"X-Forwarded-For": "198.51.100.78"}
    with connect(url, open_timeout=10, additional_headers=flooding) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for _ in range(per_conn + REFRESHES_REFUSED_BEFORE_CLOSE + 5):
            try:
                ws.send(json.dumps({"type": "refresh"}))
            except ConnectionClosed:
                break
        seen, code = until_closed(ws)
    assert code == 1008
    refused = [m for m in seen if m["type"] == "error"]
    assert refused == [{"type": "error", "message": TOO_MANY_REFRESHES}] * (
        REFRESHES_REFUSED_BEFORE_CLOSE
    )
    sockets = [
        connect(url, open_timeout=10, additional_headers=address)
        for _ in range(per_address // per_conn + 2)
    ]
    try:
        for ws in sockets:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        t0 = time.monotonic()
        kinds = [ask(ws)["type"] for ws in sockets for _ in range(per_conn)]
        if time.monotonic() - t0 < window:  # all within one window of the address's limit
            assert kinds.count("state") == per_address, kinds
            assert kinds.count("error") == len(kinds) - per_address
        with connect(url, open_timeout=10) as other:  # another address is not affected
            other.recv(timeout=10)
            assert ask(other)["type"] == "state"
    finally:
        for ws in sockets:
            ws.close()


def test_the_lobby_sockets_close_a_flooding_client_saying_why(club):
    """``/ws/seek`` (quick pairing) and ``/ws/me`` (the bell, presence) of a signed-in page
    answer a ping or two, and close a client sending more than ten messages a second with
    code 1008 after what was queued for it, the seek socket's error saying why: a closing
    frame, not a cut connection, which a page would take for a network gone and reopen."""
    client = member(club)
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    for path in ("/ws/seek", "/ws/me"):
        with connect(
            f"ws://127.0.0.1:{club.port}{path}",
            additional_headers={"Cookie": cookie},
            open_timeout=10,
        ) as ws:
            ws.send('{"type":"ping"}')
            assert json.loads(ws.recv(timeout=10))["type"] in ("pong", "unread")
            for _ in range(40):
                try:
                    ws.send('{"type":"ping"}')
                except ConnectionClosed:  # closed while the flood was still being sent
                    break
            seen, code = until_closed(ws)
        assert code == 1008, (path, seen)
        assert 1 <= sum(m["type"] == "pong" for m in seen) <= 10, (path, seen)
        if path == "/ws/seek":
            assert seen[-1]["type"] == "error" and "Too many messages" in seen[-1]["message"]
    client.close()


def test_a_vacation_shows_its_new_deadline_on_the_open_game_pages_at_once(club):
    """A member takes a vacation while their opponent watches a correspondence game waiting
    for them: the opponent's page is sent the game with the pushed-back deadline at once,
    not at the game's next move."""
    ann, bob = member(club), member(club)
    r = ann.post(
        "/games",
        data={
            "csrf": csrf_of(ann.get("/games/new").text),
            "game": "toy",
            "seat0": "me",
            "seat1": "user",
            "seat1_user": bob.name,  # type: ignore[attr-defined]
            "clock": "correspondence",
            "clock_days": "3",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    pk = int(r.headers["location"].rsplit("/", 1)[1])
    assert join(bob, pk).status_code == 303
    seats, to_move = view(ann, pk)["seats"], view(ann, pk)["to_move"]
    away, watcher = (ann, bob) if seats[to_move]["you"] else (bob, ann)
    cookie = "; ".join(f"{name}={value}" for name, value in watcher.cookies.items())
    with connect(
        f"ws://127.0.0.1:{club.port}/ws/games/{pk}",
        additional_headers={"Cookie": cookie},
        open_timeout=10,
    ) as ws:
        before = json.loads(ws.recv(timeout=10))["clock"]["deadline"]
        page = away.get(f"/users/{away.name}").text  # type: ignore[attr-defined]
        r = away.post("/vacation", data={"days": "5", "csrf": csrf_of(page)}, follow_redirects=True)
        assert r.status_code == 200 and "on-vacation" in r.text
        seen = json.loads(ws.recv(timeout=10))
    assert seen["type"] == "state"
    assert seen["clock"]["deadline"] - before == 5 * 24 * 3600 * 1000
    for client in (ann, bob):
        client.close()
