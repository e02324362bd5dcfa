"""Review requests sent at once, against a real server on SQLite and on PostgreSQL: two for
the same game are one review (not a 500 on ``reviews.game_id``), and one person's many at
once stay within :data:`~ludoteca.web.analysis.review.PER_USER` waiting reviews (4 to 5
passed). Only the game's players may ask (issue 43, findings 6 and 7). The server takes no
reviews itself here (``LUDOTECA_REVIEWS_AT_ONCE=0``), so what is counted stays waiting."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from ludoteca.web.analysis.review import PER_USER
from tests.web.helpers import Server, create_game, join, member, move, page_csrf, view


@pytest.fixture
def club(url, tmp_path):
    srv = Server(url, log=tmp_path / "server.log", env={"LUDOTECA_REVIEWS_AT_ONCE": "0"}).start()
    yield srv
    srv.kill()


def finished_toy_game(alice, bob) -> int:
    pk = create_game(alice, "toy", [("me", ""), ("user", bob.name)])
    join(bob, pk)
    first = alice if view(alice, pk)["your_turn"] else bob
    second = bob if first is alice else alice
    for who, cell in ((first, "a1"), (second, "b1"), (first, "a2"), (second, "b2")):
        assert move(who, pk, cell).status_code == 200
    assert move(first, pk, "a3").status_code == 200
    assert view(alice, pk)["status"] == "finished"
    return pk


def at_once(requests):
    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(lambda f: f(), requests))


def asker(client, pk: int):
    token = page_csrf(client)
    return lambda: client.post(f"/games/{pk}/review", data={"csrf": token}, follow_redirects=False)


def test_review_requests_at_once(club):
    alice, bob = member(club.base, "rvalice"), member(club.base, "rvbob")
    carol, dave = member(club.base, "rvcarol"), member(club.base, "rvdave")
    shared = finished_toy_game(carol, dave)
    games = [finished_toy_game(alice, bob) for _ in range(PER_USER + 3)]
    # both players, four times each, for the same game
    same = at_once([asker(c, shared) for c in (carol, dave) * 4])
    assert [r.status_code for r in same] == [303] * 8, [r.text[:200] for r in same]
    assert carol.get(f"/api/games/{shared}/review").json()["status"] == "queued"
    # one person, all their games at once: the limit holds
    many = at_once([asker(bob, pk) for pk in games])
    codes = sorted(r.status_code for r in many)
    assert codes == [303] * PER_USER + [429] * (len(games) - PER_USER), codes
    # a stranger to the game may read its review, not ask for one
    r = asker(carol, games[-1])()
    assert r.status_code == 403, r.text[:300]
    assert carol.get(f"/api/games/{games[0]}/review").status_code == 200
    for c in (alice, bob, carol, dave):
        c.close()
