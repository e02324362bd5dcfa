"""Two real server processes on one real PostgreSQL database are one club: a change made
through one reaches the websocket watchers of the other at once, two simultaneous moves for
one game sent to different processes leave exactly one stored, and a computer seat is played
by one process only."""

from __future__ import annotations

import itertools
import json
import threading
import time

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from websockets.sync.client import connect

from ludoteca.web.infra.store import MoveRow
from ludoteca.web.infra.throttle import Limits
from tests.web.helpers import (
    PASSWORD,
    Server,
    create_game,
    csrf_of,
    join,
    legal_texts,
    page_csrf,
    register,
    view,
)

_names = itertools.count(1)
DELIVERY_LIMIT = 2.0
"""Seconds a watcher on the other process may wait for a move (it takes milliseconds)."""


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cluster")
    url = postgres.fresh_database("cluster")
    a = Server(url, log=tmp / "a.log").start()
    b = Server(url, log=tmp / "b.log").start()
    yield a, b, url, tmp
    a.kill()
    b.kill()


def user_on(server: Server, prefix: str) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=20)
    name = f"{prefix}{next(_names)}"
    assert register(client, name).status_code == 303
    client.name = name  # type: ignore[attr-defined]
    return client


def same_user_on(server: Server, client: httpx.Client) -> httpx.Client:
    """The same logged-in browser talking to another process (the session is shared)."""
    other = httpx.Client(base_url=server.base, timeout=20)
    for name, value in client.cookies.items():
        other.cookies.set(name, value)
    return other


def socket_for(server: Server, client: httpx.Client | None, pk: int):
    cookies = client.cookies.items() if client is not None else []
    cookie = "; ".join(f"{k}={v}" for k, v in cookies)
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/games/{pk}",
        additional_headers={"Cookie": cookie} if cookie else {},
        open_timeout=10,
    )


def next_state(ws, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        data = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if data["type"] == "state":
            return data


def two_player_game(a: Server, b: Server):
    """A game of the toy between a player on process A and one on process B."""
    alice, bob = user_on(a, "ca"), user_on(b, "cb")
    pk = create_game(alice, "toy", [("me", ""), ("open", "")])
    assert join(bob, pk).status_code == 303
    first, second = (alice, bob) if view(alice, pk)["your_turn"] else (bob, alice)
    return pk, first, second


def stored_moves(url: str, pk: int) -> list[tuple[int, str]]:
    engine = create_engine(url)
    try:
        with Session(engine) as db:
            rows = db.scalars(select(MoveRow).where(MoveRow.game_id == pk).order_by(MoveRow.ply))
            return [(m.ply, m.text) for m in rows]
    finally:
        engine.dispose()


def test_a_move_through_one_process_reaches_the_other_at_once(cluster):
    a, b, _, _ = cluster
    pk, first, second = two_player_game(a, b)
    mover_on_a = same_user_on(a, first)
    with (
        socket_for(b, second, pk) as player_on_b,
        socket_for(b, None, pk) as spectator_on_b,
        socket_for(a, first, pk) as player_on_a,
    ):
        start = next_state(player_on_b)
        next_state(spectator_on_b), next_state(player_on_a)
        sent = time.monotonic()
        r = mover_on_a.post(
            f"/api/games/{pk}/move",
            json={"move": "b2", "ply": start["ply"]},
            headers={"X-CSRF-Token": page_csrf(mover_on_a)},
        )
        assert r.status_code == 200, r.text
        seen = next_state(player_on_b, DELIVERY_LIMIT)
        elapsed = time.monotonic() - sent
        assert seen["ply"] == start["ply"] + 1 and seen["moves"][-1]["text"] == "b2"
        assert seen["your_turn"] and "b2" not in legal_texts(seen)
        watched = next_state(spectator_on_b, DELIVERY_LIMIT)
        assert watched["moves"][-1]["text"] == "b2" and watched["legal"] == []
        # The process that accepted the move told its own watcher exactly once.
        assert next_state(player_on_a)["ply"] == start["ply"] + 1
        with pytest.raises(TimeoutError):
            next_state(player_on_a, 0.5)
        # And the answer, sent over B's websocket, comes back to A.
        player_on_b.send(
            json.dumps(
                {"type": "move", "move": "a1", "ply": seen["ply"], "csrf": page_csrf(second)}
            )
        )
        back = next_state(player_on_a, DELIVERY_LIMIT)
        assert back["moves"][-1]["text"] == "a1" and back["your_turn"]
    print(f"move on A seen on B after {elapsed * 1000:.0f} ms")


def test_simultaneous_moves_on_two_processes_store_exactly_one(cluster):
    a, b, url, _ = cluster
    pk, first, second = two_player_game(a, b)
    # The player to move has the game open on both processes and both moves leave at once.
    on_a, on_b = same_user_on(a, first), same_user_on(b, first)
    tokens = {c: page_csrf(c) for c in (on_a, on_b)}
    rounds = 0
    for _ in range(2):
        now = view(on_a, pk)
        assert now["your_turn"] and len(now["legal"]) >= 2
        ply, cells = now["ply"], (legal_texts(now)[0], legal_texts(now)[-1])
        barrier = threading.Barrier(2, timeout=20)
        answers: dict[str, httpx.Response] = {}

        def send(client, cell, answers=answers, barrier=barrier, ply=ply):
            barrier.wait()
            answers[cell] = client.post(
                f"/api/games/{pk}/move",
                json={"move": cell, "ply": ply},
                headers={"X-CSRF-Token": tokens[client]},
            )

        threads = [
            threading.Thread(target=send, args=(on_a, cells[0])),
            threading.Thread(target=send, args=(on_b, cells[1])),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 409], {c: r.text for c, r in answers.items()}
        accepted = next(c for c, r in answers.items() if r.status_code == 200)
        refused = next(r for r in answers.values() if r.status_code == 409)
        message = refused.json()["error"]
        assert "same time" in message or "moved on" in message, message
        at_ply = [t for p, t in stored_moves(url, pk) if p == ply]
        assert at_ply == [accepted]
        # The other player answers so that the mover is to move again.
        now = view(second, pk)
        free = legal_texts(now)
        assert free, "the game should still be on"
        r = second.post(
            f"/api/games/{pk}/move",
            json={"move": free[0], "ply": now["ply"]},
            headers={"X-CSRF-Token": page_csrf(second)},
        )
        assert r.status_code == 200, r.text
        rounds += 1
    assert rounds == 2
    plies = [p for p, _ in stored_moves(url, pk)]
    assert plies == list(range(len(plies)))  # one move per ply, none missing


def test_a_computer_seat_is_played_by_one_process_only(cluster):
    a, b, url, tmp = cluster
    alice = user_on(a, "cbot")
    pk = create_game(alice, "toy", [("me", ""), ("bot", "random")])
    on_b = same_user_on(b, alice)
    with socket_for(a, None, pk) as watcher_on_a:
        state = next_state(watcher_on_a)
        for _ in range(5):
            while state["status"] == "active" and not view(on_b, pk)["your_turn"]:
                state = next_state(watcher_on_a)
            current = view(on_b, pk)
            if current["status"] != "active":
                break
            r = on_b.post(
                f"/api/games/{pk}/move",
                json={"move": legal_texts(current)[0], "ply": current["ply"]},
                headers={"X-CSRF-Token": page_csrf(on_b)},
            )
            assert r.status_code == 200, r.text
            state = next_state(watcher_on_a)
    moves = stored_moves(url, pk)
    assert len(moves) >= 4 and [p for p, _ in moves] == list(range(len(moves)))
    logs = (tmp / "a.log").read_text() + (tmp / "b.log").read_text()
    # Had both processes started the computer's turn, one of them would have been refused.
    assert "computer move refused" not in logs
    assert "Traceback" not in logs


def test_failed_logins_on_one_process_count_on_the_other(cluster):
    a, b, _, _ = cluster
    name = user_on(a, "clim").name  # type: ignore[attr-defined]
    forms = []
    for server in (a, b):
        client = httpx.Client(base_url=server.base, timeout=20)
        forms.append((client, csrf_of(client.get("/login").text)))

    def log_in(i: int, password: str) -> httpx.Response:
        client, token = forms[i % 2]
        return client.post(
            "/login",
            data={"name": name, "password": password, "csrf": token, "next": "/"},
            follow_redirects=False,
        )

    codes = [
        log_in(i, "not the password").status_code
        for i in range(Limits().login_per_account_from_address.count)
    ]
    assert codes == [400] * len(codes)
    for i in range(2):  # locked on both processes, even with the right password
        assert log_in(i, PASSWORD).status_code == 429


MIGRATE_AT = """
import sys, time
from ludoteca.web.infra.store import Store
url, at = sys.argv[1], float(sys.argv[2])
time.sleep(max(0.0, at - time.time()))
Store(url).dispose()
"""


def test_processes_starting_together_on_a_new_database_all_start(postgres):
    """Machines booted together all migrate at once: one creates the schema, the others
    wait for it instead of failing on half-made tables. Each round starts processes that
    migrate at the same instant."""
    import subprocess
    import sys

    for round_ in range(2):
        url = postgres.fresh_database(f"together{round_}")
        at = time.time() + 3
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", MIGRATE_AT, url, str(at)],
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        failures = [p.stderr.read()[-1500:] for p in procs if p.wait(60) != 0]
        assert not failures, failures[0]


def test_a_process_whose_listener_is_cut_off_reconnects_and_catches_up(cluster, postgres):
    import psycopg

    from ludoteca.web.infra.fanout import APPLICATION_NAME

    a, b, _, tmp = cluster
    pk, first, second = two_player_game(a, b)
    mover_on_a = same_user_on(a, first)
    with socket_for(b, second, pk) as player_on_b:
        start = next_state(player_on_b)
        with psycopg.connect(
            f"host=127.0.0.1 port={postgres.port} user=postgres dbname=postgres", autocommit=True
        ) as admin:
            cut = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = %s",
                (APPLICATION_NAME,),
            ).fetchone()
        assert cut is not None and cut[0] == 2  # one listener per process
        # The move is made while B is still reconnecting (or just after): B catches up.
        r = mover_on_a.post(
            f"/api/games/{pk}/move",
            json={"move": "c1", "ply": start["ply"]},
            headers={"X-CSRF-Token": page_csrf(mover_on_a)},
        )
        assert r.status_code == 200, r.text
        # B's resynchronisation after reconnecting may send the game as it was just before
        # the move; the move must follow within the time.
        deadline = time.monotonic() + 5
        seen = next_state(player_on_b, 5)
        while seen["ply"] == start["ply"] and time.monotonic() < deadline:
            seen = next_state(player_on_b, max(0.01, deadline - time.monotonic()))
        assert seen["moves"][-1]["text"] == "c1" and seen["ply"] == start["ply"] + 1
    assert "lost the game-change listener" in (tmp / "b.log").read_text()


def test_a_move_written_with_core_statements_notifies_the_other_processes(postgres):
    """A move's claim and rows are Core statements, which no ORM flush sees: the commit must
    still send the game's NOTIFY (without it, other processes saw moves only at a resync)."""
    import psycopg

    from ludoteca.web.infra.fanout import CHANNEL, games_written, libpq_url, notify_on_commit
    from ludoteca.web.infra.store import Store

    store = Store(postgres.fresh_database("corenotify"))
    notify_on_commit(store, "origin-a")
    listener = psycopg.connect(libpq_url(store), autocommit=True)
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        with store.session() as db:
            games_written(db, 4242)
            db.rollback()  # a rollback tells nobody
        with store.session() as db:
            games_written(db, 4243)
            db.commit()
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert heard == ["4243 origin-a"]
    finally:
        listener.close()
        store.dispose()
