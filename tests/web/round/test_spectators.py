"""Spectators against a real server: anyone may watch a public game live, with the same board
and no controls, and cannot act; a private game is shown to its players only (page, API,
websocket and replay); the lobby lists the games one may watch."""

from __future__ import annotations

import json
import re

import pytest

from tests.web.helpers import create_game, join, move, page_csrf, view
from tests.web.round.test_websocket import receive, socket_for


def players_of(a, b, pk):
    """(client to move, the other) once the toy game has started."""
    v = view(a, pk)
    assert v["status"] == "active"
    return (a, b) if v["your_turn"] else (b, a)


def create_private(client, game="toy"):
    data = {"csrf": page_csrf(client), "game": game, "seat0": "me", "seat1": "open"}
    data["private"] = "on"
    r = client.post("/games", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return int(r.headers["location"].rsplit("/", 1)[1])


@pytest.fixture
def game(make_user):
    a, b = make_user("pla"), make_user("plb")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    assert join(b, pk).status_code == 303
    first, second = players_of(a, b, pk)
    return first, second, pk


def test_spectators_see_live_moves_and_cannot_act(server, game, anon, make_user):
    first, second, pk = game
    stranger = make_user("watcher")
    with socket_for(server, anon, pk) as w_anon, socket_for(server, stranger, pk) as w_user:
        for ws in (w_anon, w_user):
            s = receive(ws, "state")
            assert s["watching"] and s["legal"] == [] and not s["your_turn"]
            assert s["status"] == "active"
        # the players move (over HTTP); the spectators are told at once
        assert move(first, pk, "b2").status_code == 200
        for ws in (w_anon, w_user):
            s = receive(ws, "state")
            assert s["moves"][-1]["text"] == "b2" and s["legal"] == []
        assert move(second, pk, "a1").status_code == 200
        for ws in (w_anon, w_user):
            assert receive(ws, "state")["moves"][-1]["text"] == "a1"
        # a spectator's move or resignation is refused with a clear message
        csrf = page_csrf(stranger, f"/games/{pk}")
        w_user.send(json.dumps({"type": "move", "move": "c3", "ply": s["ply"], "csrf": csrf}))
        assert "you are watching, not playing" in receive(w_user, "error")["message"]
        w_user.send(json.dumps({"type": "resign", "csrf": csrf}))
        assert "only its players can resign" in receive(w_user, "error")["message"]
        w_anon.send(json.dumps({"type": "move", "move": "c3", "ply": s["ply"], "csrf": "0" * 64}))
        assert "log in" in receive(w_anon, "error")["message"]
    refused = move(stranger, pk, "c3")
    assert refused.status_code == 403 and "watching" in refused.json()["error"]
    r = stranger.post(
        f"/games/{pk}/resign", data={"csrf": page_csrf(stranger)}, follow_redirects=False
    )
    assert r.status_code == 403 and "only its players can resign" in r.text
    after = view(first, pk)
    assert after["status"] == "active" and [m["text"] for m in after["moves"]][-2:] == [
        "b2",
        "a1",
    ]


def test_the_game_page_tells_a_spectator_they_are_watching(game, anon):
    _, _, pk = game
    page = anon.get(f"/games/{pk}")
    assert page.status_code == 200
    shown = re.search(
        r'<script type="application/json" id="initial-view">(.*?)</script>', page.text
    )
    assert 'id="watching"' in page.text and shown is not None
    view = json.loads(shown.group(1))
    assert view["watching"] is True and view["legal"] == []


def test_the_lobby_lists_public_games_in_progress_with_a_watch_link(game, anon, make_user):
    first, _, pk = game
    hidden = make_user("hid")
    private_pk = create_private(hidden)
    join(make_user("hid"), private_pk)
    lobby = anon.get("/").text
    section = lobby.split('id="in-progress"', 1)[1].split("</section>", 1)[0]
    assert f'href="/games/{pk}">Watch</a>' in section
    assert f'data-game-id="{private_pk}"' not in section
    # a player finds their own game under "My games", not among the games to watch
    mine = first.get("/").text.split('id="in-progress"', 1)[1].split("</section>", 1)[0]
    assert f'data-game-id="{pk}"' not in mine


def test_a_private_game_is_for_its_players_only(server, make_user, anon):
    a, b, stranger = make_user("pra"), make_user("prb"), make_user("prs")
    pk = create_private(a)
    # while it waits for players anyone with the link may open it, to take the open seat
    assert stranger.get(f"/games/{pk}").status_code == 200
    assert join(b, pk).status_code == 303
    for client in (stranger, anon):
        page = client.get(f"/games/{pk}")
        assert page.status_code == 403 and "private" in page.text
        api = client.get(f"/api/games/{pk}")
        assert api.status_code == 403 and "only its players" in api.json()["error"]
        with socket_for(server, client, pk) as ws:
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "error" and "private" in reply["message"]
            from websockets.exceptions import ConnectionClosed

            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    for player in (a, b):
        assert player.get(f"/games/{pk}").status_code == 200
        assert view(player, pk)["watching"] is False
    # its replay, once finished, is for its players too
    r = a.post(f"/games/{pk}/resign", data={"csrf": page_csrf(a)}, follow_redirects=False)
    assert r.status_code == 303
    for path in (f"/games/{pk}/replay", f"/games/{pk}/record.json", f"/api/games/{pk}/replay/0"):
        assert stranger.get(path).status_code == 403, path
        assert anon.get(path).status_code == 403, path
        assert b.get(path).status_code == 200, path
    assert f'data-game-id="{pk}"' not in anon.get("/").text  # not among recent games either


def test_a_public_finished_game_replays_for_anyone(game, anon):
    first, _, pk = game
    r = first.post(f"/games/{pk}/resign", data={"csrf": page_csrf(first)}, follow_redirects=False)
    assert r.status_code == 303
    assert anon.get(f"/games/{pk}/replay").status_code == 200
    assert anon.get(f"/api/games/{pk}/replay/0").status_code == 200


# --- the browser ------------------------------------------------------------------------------
def test_a_spectator_in_the_browser_watches_live_without_controls(browser, server, game):
    first, second, pk = game
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()  # not logged in
    page.goto(f"{server.base}/games/{pk}")
    page.wait_for_selector("#play[data-live='1']")
    assert page.is_visible("#watching") and "You are watching" in page.inner_text("#watching")
    assert not page.is_visible("#resign")
    assert page.locator(".move-choice").count() == 0
    assert page.locator("#board .cell.target").count() == 0
    ply = page.get_attribute("#play", "data-ply")
    assert move(first, pk, "b2").status_code == 200
    page.wait_for_function(
        "old => document.getElementById('play').dataset.ply !== old", arg=ply, timeout=10000
    )
    assert "b2" in page.inner_text("#movelist")
    assert page.locator('#board text.piece[data-cell="b2"]').count() == 1
    page.locator('#board [data-cell="a1"].cell').click()  # clicks do nothing for a spectator
    page.wait_for_timeout(300)
    assert view(second, pk)["ply"] == int(page.get_attribute("#play", "data-ply"))
    context.close()
