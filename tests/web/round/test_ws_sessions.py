"""A game websocket lives no longer than the session it was opened with: logging out closes
it at once, and a socket whose session ended elsewhere (another server process, expiry)
can neither move nor resign — before, an open socket went on playing after ``/logout``."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import httpx
import pytest
from sqlalchemy import delete, update
from websockets.exceptions import ConnectionClosed

from ludoteca.web.accounts.service import SESSION_COOKIE, hash_token
from ludoteca.web.infra.store import Session, Store, utcnow
from ludoteca.web.kernel.errors import SESSION_ENDED
from ludoteca.web.round.hub import SESSION_CLOSED
from tests.web.helpers import create_game, join, page_csrf, view
from tests.web.round.test_websocket import receive, socket_for


@pytest.fixture
def game(make_user):
    a, b = make_user("sesa"), make_user("sesb")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    join(b, pk)
    first, second = (a, b) if view(a, pk)["your_turn"] else (b, a)
    return first, second, pk


def closed_with(ws) -> tuple[list[dict], int | None]:
    """The messages until the server closes ``ws``, and the close code."""
    seen = []
    try:
        while True:
            seen.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return seen, None


def test_logging_out_closes_the_sessions_open_sockets(server, game, make_user):
    first, second, pk = game
    csrf = page_csrf(first, f"/games/{pk}")
    before = view(second, pk)
    with socket_for(server, first, pk) as ws, socket_for(server, second, pk) as other:
        assert receive(ws, "state")["your_turn"]
        receive(other, "state")
        r = first.post("/logout", data={"csrf": page_csrf(first)}, follow_redirects=False)
        assert r.status_code == 303
        seen, code = closed_with(ws)
        assert code == SESSION_CLOSED, (seen, code)
        assert seen[-1] == {"type": "error", "message": SESSION_ENDED}
        with pytest.raises(ConnectionClosed):
            ws.send(json.dumps({"type": "move", "move": "b2", "csrf": csrf}))
            ws.recv(timeout=5)
        other.send(json.dumps({"type": "ping"}))
        assert receive(other)["type"] == "pong"  # the other player's socket is untouched
    assert view(second, pk) == before


@pytest.mark.parametrize("how", ["deleted", "expired"])
def test_a_socket_whose_session_ended_elsewhere_cannot_play(server, game, how):
    """The session ends without this process hearing of it (logged out through another
    server process, or expired): the next move over the socket is refused, the socket
    closed, and the game is unchanged."""
    first, second, pk = game
    csrf = page_csrf(first, f"/games/{pk}")
    before = view(second, pk)
    with socket_for(server, first, pk) as ws:
        assert receive(ws, "state")["your_turn"]
        token_hash = hash_token(first.cookies[SESSION_COOKIE])
        store = Store(server.url, migrate_schema=False)
        try:
            with store.session() as db:
                if how == "deleted":
                    db.execute(delete(Session).where(Session.token_hash == token_hash))
                else:
                    db.execute(
                        update(Session)
                        .where(Session.token_hash == token_hash)
                        .values(expires=utcnow().replace(year=2000))
                    )
                db.commit()
        finally:
            store.dispose()
        for message in (
            {"type": "move", "move": "b2", "ply": before["ply"], "csrf": csrf},
            {"type": "resign", "csrf": csrf},
        ):
            try:
                ws.send(json.dumps(message))
            except ConnectionClosed:
                break
        seen, code = closed_with(ws)
        assert code == SESSION_CLOSED, (seen, code)
        assert {"type": "error", "message": SESSION_ENDED} in seen
        assert all(m["type"] != "state" for m in seen)
    assert view(second, pk) == before


def test_sockets_of_sessions_ended_elsewhere_are_closed_without_a_message(tmp_path, monkeypatch):
    """Each process checks now and then that the sessions of its sockets are still open: a
    socket whose session ended elsewhere is closed though it sends nothing. (The app under
    uvicorn in this process, so that the check can be made frequent.)"""
    import threading

    import uvicorn

    from ludoteca.web.app import create_app
    from ludoteca.web.infra.wsprotocol import WebSocketProtocol
    from ludoteca.web.round import hub as live
    from tests.web.helpers import free_port, register

    monkeypatch.setattr(live, "SESSION_CHECK_SECONDS", 0.3)
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    port = free_port()
    app = create_app(url, bot_pool="thread")
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=WebSocketProtocol)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        base = f"http://127.0.0.1:{port}"
        a, b = httpx.Client(base_url=base, timeout=20), httpx.Client(base_url=base, timeout=20)
        assert register(a, "checked1").status_code == 303
        assert register(b, "checked2").status_code == 303
        pk = create_game(a, "toy", [("me", ""), ("open", "")])
        join(b, pk)

        srv = SimpleNamespace(port=port)
        with socket_for(srv, a, pk) as ws, socket_for(srv, b, pk) as other:
            receive(ws, "state"), receive(other, "state")
            token_hash = hash_token(a.cookies[SESSION_COOKIE])
            store = Store(url, migrate_schema=False)
            try:
                with store.session() as db:
                    db.execute(delete(Session).where(Session.token_hash == token_hash))
                    db.commit()
            finally:
                store.dispose()
            seen, code = closed_with(ws)
            assert code == SESSION_CLOSED and seen[-1] == {
                "type": "error",
                "message": SESSION_ENDED,
            }
            other.send(json.dumps({"type": "ping"}))
            assert receive(other)["type"] == "pong"  # the session still open keeps its socket
        a.close(), b.close()
    finally:
        server.should_exit = True
        thread.join(15)


def test_a_move_over_http_in_a_session_ended_elsewhere_is_refused(server, game):
    """This process has just read the session for the player's own view (and keeps that
    read a few seconds for the next requests); the session then ends through another
    process. The move over HTTP is refused all the same (its claim checks the session), the
    game is unchanged, and the view no longer shows the game as theirs once the session is
    forgotten here."""
    first, second, pk = game
    csrf = page_csrf(first, f"/games/{pk}")
    before = view(first, pk)
    assert before["your_turn"]
    token_hash = hash_token(first.cookies[SESSION_COOKIE])
    store = Store(server.url, migrate_schema=False)
    try:
        with store.session() as db:
            db.execute(delete(Session).where(Session.token_hash == token_hash))
            db.commit()
    finally:
        store.dispose()
    r = first.post(
        f"/api/games/{pk}/move",
        json={"move": before["legal"][0]["text"], "ply": before["ply"]},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 401, r.text
    assert view(second, pk)["ply"] == before["ply"]
