"""Bad input gets the documented refusal, never a 500, on each database the club runs on.

Ids too large for the database's integer columns (PostgreSQL's are 32 bits), words where a
number belongs, NUL characters (which PostgreSQL's text cannot hold), JSON nested without
end, and the database itself going away for a moment (503 with ``Retry-After``). The
fallback error page, drawn when the database cannot tell who is asking, escapes what it
quotes.
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
import time

import pytest

from ludoteca.web.app import UNSTORABLE
from ludoteca.web.infra.ids import MAX_ID
from ludoteca.web.infra.inputs import MAX_JSON_DEPTH
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.messages import validate_message
from tests.web.helpers import csrf_of, page_csrf
from tests.web.inprocess import club_in_process, new_client, snapshot, table_game, to_move
from tests.web.postgres import Postgres

_names = itertools.count(1)
BAD_IDS = ["2147483648", "9223372036854775808", "99999999999999999999999", "abc", "-1", "1e3"]
"""Not game numbers: past the 32-bit columns, past 64 bits, not a whole number."""


def names() -> tuple[str, str]:
    n = next(_names)
    return f"bad{n}a", f"bad{n}b"


def id_routes(pk: int, bad: str) -> list[tuple[str, str]]:
    """Every route that takes a game number (or a move number), with ``bad`` in its place."""
    return [
        ("GET", f"/games/{bad}"),
        ("GET", f"/games/{bad}/replay"),
        ("GET", f"/games/{bad}/record.json"),
        ("GET", f"/api/games/{bad}"),
        ("GET", f"/api/games/{bad}/replay/0"),
        ("GET", f"/api/games/{pk}/replay/{bad}"),
        ("POST", f"/games/{bad}/join"),
        ("POST", f"/games/{bad}/resign"),
        ("POST", f"/api/games/{bad}/move"),
        ("POST", f"/api/games/{bad}/resign"),
    ]


def test_an_id_that_is_no_game_number_is_an_unknown_page(url):
    with club_in_process(url) as a, new_client(a) as b:
        pk = table_game(a, b, *names())
        token = page_csrf(a)
        before = snapshot(url)
        for method, path in (route for bad in BAD_IDS for route in id_routes(pk, bad)):
            if method == "GET":
                r = a.get(path)
            elif path.startswith("/api/"):
                r = a.post(path, json={"move": "a1"}, headers={"X-CSRF-Token": token})
            else:
                r = a.post(path, data={"csrf": token})
            assert r.status_code == 404, (path, r.status_code, r.text[:300])
            assert "no such page" in r.text, path
        assert snapshot(url) == before
        # The largest number the database holds is still a game number (there is none).
        r = a.get(f"/api/games/{MAX_ID}")
        assert r.status_code == 404 and "There is no game number" in r.json()["error"]


def test_nul_characters_are_refused_and_change_nothing(url):
    with club_in_process(url) as a, new_client(a) as b:
        first, second = names()
        pk = table_game(a, b, first, second)
        token = page_csrf(a)
        before = snapshot(url)
        assert a.get("/users/a%00b").status_code == 404
        assert a.get(f"/users/{first}%00/ratings.png").status_code == 404
        assert a.get("/login?next=/%00").status_code == 400
        form = {"csrf": token, "game": "toy", "seat0": "me", "seat1": "user"}
        for data in (
            {**form, "seat1_user": f"{second}\x00"},
            {**form, "seat1_user": second, "extra\x00": "x"},
        ):
            r = a.post("/games", data=data)
            assert r.status_code == 400 and "NUL" in r.text, r.text[:300]
        r = a.post(
            f"/api/games/{pk}/move", json={"move": "a1\x00"}, headers={"X-CSRF-Token": token}
        )
        assert r.status_code == 400 and "NUL" in r.json()["error"]
        with new_client(a) as c:
            csrf = csrf_of(c.get("/login").text)
            r = c.post("/login", data={"csrf": csrf, "name": f"{first}\x00", "password": "x" * 9})
            assert r.status_code == 400 and "NUL" in r.text
            r = c.post(
                "/register",
                data={"csrf": csrf, "name": "nul\x00", "password": "p\x00" * 6, "password2": "x"},
            )
            assert r.status_code == 400 and "NUL" in r.text
        assert snapshot(url) == before


def test_json_nested_without_end_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    with club_in_process(url) as a, new_client(a) as b:
        pk = table_game(a, b, *names())
        token = page_csrf(a)
        before = snapshot(url)
        for depth in (MAX_JSON_DEPTH + 1, 30_000):
            body = "[" * depth + "]" * depth
            r = a.post(f"/api/games/{pk}/move", content=body, headers={"X-CSRF-Token": token})
            assert r.status_code == 400, r.text[:300]
            assert r.json()["error"].startswith("The request body is nested too deeply")
        assert snapshot(url) == before
        mover = to_move(pk, a, b)
        ply = a.get(f"/api/games/{pk}").json()["ply"]
        ok = {"move": "a1", "ply": ply, "deep": [[["shallow enough"]]]}
        r = mover.post(f"/api/games/{pk}/move", json=ok, headers={"X-CSRF-Token": page_csrf(mover)})
        assert r.json()["ok"] is True
    # Websocket messages are parsed the same way.
    with pytest.raises(ClubError, match="nested too deeply"):
        validate_message('{"type": "ping", "x": ' + "[" * 1500 + "]" * 1500 + "}")


def test_the_fallback_error_page_escapes_what_it_quotes(tmp_path):
    """With the sessions table gone, the error page cannot tell who is logged in and falls
    back to a bare page: what the visitor put in the address is shown as text."""
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    with club_in_process(url) as a, new_client(a) as b:
        table_game(a, b, *names())
        with sqlite3.connect(tmp_path / "club.sqlite3") as conn:
            conn.execute("DROP TABLE sessions")
        r = a.get("/rules/<img src=x onerror=alert(1)>")
        assert r.status_code == 404
        assert "<img" not in r.text and "&lt;img src=x onerror=alert(1)&gt;" in r.text


def test_pages_may_post_forms_and_set_a_base_only_as_the_club(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as a:
        for path in ("/", "/login", "/no/such/page"):
            policy = a.get(path).headers["Content-Security-Policy"]
            directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
            assert directives["form-action"] == "'self'"
            assert directives["base-uri"] == "'none'"
            assert directives["default-src"] == "'self'"


def test_while_the_database_restarts_requests_get_503_with_retry_after(tmp_path):
    """PostgreSQL stopped under a running club, then started again: meanwhile every way of
    asking says "try again in a moment" (503, ``Retry-After``), and afterwards all is back."""
    pg = Postgres().start()  # a server of its own, since this test stops it
    try:
        url = pg.fresh_database("restarting")
        with club_in_process(url) as a, new_client(a) as b:
            pk = table_game(a, b, *names())
            token = page_csrf(a)
            ply = a.get(f"/api/games/{pk}").json()["ply"]
            pg.halt()
            answers = [
                a.get(f"/api/games/{pk}"),
                a.get(f"/games/{pk}"),
                a.get("/"),
                a.post(  # well formed (a move without its ply is refused with no database)
                    f"/api/games/{pk}/move",
                    json={"move": "a1", "ply": ply},
                    headers={"X-CSRF-Token": token},
                ),
            ]
            for r in answers:
                assert r.status_code == 503, (r.request.url, r.status_code, r.text[:300])
                assert 1 <= int(r.headers["Retry-After"]) <= 60
                assert "try again in a moment" in r.text
            assert answers[0].json()["ok"] is False
            pg.resume()
            view = a.get(f"/api/games/{pk}").json()
            mover = to_move(pk, a, b)
            r = mover.post(
                f"/api/games/{pk}/move",
                json={"move": "a1", "ply": view["ply"]},
                headers={"X-CSRF-Token": page_csrf(mover)},
            )
            assert r.json() == {"ok": True, "ply": view["ply"] + 1}
            # Asked without pause while the database goes down and comes back (connections
            # cut mid-use, refused, then new): each answer is the game or a 503, never a 500.
            restarted = threading.Thread(target=lambda: (pg.halt(), time.sleep(0.5), pg.resume()))
            restarted.start()
            seen = []
            while restarted.is_alive() or len(seen) < 20:
                seen.append(a.get(f"/api/games/{pk}").status_code)
            restarted.join()
            assert set(seen) <= {200, 503} and 503 in seen, sorted(set(seen))
            assert a.get(f"/api/games/{pk}").status_code == 200
    finally:
        pg.stop()


def test_a_value_the_database_refuses_is_a_bad_request_not_a_failure(postgres):
    """Behind the checks at the door, whatever still reaches PostgreSQL and is refused as
    data (a number past its column, a NUL) is answered 400 without internals, not 500: a
    route added later that forgets a check fails safe."""
    from sqlalchemy import select

    from ludoteca.web.infra.store import GameRow, User

    url = postgres.fresh_database(f"refused{next(_names)}")
    with club_in_process(url) as a:
        store = a.app.state.club.store

        def look_up(kind: str):
            with store.session() as db:
                if kind == "number":
                    db.get(GameRow, 2**40)
                else:
                    db.scalar(select(User).where(User.name_key == "a\x00b"))
            return {"ok": True}

        a.app.router.add_api_route("/api/look-up/{kind}", look_up)
        for kind in ("number", "text"):
            r = a.get(f"/api/look-up/{kind}")
            assert r.status_code == 400, r.text
            assert r.json() == {"ok": False, "error": UNSTORABLE}
