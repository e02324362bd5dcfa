"""A move sent over a game's socket, and the views of everyone watching the game after it,
take one trip to play's worker threads (:meth:`Hub.change_and_deliver`), in the game's turn:
no second hand-over and second read of the game per move, and a refused move tells nobody."""

from __future__ import annotations

import json

import pytest

from tests.web.helpers import legal_texts, page_csrf
from tests.web.inprocess import club_in_process, new_client, table_game


def states(ws) -> dict:
    while True:
        data = json.loads(ws.receive_text())
        if data["type"] in ("state", "error"):
            return data


@pytest.fixture
def table(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as a:
        b, watcher = new_client(a), new_client(a)
        b.portal = watcher.portal = a.portal  # one event loop for every socket, as a server has
        pk = table_game(a, b, "tripa", "tripb")
        hub = a.app.state.club.hub
        trips: list[object] = []
        real = hub.play

        async def counted(fn, *args):
            trips.append(fn)
            return await real(fn, *args)

        hub.play = counted
        with (
            a.websocket_connect(f"/ws/games/{pk}") as wa,
            b.websocket_connect(f"/ws/games/{pk}") as wb,
            watcher.websocket_connect(f"/ws/games/{pk}") as ww,
        ):
            va, vb, vw = states(wa), states(wb), states(ww)
            if va["your_turn"]:
                yield hub, trips, (a, wa, va), (b, wb, vb), (ww, vw)
            else:
                yield hub, trips, (b, wb, vb), (a, wa, va), (ww, vw)


def send_move(client, ws, view: dict, text: str) -> None:
    message = {"type": "move", "move": text, "ply": view["ply"], "csrf": page_csrf(client)}
    ws.send_text(json.dumps(message))


def test_a_move_and_every_view_after_it_take_one_trip(table):
    _, trips, (mover, wm, vm), (_, wo, _), (ww, _) = table
    trips.clear()
    send_move(mover, wm, vm, legal_texts(vm)[0])
    after = [states(wm), states(wo), states(ww)]
    assert [v["ply"] for v in after] == [vm["ply"] + 1] * 3
    assert [v["your_turn"] for v in after] == [False, True, False]
    assert len(trips) == 1, trips


def test_a_refused_move_tells_the_others_nothing(table):
    _, _, (mover, wm, vm), (other, wo, vo), (ww, _) = table
    send_move(mover, wm, vm, "no such move")
    assert states(wm)["type"] == "error"
    send_move(mover, wm, vm, legal_texts(vm)[0])
    # the first view the others get is the one after the accepted move
    assert states(wo)["ply"] == states(ww)["ply"] == vo["ply"] + 1
    assert states(wm)["ply"] == vm["ply"] + 1


def test_views_that_fail_after_a_move_are_sent_again(table):
    hub, _, (mover, wm, vm), (_, wo, _), (ww, _) = table
    real = hub.encoded_views
    failures = []

    def fail_once(pk, users, **options):
        if not failures:
            failures.append(pk)
            raise RuntimeError("drawing the views failed")
        return real(pk, users, **options)

    hub.encoded_views = fail_once
    send_move(mover, wm, vm, legal_texts(vm)[0])
    assert [states(w)["ply"] for w in (wm, wo, ww)] == [vm["ply"] + 1] * 3
    assert failures


def test_a_move_over_http_and_the_sockets_views_take_one_trip(table):
    _, trips, (mover, wm, vm), (_, wo, _), (ww, _) = table
    trips.clear()
    answer = mover.post(
        f"/api/games/{vm['id']}/move?view=1",
        json={"move": legal_texts(vm)[0], "ply": vm["ply"]},
        headers={"X-CSRF-Token": page_csrf(mover)},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["view"]["ply"] == vm["ply"] + 1
    assert [states(w)["ply"] for w in (wm, wo, ww)] == [vm["ply"] + 1] * 3
    assert len(trips) == 1, trips


def test_a_cancelled_caller_of_play_waits_for_the_call_to_finish():
    """A page that leaves while its move is being written cancels the task that sent it; the
    move in play's thread goes on, and the game's turn is held until it is done."""
    import asyncio
    import threading
    import time

    from ludoteca.web.round.bots import PlayThreads

    finished = threading.Event()

    def slow_move() -> str:
        time.sleep(0.3)
        finished.set()
        return "written"

    async def main() -> None:
        hub = PlayThreads()
        task = asyncio.create_task(hub.play(slow_move))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert finished.is_set()
        assert await hub.play(lambda: 42) == 42
        hub.stop()

    asyncio.run(main())
