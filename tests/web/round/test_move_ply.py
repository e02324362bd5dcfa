"""Every move names the position it answers (its ``ply``), over HTTP and the websocket.

In Hexagone a player often moves several times in a row (swap, then roll again or stop,
then swap; or the placements of a reform). A move that did not say which position it was
chosen on could be played on a later one: two moves sent at once for one player, each
chosen on the same board, were both accepted. Now a move without its ply is refused with a
sentence saying what to send, and of moves chosen on one board only one stands.
"""

from __future__ import annotations

import json
import threading

import pytest

from ludoteca.web.infra.store import Store
from ludoteca.web.round.service import GameService
from tests.web.helpers import create_game, join, legal_texts, page_csrf, view
from tests.web.round.test_websocket import receive, socket_for


@pytest.fixture
def hexagone(server, make_user):
    """A two-player Hexagone between two people: (mover, other, game number, a swap after
    which the mover is still to move, the ply both moves below are chosen at)."""
    a, b = make_user("hxa"), make_user("hxb")
    pk = create_game(a, "hexagone", [("me", ""), ("open", "")], players=2)
    assert join(b, pk).status_code == 303
    seen = view(a, pk)
    mover, other = (a, b) if seen["your_turn"] else (b, a)
    seen = view(mover, pk)
    # The server's own state (read from its database) tells which swaps capture nothing.
    service = GameService(Store(server.url, migrate_schema=False))
    try:
        row, state = service.state(pk)
    finally:
        service.store.dispose()
    assert row.ply == seen["ply"]
    quiet = []
    for text in legal_texts(seen):
        probe = state.clone()
        probe.play(text)
        # Still this player's move, and "stop" among them: the swap captured nothing (a
        # capture also leaves the same player to move, to place the reform's pieces).
        if probe.to_move == state.to_move and "stop" in map(probe.move_to_str, probe.legal_moves()):
            quiet.append(text)
    assert quiet, "every swap captures: no second move for the same player"
    return mover, other, pk, quiet[0], seen["ply"]


def post_move(client, pk: int, body: dict):
    token = page_csrf(client, f"/games/{pk}")
    return client.post(f"/api/games/{pk}/move", json=body, headers={"X-CSRF-Token": token})


def test_moves_without_their_ply_are_refused_over_http(hexagone):
    mover, _, pk, swap, ply = hexagone
    before = view(mover, pk)
    answers: list = []

    def send(body):
        answers.append(post_move(mover, pk, body))

    # A swap that captures nothing, then "stop", which only that swap makes legal: both
    # chosen on the same board, sent at once without saying so.
    threads = [threading.Thread(target=send, args=({"move": text},)) for text in (swap, "stop")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = [r for r in answers if r.status_code == 200]
    assert len(accepted) <= 1, [r.text for r in answers]
    for r in answers:
        assert r.status_code == 400, r.text
        assert "send 'ply'" in r.json()["error"]
    assert view(mover, pk) == before
    # With the ply they were chosen at, one is played and the other refused.
    assert post_move(mover, pk, {"move": swap, "ply": ply}).status_code == 200
    late = post_move(mover, pk, {"move": "stop", "ply": ply})
    assert late.status_code == 409 and "moved on" in late.json()["error"]
    after = view(mover, pk)
    assert after["ply"] == ply + 1 and after["moves"][-1]["text"] == swap
    assert after["your_turn"] and "stop" in legal_texts(after)


def test_moves_without_their_ply_are_refused_over_the_socket(server, hexagone):
    mover, other, pk, swap, ply = hexagone
    before = view(mover, pk)
    csrf = page_csrf(mover, f"/games/{pk}")
    with socket_for(server, mover, pk) as ws:
        assert receive(ws, "state")["ply"] == ply
        ws.send(json.dumps({"type": "move", "move": swap, "csrf": csrf}))
        ws.send(json.dumps({"type": "move", "move": "stop", "csrf": csrf}))
        for _ in range(2):
            reply = receive(ws)
            assert reply["type"] == "error" and "send 'ply'" in reply["message"], reply
        assert view(mover, pk) == before
        ws.send(json.dumps({"type": "move", "move": swap, "ply": ply, "csrf": csrf}))
        ws.send(json.dumps({"type": "move", "move": "stop", "ply": ply, "csrf": csrf}))
        replies = sorted((receive(ws) for _ in range(2)), key=lambda m: m["type"])
        assert [m["type"] for m in replies] == ["error", "state"], replies
        assert "moved on" in replies[0]["message"] and replies[1]["ply"] == ply + 1
    assert view(other, pk)["ply"] == ply + 1


def test_a_resignation_decided_on_an_older_board_is_refused(hexagone):
    mover, other, pk, swap, ply = hexagone
    assert post_move(mover, pk, {"move": swap, "ply": ply}).status_code == 200
    token = page_csrf(other, f"/games/{pk}")
    headers = {"X-CSRF-Token": token}
    r = other.post(f"/api/games/{pk}/resign", json={"ply": ply}, headers=headers)
    assert r.status_code == 409 and "moved on" in r.json()["error"]
    assert view(other, pk)["status"] == "active"
    r = other.post(f"/api/games/{pk}/resign", json={"ply": ply + 1}, headers=headers)
    assert r.status_code == 200
    assert view(other, pk)["status"] == "finished"
