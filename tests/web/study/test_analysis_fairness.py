"""The analysis board and reviews, shared and guarded (issue 43, findings 2 and 6): no
search of a position of one's own game in progress, however it arrives; *start* sent in a
flood is refused; the review queue goes round robin between people."""

from __future__ import annotations

import json

import pytest

from ludoteca.web.analysis import review as review_module
from tests.web.helpers import create_game, join, page_csrf, register
from tests.web.inprocess import club_in_process, new_client, table_game, to_move


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setattr(review_module, "REVIEWS_AT_ONCE", 0, raising=False)  # claimed by hand below
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        yield client


def first_answer(ws) -> dict:
    while True:
        data = json.loads(ws.receive_text())
        if data["type"] in ("analysis", "error"):
            return data


def start(ws, csrf: str, position: str) -> None:
    ws.send_text(json.dumps({"type": "start", "game": "toy", "position": position, "csrf": csrf}))


def test_no_analysis_of_ones_own_game_in_progress(app):
    alice, bob = app, new_client(app)
    pk = table_game(alice, bob, "ownalice", "ownbob")
    mover = to_move(pk, alice, bob)
    assert (
        mover.post(
            f"/api/games/{pk}/move",
            json={"move": "b2", "ply": mover.get(f"/api/games/{pk}").json()["ply"]},
            headers={"X-CSRF-Token": page_csrf(mover)},
        ).status_code
        == 200
    )
    live = app.app.state.club.games.state(pk)[1].position()
    for player in (alice, bob):
        csrf = page_csrf(player)
        with player.websocket_connect("/ws/analysis") as ws:
            start(ws, csrf, "  " + live.replace(" ", "   ") + " ")  # pasted, spaced otherwise
            answer = first_answer(ws)
            assert answer["type"] == "error" and "game in progress" in answer["message"], answer
            start(ws, csrf, "x........ x")  # any other position is analysed
            assert first_answer(ws)["type"] == "analysis"
    # a watcher of the game is not helped in it, and may analyse it
    carol = new_client(app)
    assert register(carol, "owncarol").status_code == 303
    with carol.websocket_connect("/ws/analysis") as ws:
        start(ws, page_csrf(carol), live)
        assert first_answer(ws)["type"] == "analysis"


def test_a_flood_of_starts_is_refused(app):
    assert register(app, "flooder").status_code == 303
    csrf = page_csrf(app)
    refused = 0
    with app.websocket_connect("/ws/analysis") as ws:
        for _ in range(30):
            start(ws, csrf, "x........ x")
        ws.send_text(json.dumps({"type": "stop"}))
        ws.send_text(json.dumps({"type": "end"}))  # answered by an error: the flood's end
        while True:
            data = json.loads(ws.receive_text())
            if data["type"] != "error":
                continue
            if "Send 'start'" in data["message"]:
                break
            assert "Too many starts" in data["message"], data
            refused += 1
    assert refused >= 15


def test_the_review_queue_goes_round_robin_between_people(app):
    club = app.app.state.club
    alice, bob, carol, dave = app, new_client(app), new_client(app), new_client(app)
    games = [table_game(alice, bob, "rra", "rrb")]
    second = create_game(alice, "toy", [("me", ""), ("open", "")])
    assert join(bob, second).status_code == 303
    games += [second, table_game(carol, dave, "rrc", "rrd")]
    for pk, loser in zip(games, [bob, bob, dave], strict=True):
        assert (
            loser.post(
                f"/games/{pk}/resign", data={"csrf": page_csrf(loser)}, follow_redirects=False
            ).status_code
            == 303
        )
    for pk, who in ((games[0], alice), (games[1], alice), (games[2], carol)):
        r = who.post(f"/games/{pk}/review", data={"csrf": page_csrf(who)}, follow_redirects=False)
        assert r.status_code == 303, r.text[:300]
    # alice asked first, twice; carol after: carol's comes second, not third
    assert [club.reviews.claim() for _ in range(3)] == [games[0], games[2], None]


def test_the_worker_goes_first_to_whoever_used_it_least_lately():
    import asyncio

    from ludoteca.web.analysis.sharing import ByUseQueue

    async def scenario() -> list[str]:
        queue = ByUseQueue(workers=1, per_owner=1)
        order: list[str] = []
        for hog in ("hog1", "hog2", "hog3"):
            queue.charge(hog, 5.0)  # they have kept the worker busy
        holder = asyncio.Event()

        async def slice_of(owner: str, hold: asyncio.Event | None = None) -> None:
            async with queue.turn(owner):
                order.append(owner)
                if hold is not None:
                    await hold.wait()

        first = asyncio.create_task(slice_of("hog1", holder))
        await asyncio.sleep(0)
        waiting = [asyncio.create_task(slice_of(o)) for o in ("hog2", "hog3", "newcomer")]
        await asyncio.sleep(0)
        holder.set()
        await asyncio.gather(first, *waiting)
        return order

    order = asyncio.run(scenario())
    assert order[:2] == ["hog1", "newcomer"], order  # not after every hog's turn


def test_a_socket_that_goes_on_flooding_is_closed(app):
    from starlette.websockets import WebSocketDisconnect

    from ludoteca.web.analysis.live import REFUSED_STARTS_CLOSE, STARTS_BURST

    assert register(app, "flooder2").status_code == 303
    csrf = page_csrf(app)
    with app.websocket_connect("/ws/analysis") as ws:
        for _ in range(STARTS_BURST + REFUSED_STARTS_CLOSE + 5):
            start(ws, csrf, "x........ x")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(500):
                ws.receive_text()
        assert closed.value.code == 1008
