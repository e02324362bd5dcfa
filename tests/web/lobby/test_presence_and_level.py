"""In process: the lobby's computer level reaches the game (a level that does not exist
falls back to the newcomer's), follows and the presence they show (hidden when the member
asks), the lobby's live counts, and the pairing socket's refusals."""

from __future__ import annotations

import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from ludoteca.web.presence import service
from tests.web.helpers import csrf_of, register
from tests.web.inprocess import club_in_process, new_client

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture(scope="module")
def clubs(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('presence') / 'club.sqlite3'}"
    with club_in_process(url) as ann:
        bob = new_client(ann)
        assert register(ann, "pres_ann").status_code == 303
        assert register(bob, "pres_bob").status_code == 303
        yield ann, bob


def test_the_level_chosen_in_the_lobby_is_the_computers(clubs):
    ann, _ = clubs
    lobby = ann.get("/").text
    assert re.search(r'<option value="easy" data-about="[^"]+" selected>', lobby)
    for asked, seated in (("medium", "medium"), ("no-such-level", "easy")):
        r = ann.post(
            "/games/quick",
            data={"game": "race", "level": asked, "csrf": csrf_of(lobby)},
            follow_redirects=False,
        )
        assert r.status_code == 303
        pk = int(r.headers["location"].rsplit("/", 1)[1])
        assert seated in ann.get(f"/api/games/{pk}").json()["seats"][1]["label"]


def following_row(client, name: str) -> str:
    page = client.get("/following").text
    found = re.search(rf'<li data-name="{name}" class="(\w+)"', page)
    assert found, page
    return found.group(1)


def test_a_follow_shows_presence_unless_it_is_hidden(clubs):
    ann, bob = clubs
    csrf = csrf_of(ann.get("/users/pres_bob").text)
    assert ann.post("/users/pres_ann/follow", data={"csrf": csrf}).status_code == 400  # oneself
    r = ann.post("/users/pres_bob/follow", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert 'id="follow-user"' in ann.get("/users/pres_bob").text
    assert following_row(ann, "pres_bob") == "offline"
    with bob.websocket_connect("/ws/me", headers=ORIGIN) as ws:  # a page of bob's is open
        ws.receive_json()
        assert following_row(ann, "pres_bob") == "online"
        assert service.counts(ann.app.state.club.store)["online"] >= 1
        assert set(ann.get("/lobby/counts").json()) == {"online", "playing"}
        hide = {"csrf": csrf_of(bob.get("/following").text), "hidden": "on"}
        assert bob.post("/settings/presence", data=hide).status_code == 200
        assert following_row(ann, "pres_bob") == "offline"
        assert 'id="hide-presence" checked' in bob.get("/following").text
    r = ann.post("/users/pres_bob/unfollow", data={"csrf": csrf, "next": "/following"})
    assert "pres_bob" not in r.text.split("<main>")[1]


def test_the_seek_socket_refuses_visitors_and_bad_seeks(clubs):
    ann, _ = clubs
    visitor = new_client(ann)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        visitor.websocket_connect("/ws/seek", headers=ORIGIN) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4401
    with ann.websocket_connect("/ws/seek", headers=ORIGIN) as ws:
        for bad in (
            {"type": "seek", "game": "nope", "players": 2, "control": "none"},
            {"type": "seek", "game": "race", "players": 7, "control": "none"},
            {"type": "seek", "game": "race", "players": 2, "control": "forever"},
            {"type": "seek", "game": "race", "players": "2", "control": "none"},
            {"type": "what"},
        ):
            ws.send_text(json.dumps(bad))
            assert ws.receive_json()["type"] == "error"
        ws.send_text(json.dumps({"type": "seek", "game": "race", "players": 2, "control": "none"}))
        assert ws.receive_json()["type"] == "seeking"
        ws.send_text(json.dumps({"type": "cancel"}))
        assert ws.receive_json()["type"] == "cancelled"
    assert service.ONLINE_SECONDS > service.BEAT_SECONDS * 2
