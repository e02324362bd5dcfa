"""The HTTP API and pages against a real server: accounts, CSRF, creating, joining and
playing the toy game, and every refusal leaving the game exactly as it was."""

from __future__ import annotations

import time

from tests.web.helpers import (
    PASSWORD,
    create_game,
    csrf_of,
    join,
    legal_texts,
    move,
    page_csrf,
    register,
    view,
)


def two_player_game(make_user):
    a, b = make_user("ann"), make_user("ben")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    assert join(b, pk).status_code == 303
    return a, b, pk


def players(a, b, pk):
    """(client to move, the other) in the toy game after its toss."""
    v = view(a, pk)
    assert v["status"] == "active"
    me = next(s for s in v["seats"] if s["you"])
    return (a, b) if me["index"] == v["to_move"] else (b, a)


# --- accounts ----------------------------------------------------------------------------------
def test_register_sets_httponly_samesite_session_cookie(anon):
    r = register(anon, "carol1")
    assert r.status_code == 303
    cookie = r.headers["set-cookie"].lower()
    assert "ludoteca_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert 'data-user="carol1"' in anon.get("/").text


def test_taken_name_is_refused_clearly_any_case(make_user, anon):
    taken = make_user("dora").name
    r = register(anon, taken.upper())
    assert r.status_code == 400
    assert "is taken" in r.text


def test_weak_passwords_are_refused_clearly(anon):
    for weak in ("short", "password1", "aaaaaaaaaa", "evan12345xyz"):
        r = register(anon, "evan12345", weak)
        assert r.status_code == 400, weak
        assert "too weak" in r.text
    assert register(anon, "evan12345").status_code == 303


def test_wrong_password_and_unknown_user_get_the_same_message(make_user, anon):
    name = make_user("finn").name
    for user, password in ((name, "not the password"), ("nobody-here", PASSWORD)):
        csrf = page_csrf(anon, "/login")
        r = anon.post("/login", data={"name": user, "password": password, "csrf": csrf})
        assert r.status_code == 400
        assert "Wrong user name or password" in r.text
    csrf = page_csrf(anon, "/login")
    r = anon.post(
        "/login", data={"name": name, "password": PASSWORD, "csrf": csrf}, follow_redirects=False
    )
    assert r.status_code == 303


def test_logout_ends_the_session(make_user):
    a = make_user("gus")
    old_cookie = a.cookies["ludoteca_session"]
    r = a.post("/logout", data={"csrf": page_csrf(a)}, follow_redirects=False)
    assert r.status_code == 303
    a.cookies.set("ludoteca_session", old_cookie)
    assert 'data-user="' not in a.get("/").text  # the old token no longer logs in


def test_forms_without_or_with_forged_csrf_are_refused(anon, make_user):
    r = anon.post("/register", data={"name": "hal123", "password": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 403 and "CSRF" in r.text
    a = make_user("ida")
    r = a.post("/games", data={"game": "toy", "csrf": "0" * 64})
    assert r.status_code == 403 and "CSRF" in r.text
    # A token from another browser's session is no good either.
    other = make_user("jon")
    r = a.post("/games", data={"game": "toy", "csrf": page_csrf(other), "seat0": "me"})
    assert r.status_code == 403
    assert register(anon, "hal123").status_code == 303  # nothing was created before


# --- playing ------------------------------------------------------------------------------------
def test_create_join_and_play_until_won(make_user):
    a, b, pk = two_player_game(make_user)
    first, second = players(a, b, pk)
    for client, cell in ((first, "a1"), (second, "b1"), (first, "a2"), (second, "b2")):
        r = move(client, pk, cell)
        assert r.status_code == 200, r.text
    r = move(first, pk, "A3")  # notation is parsed by the engine, stored canonically
    assert r.status_code == 200
    v = view(a, pk)
    assert v["status"] == "finished"
    assert v["result"]["winners"] == [
        next(s["index"] for s in v["seats"] if s["label"] == first.name)
    ]
    assert [m["text"] for m in v["moves"]][1:] == ["a1", "b1", "a2", "b2", "a3"]
    assert v["moves"][0]["text"].startswith("toss ")  # the table's draw, stored like a move
    assert v["moves"][-1]["note"] == f"{v['moves'][-1]['side']} took a3"  # the engine's note


def test_move_out_of_turn_is_refused_and_changes_nothing(make_user):
    a, b, pk = two_player_game(make_user)
    first, second = players(a, b, pk)
    before = view(a, pk)
    r = move(second, pk, "b2")
    assert r.status_code == 409
    assert "not your turn" in r.json()["error"]
    assert view(a, pk) == before


def test_illegal_and_malformed_moves_are_refused_and_change_nothing(make_user):
    a, b, pk = two_player_game(make_user)
    first, second = players(a, b, pk)
    assert move(first, pk, "b2").status_code == 200
    before = view(second, pk)
    r = move(second, pk, "b2")
    assert r.status_code == 400
    assert "'b2' refused" in r.json()["error"] and "not a legal move" in r.json()["error"]
    r = move(second, pk, "z9")
    assert r.status_code == 400 and "does not parse" in r.json()["error"]
    r = move(second, pk, "x" * 1000)
    assert r.status_code == 400
    assert view(second, pk) == before


def test_stale_ply_is_refused(make_user):
    a, b, pk = two_player_game(make_user)
    first, _ = players(a, b, pk)
    ply = view(first, pk)["ply"]
    r = move(first, pk, "a1", ply=ply - 1)
    assert r.status_code == 409 and "moved on" in r.json()["error"]
    assert move(first, pk, "a1", ply=ply).status_code == 200


def test_move_in_finished_game_is_refused(make_user):
    a, b, pk = two_player_game(make_user)
    first, second = players(a, b, pk)
    for client, cell in (
        (first, "a1"),
        (second, "b1"),
        (first, "a2"),
        (second, "b2"),
        (first, "a3"),
    ):
        assert move(client, pk, cell).status_code == 200
    before = view(a, pk)
    for client in (first, second):
        r = move(client, pk, "c3")
        assert r.status_code == 409 and "game is over" in r.json()["error"]
    assert view(a, pk) == before


def test_missing_or_forged_session_and_csrf_are_refused(make_user, anon):
    a, b, pk = two_player_game(make_user)
    first, _ = players(a, b, pk)
    before = view(a, pk)
    # no session at all
    r = anon.post(f"/api/games/{pk}/move", json={"move": "a1"}, headers={"X-CSRF-Token": "0" * 64})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    # a forged session cookie
    anon.cookies.set("ludoteca_session", first.cookies["ludoteca_session"][:-4] + "AAAA")
    r = anon.post(f"/api/games/{pk}/move", json={"move": "a1"}, headers={"X-CSRF-Token": "0" * 64})
    assert r.status_code == 401
    # the right session but no / a forged CSRF token
    r = first.post(f"/api/games/{pk}/move", json={"move": "a1"})
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    r = move(first, pk, "a1", csrf="f" * 64)
    assert r.status_code == 403
    assert view(a, pk) == before


def test_the_view_marks_the_cells_of_the_last_players_move(make_user):
    """What the other player (or the computer) just did is marked on the board: the cells
    of the last move a player made, from the engine; the table's toss marks nothing."""
    a, b, pk = two_player_game(make_user)
    assert view(a, pk)["last_cells"] == []  # only the toss so far
    mover, other = players(a, b, pk)
    v = view(mover, pk)
    assert move(mover, pk, "b2", ply=v["ply"]).status_code == 200
    seen = view(other, pk)
    assert seen["last_cells"] == ["b2"]
    assert "b2" in seen["svg"] and view(make_user("kim"), pk)["last_cells"] == ["b2"]


def test_spectator_cannot_move_and_sees_no_legal_moves(make_user):
    a, b, pk = two_player_game(make_user)
    c = make_user("kim")
    v = view(c, pk)
    assert v["legal"] == [] and not v["your_turn"]
    r = move(c, pk, "a1")
    assert r.status_code == 403 and "not playing" in r.json()["error"]


def test_the_seed_never_reaches_a_browser_while_playing(make_user, server):
    from ludoteca.web.infra.store import GameRow, Store

    a, b, pk = two_player_game(make_user)
    store = Store(server.url, migrate_schema=False)
    with store.session() as db:
        seed = db.get(GameRow, pk).seed
    store.dispose()
    seen = a.get(f"/games/{pk}").text + str(view(a, pk)) + b.get("/").text
    assert str(seed) not in seen
    assert a.get(f"/games/{pk}/record.json").status_code == 409  # no record while playing


def test_computer_seat_answers(make_user):
    a = make_user("lea")
    pk = create_game(a, "toy", [("me", ""), ("bot", "random")])
    deadline = time.monotonic() + 20
    while True:
        v = view(a, pk)
        if v["status"] == "finished":
            break
        if v["your_turn"]:
            assert move(a, pk, legal_texts(v)[0], ply=v["ply"]).status_code == 200
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.05)
    assert any(
        m["side"] != "table" and m["player"] != next(s["index"] for s in v["seats"] if s["you"])
        for m in v["moves"]
    )


def test_reserved_seat_only_for_its_user(make_user):
    a, b, c = make_user("max"), make_user("ned"), make_user("ola")
    pk = create_game(a, "toy", [("me", ""), ("user", b.name)])
    r = join(c, pk)
    assert r.status_code == 409 and "no free seat" in r.text
    assert view(a, pk)["status"] == "open"
    assert join(b, pk).status_code == 303
    assert view(a, pk)["status"] == "active"


def test_resign_ends_the_game_for_the_other_player(make_user):
    a, b, pk = two_player_game(make_user)
    r = a.post(f"/api/games/{pk}/resign", headers={"X-CSRF-Token": page_csrf(a)})
    assert r.status_code == 200
    v = view(b, pk)
    assert v["status"] == "finished"
    assert v["result"]["winners"] == [next(s["index"] for s in v["seats"] if s["you"])]
    assert "resigned" in v["result"]["reason"]
    assert move(b, pk, "a1").status_code == 409
    # the downloaded record says who resigned, and verifies by replay
    from ludoteca.record import Record, replay

    rec = Record.loads(a.get(f"/games/{pk}/record.json").text)
    assert rec.result["ended"] == "resignation" and rec.result["over"] is True
    assert not replay(rec).is_over


def test_finished_game_has_replay_and_record_that_replays(make_user):
    from ludoteca.record import Record, replay

    a, b, pk = two_player_game(make_user)
    first, second = players(a, b, pk)
    for client, cell in (
        (first, "a1"),
        (second, "b1"),
        (first, "a2"),
        (second, "b2"),
        (first, "a3"),
    ):
        assert move(client, pk, cell).status_code == 200
    assert a.get(f"/games/{pk}/replay").status_code == 200
    rec = Record.loads(a.get(f"/games/{pk}/record.json").text)
    assert rec.players == [a.name, b.name]
    final = replay(rec)
    assert final.is_over
    steps = [a.get(f"/api/games/{pk}/replay/{n}").json() for n in range(len(rec.moves) + 1)]
    assert steps[0]["position"] == "......... -"
    assert steps[-1]["position"] == final.position()
    assert a.get(f"/api/games/{pk}/replay/{len(rec.moves) + 1}").status_code == 404


def test_bad_requests_get_clear_errors_without_tracebacks(make_user, anon):
    a = make_user("pia")
    r = anon.get("/games/999999")
    assert r.status_code == 404 and "no game number" in r.text
    assert "Traceback" not in r.text
    r = anon.get("/no/such/page")
    assert r.status_code == 404 and "Traceback" not in r.text
    r = a.post("/api/games/1/move", content=b"{not json", headers={"X-CSRF-Token": page_csrf(a)})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = a.post("/games", data={"csrf": page_csrf(a), "game": "nosuchgame"})
    assert r.status_code == 400 and "no game called" in r.text


def test_oversized_requests_are_refused(make_user):
    a = make_user("quin")
    r = a.post("/api/games/1/move", content=b"x" * 200_000, headers={"X-CSRF-Token": "0" * 64})
    assert r.status_code == 413


def test_lobby_lists_games_open_games_and_whose_turn(make_user):
    a, b = make_user("ray"), make_user("sue")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    lobby = b.get("/").text
    assert 'data-game="toy"' in lobby and "/rules/toy" in lobby
    assert f'data-game-id="{pk}"' in lobby and "Join" in lobby
    join(b, pk)
    v = view(a, pk)
    mover = a if v["your_turn"] else b
    assert "your turn" in mover.get("/").text
    assert csrf_of(mover.get("/").text)


def test_every_game_has_a_rules_page_with_diagrams(anon):
    import re

    index = anon.get("/rules").text
    games = set(re.findall(r'href="/rules/(\w+)"', index)) - {"toy"}
    assert {"comune", "comino", "kuniumi", "hexagone"} <= games
    for gid in games:
        page = anon.get(f"/rules/{gid}")
        assert page.status_code == 200
        assert "On this site" in page.text  # the page written for players
        assert page.text.count('class="diagram"') >= 1 and f'class="board {gid}' in page.text
    toy = anon.get("/rules/toy").text  # a game without a written page still gets one
    assert "Type a cell" in toy and "<svg" in toy
    assert anon.get("/rules/nonesuch").status_code == 404


def test_lobby_offers_every_registered_game(anon):
    from ludoteca.core.registry import game_class

    lobby = anon.get("/").text
    for gid in ("comune", "comino", "kuniumi", "hexagone", "toy"):
        assert f'data-game="{gid}"' in lobby and game_class(gid).title in lobby


def test_pages_and_views_are_sent_compressed(make_user):
    """A Comune view lists thousands of structured moves; compressed it is a fraction."""
    a = make_user("zip")
    pk = create_game(a, "comune", [("me", ""), ("bot", "random")])
    raw = a.get(f"/api/games/{pk}", headers={"Accept-Encoding": "gzip"})
    assert raw.headers.get("content-encoding") == "gzip"
    assert raw.json()["legal"]  # httpx decodes it: the view is whole
    page = a.get(f"/games/{pk}", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("content-encoding") == "gzip" and "initial-view" in page.text
    plain = a.get(f"/api/games/{pk}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_a_move_may_ask_for_the_movers_new_view_in_its_answer(make_user):
    a, b, pk = two_player_game(make_user)
    mover, other = players(a, b, pk)
    before = view(mover, pk)
    r = mover.post(
        f"/api/games/{pk}/move?view=1&compact=1",
        json={"move": legal_texts(before)[0], "ply": before["ply"]},
        headers={"X-CSRF-Token": page_csrf(mover)},
    )
    assert r.status_code == 200
    answer = r.json()
    shown = answer["view"]
    assert answer["ok"] and answer["ply"] == shown["ply"] > before["ply"]
    assert shown["type"] == "state" and not shown["your_turn"] and shown["legal"] == []
    assert shown == view(mover, pk)  # exactly what asking again gives
    # without ?view=1 the answer stays small
    again = view(other, pk)
    r = other.post(
        f"/api/games/{pk}/move",
        json={"move": legal_texts(again)[0], "ply": again["ply"]},
        headers={"X-CSRF-Token": page_csrf(other)},
    )
    assert r.status_code == 200 and set(r.json()) == {"ok", "ply"}
