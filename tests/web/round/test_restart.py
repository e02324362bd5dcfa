"""A server killed mid-game loses nothing: a new server process on the same database
resumes every game exactly where it was."""

from __future__ import annotations

import httpx

from tests.web.helpers import Server, create_game, join, move, view


def test_kill_and_restart_mid_game_loses_nothing(tmp_path, make_user):
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    first_server = Server(url, log=tmp_path / "server.log").start()
    try:
        a = httpx.Client(base_url=first_server.base, timeout=20)
        b = httpx.Client(base_url=first_server.base, timeout=20)
        from tests.web.helpers import register

        assert register(a, "rita").status_code == 303
        assert register(b, "sam").status_code == 303
        pk = create_game(a, "toy", [("me", ""), ("open", "")])
        join(b, pk)
        v = view(a, pk)
        first, second = (a, b) if v["your_turn"] else (b, a)
        assert move(first, pk, "b2").status_code == 200
        assert move(second, pk, "a1").status_code == 200
        before = view(first, pk)
    finally:
        first_server.kill()

    second_server = Server(url, log=tmp_path / "server.log").start()
    try:
        for c in (first, second):
            c.base_url = second_server.base  # same cookies: the sessions were stored too
        after = view(first, pk)
        assert after == before
        assert after["your_turn"] and after["ply"] == before["ply"]
        assert move(first, pk, "c3").status_code == 200
        assert view(second, pk)["moves"][-1]["text"] == "c3"
    finally:
        second_server.kill()
        a.close()
        b.close()
