"""The game websocket against a real server: every message validated, moves through the
engine, everyone told after the commit, refusals answered with a clear error."""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from tests.web.helpers import create_game, join, legal_texts, page_csrf, view


def socket_for(server, client, pk: int, origin: str | None = None):
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    headers = {"Cookie": cookie} if cookie else {}
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/games/{pk}",
        additional_headers=headers,
        origin=origin,
        open_timeout=10,
    )


def receive(ws, kind: str | None = None) -> dict:
    while True:
        data = json.loads(ws.recv(timeout=10))
        if kind is None or data["type"] == kind:
            return data


@pytest.fixture
def game(make_user):
    a, b = make_user("wsa"), make_user("wsb")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    join(b, pk)
    v = view(a, pk)
    first, second = (a, b) if v["your_turn"] else (b, a)
    return first, second, pk


def test_both_players_are_told_of_a_move(server, game):
    first, second, pk = game
    with socket_for(server, first, pk) as w1, socket_for(server, second, pk) as w2:
        s1, s2 = receive(w1, "state"), receive(w2, "state")
        assert s1["your_turn"] and not s2["your_turn"]
        assert "b2" in legal_texts(s1) and s2["legal"] == []
        w1.send(
            json.dumps({"type": "move", "move": "b2", "ply": s1["ply"], "csrf": page_csrf(first)})
        )
        n1, n2 = receive(w1, "state"), receive(w2, "state")
        assert n1["ply"] == n2["ply"] == s1["ply"] + 1
        assert n2["your_turn"] and "b2" not in legal_texts(n2)
        assert n2["moves"][-1]["text"] == "b2"


def test_refusals_over_the_socket_change_nothing(server, game):
    first, second, pk = game
    csrf1, csrf2 = page_csrf(first), page_csrf(second)
    before = view(first, pk)
    ply = before["ply"]
    with socket_for(server, first, pk) as w1, socket_for(server, second, pk) as w2:
        receive(w1, "state"), receive(w2, "state")
        cases = [
            (w2, {"type": "move", "move": "a1", "ply": ply, "csrf": csrf2}, "not your turn"),
            (w1, {"type": "move", "move": "q7", "ply": ply, "csrf": csrf1}, "does not parse"),
            (w1, {"type": "move", "move": "a1", "csrf": csrf1}, "send 'ply'"),
            (w1, {"type": "move", "move": "a1", "ply": ply - 1, "csrf": csrf1}, "moved on"),
            (w1, {"type": "move", "move": "a1"}, "CSRF"),
            (w1, {"type": "move", "move": "a1", "ply": ply, "csrf": "0" * 64}, "CSRF"),
            (w1, {"type": "move", "move": "a1", "ply": ply, "csrf": csrf2}, "CSRF"),  # another's
            (w1, {"type": "move", "move": 5, "csrf": csrf1}, "needs 'move'"),
            (w1, {"type": "move", "move": "a1", "ply": "3", "csrf": csrf1}, "whole number"),
            (w1, {"type": "launch", "csrf": csrf1}, "Unknown message type"),
            (w1, ["move", "a1"], "JSON object"),
        ]
        for ws, message, expected in cases:
            ws.send(json.dumps(message))
            reply = receive(ws)
            assert reply["type"] == "error", message
            assert expected in reply["message"], (message, reply)
        w1.send("not json at all")
        assert "JSON object" in receive(w1)["message"]
        w1.send("x" * 5000)
        assert "too long" in receive(w1)["message"]
        w1.send(json.dumps({"type": "ping"}))
        assert receive(w1)["type"] == "pong"  # the connection survived every refusal
    assert view(first, pk) == before


def test_spectator_without_session_watches_but_cannot_move(server, game, anon):
    first, _, pk = game
    with socket_for(server, anon, pk) as watcher, socket_for(server, first, pk) as w1:
        s = receive(watcher, "state")
        assert s["legal"] == [] and not s["your_turn"]
        watcher.send(json.dumps({"type": "move", "move": "a1", "ply": s["ply"], "csrf": "0" * 64}))
        assert "log in" in receive(watcher, "error")["message"]
        receive(w1, "state")
        message = {"type": "move", "move": "c3", "ply": s["ply"], "csrf": page_csrf(first)}
        w1.send(json.dumps(message))
        assert receive(watcher, "state")["moves"][-1]["text"] == "c3"


def test_cross_site_origin_is_refused(server, game):
    first, _, pk = game
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    with (
        pytest.raises((ConnectionClosed, InvalidStatus)),
        socket_for(server, first, pk, origin="http://evil.example") as ws,
    ):
        ws.recv(timeout=5)


def test_resign_over_the_socket(server, game):
    first, second, pk = game
    with socket_for(server, second, pk) as w2:
        receive(w2, "state")
        w2.send(json.dumps({"type": "resign", "csrf": page_csrf(second)}))
        s = receive(w2, "state")
        assert s["status"] == "finished" and "resigned" in s["result"]["reason"]


def test_views_go_out_compressed_with_the_fastest_level(server, game):
    """Pages ask for compressed sockets: the server takes the offer (the views arrive
    deflated, and read back whole) and compresses with zlib's fastest level, not uvicorn's
    default."""
    import asyncio
    from types import SimpleNamespace

    import uvicorn

    from ludoteca.web.infra.wsprotocol import COMPRESS_LEVEL, WebSocketProtocol

    first, _, pk = game
    with socket_for(server, first, pk) as ws:
        assert [type(e).__name__ for e in ws.protocol.extensions] == ["PerMessageDeflate"]
        assert receive(ws, "state")["id"] == pk

    config = uvicorn.Config(lambda *_: None, ws=WebSocketProtocol)
    config.load()
    state = SimpleNamespace(connections=set(), tasks=set(), default_headers=[])
    loop = asyncio.new_event_loop()
    try:
        protocol = WebSocketProtocol(config, state, {}, _loop=loop)
    finally:
        loop.close()
    [offer] = protocol.conn.available_extensions
    assert COMPRESS_LEVEL == 1 and offer.compress_settings["level"] == COMPRESS_LEVEL
