"""Challenges and rematches decided at the same moment, through two server processes on one
database (a SQLite file, then PostgreSQL): one decision per challenge, one game per rematch.

Each race sends both requests together from threads, so they meet inside the servers; the
checks read the database itself afterwards."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.web.helpers import Server, create_game, member, page_csrf

from .helpers import accepted, challenge, finish, pending_ids

_names = itertools.count(1)
ROUNDS = 3


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def pair(request, tmp_path_factory):
    """Two server processes on one database, and a connection to read it."""
    tmp = tmp_path_factory.mktemp(f"races-{request.param}")
    if request.param == "sqlite":
        url = f"sqlite:///{tmp / 'club.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres").fresh_database("challengeraces")
    one = Server(url, log=tmp / "one.log").start()
    two = Server(url, log=tmp / "two.log").start()
    engine = create_engine(url)
    yield one, two, engine
    engine.dispose()
    one.kill()
    two.kill()


def people(pair, prefix: str) -> tuple[httpx.Client, httpx.Client, httpx.Client]:
    """Alice on one process, Bob on the other, and Bob's browser on the first as well."""
    one, two, _ = pair
    n = next(_names)
    alice, bob = member(one.base, f"{prefix}a{n}"), member(two.base, f"{prefix}b{n}")
    bob_on_one = httpx.Client(base_url=one.base, timeout=30, cookies=bob.cookies)
    bob_on_one.name = bob.name  # type: ignore[attr-defined]
    return alice, bob, bob_on_one


def post_together(*sends) -> list[httpx.Response]:
    """Each ``(client, path)`` posted at once (the forms' CSRF tokens fetched first)."""
    tokens = [page_csrf(c, "/challenges") for c, _ in sends]
    with ThreadPoolExecutor(len(sends)) as pool:
        return list(
            pool.map(
                lambda s: s[0][0].post(s[0][1], data={"csrf": s[1]}, follow_redirects=False),
                zip(sends, tokens, strict=True),
            )
        )


def rows(engine, sql: str, **params) -> list:
    with engine.connect() as conn:
        return list(conn.execute(text(sql), params).all())


@pytest.mark.parametrize("answer", ["cancel", "decline"])
def test_one_decision_per_challenge(pair, answer):
    """Accept against withdraw (by the challenger) or decline (by the challenged): the
    challenge ends as whichever came first, a game exists only if it was accepted, and the
    challenger is told of one decision only."""
    _, _, engine = pair
    alice, bob, bob_on_one = people(pair, answer[:2])
    other = alice if answer == "cancel" else bob_on_one
    for _ in range(ROUNDS):
        assert challenge(alice, bob.name).status_code == 303
        [pk] = pending_ids(bob, "incoming")
        took, answered = post_together(
            (bob, f"/challenges/{pk}/accept"), (other, f"/challenges/{pk}/{answer}")
        )
        assert sorted([took.status_code, answered.status_code]) in ([303, 409], [409, 303])
        [(status, game)] = rows(engine, "SELECT status, game_id FROM challenges WHERE id=:i", i=pk)
        if took.status_code == 303:
            assert status == "accepted" and game is not None
        else:
            assert status == ("cancelled" if answer == "cancel" else "declined"), status
            assert game is None
    told = [
        t
        for (t,) in rows(
            engine,
            "SELECT text FROM notifications WHERE user_id = (SELECT id FROM users WHERE name = :n)",
            n=alice.name,
        )
    ]
    assert len(told) <= ROUNDS, told  # one word per challenge at most, never both


def test_both_press_rematch_at_once(pair):
    """Both players ask for the rematch together: one game, no offer left waiting (whoever
    asked first is sent to the new game by their page, as an accepted offer is)."""
    _, _, engine = pair
    alice, bob, bob_on_one = people(pair, "rm")
    for _ in range(2):  # a lucky order could pass once; not twice
        game = accepted(alice, bob)
        finish(alice, bob, game)
        mine, theirs = post_together(
            (alice, f"/games/{game}/rematch"), (bob_on_one, f"/games/{game}/rematch")
        )
        made = rows(engine, "SELECT id FROM games WHERE id > :g", g=game)
        assert len(made) == 1, made  # both asked, and one game came of it
        new = f"/games/{made[0][0]}"
        assert {mine.headers["location"], theirs.headers["location"]} <= {new, f"/games/{game}"}
        assert new in {mine.headers["location"], theirs.headers["location"]}
        waiting = rows(
            engine,
            "SELECT id FROM challenges WHERE rematch_of = :g AND status = 'pending'",
            g=game,
        )
        assert waiting == []


def test_rematch_against_the_computer_pressed_many_times(pair):
    _, two, engine = pair
    alice, _, _ = people(pair, "rb")
    alice_on_two = httpx.Client(base_url=two.base, timeout=30, cookies=alice.cookies)
    game = create_game(alice, "toy", [("me", ""), ("bot", "random")])
    r = alice.post(f"/api/games/{game}/resign", json={}, headers={"X-CSRF-Token": page_csrf(alice)})
    assert r.status_code == 200, r.text
    presses = [(alice if i % 2 else alice_on_two, f"/games/{game}/rematch") for i in range(8)]
    answers = post_together(*presses)
    assert {a.status_code for a in answers} == {303}
    assert len({a.headers["location"] for a in answers}) == 1, [
        a.headers["location"] for a in answers
    ]
    made = rows(
        engine,
        "SELECT id FROM games WHERE id > :g AND created_by = "
        "(SELECT id FROM users WHERE name = :n)",
        g=game,
        n=alice.name,
    )
    assert len(made) == 1, made


def test_a_double_clicked_reply_is_stored_once(pair):
    """The same reply sent twice at once (a double click), through either process, by a
    reader who has never opened the thread: no error, and one post."""
    _, _, engine = pair
    alice, bob, bob_on_one = people(pair, "fr")
    rows(engine, "SELECT 1")  # the schema is there
    with engine.begin() as conn:  # past the new-account posting limits
        conn.execute(text("UPDATE users SET created = :c"), {"c": "2000-01-01 00:00:00"})
    opened = alice.post(
        "/forum/general/new",
        data={"csrf": page_csrf(alice, "/forum"), "title": "Double", "body": "first"},
        follow_redirects=False,
    )
    assert opened.status_code == 303, opened.text
    thread = int(opened.headers["location"].rsplit("/", 1)[1])
    for n in range(ROUNDS):
        body = f"reply number {n}"
        tokens = [page_csrf(c, "/forum") for c in (bob, bob_on_one)]
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda ct, body=body: ct[0].post(
                        f"/forum/thread/{thread}/reply",
                        data={"csrf": ct[1], "body": body},
                        follow_redirects=False,
                    ),
                    zip((bob, bob_on_one), tokens, strict=True),
                )
            )
        assert [a.status_code for a in answers] == [303, 303], [a.text[:300] for a in answers]
        assert answers[0].headers["location"] == answers[1].headers["location"]
        stored = rows(
            engine,
            "SELECT id FROM forum_posts WHERE thread_id = :t AND body = :b",
            t=thread,
            b=body,
        )
        assert len(stored) == 1, stored
        with engine.begin() as conn:  # a reader new to the thread again at the next click
            conn.execute(text("DELETE FROM forum_reads WHERE thread_id = :t"), {"t": thread})
