"""Property-based search for 500s: every HTTP route that takes ids, names, form fields or a
JSON body, given whatever Hypothesis makes up, answers with success or a documented refusal,
and a refusal leaves the club's stored state as it was.

The club runs in this process on a real database, SQLite and the throw-away PostgreSQL
(where 32-bit ids and NUL characters used to fail), with two players at a game, a finished
game to replay and a logged-in browser sending a valid CSRF token half of the time, so that
inputs reach past the first checks. The examples are few and bounded, to keep the suite
quick; each run draws new ones, and a failure prints the request that caused it.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ludoteca.web.infra.inputs import json_depth
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.messages import validate_message
from tests.web.helpers import create_game, csrf_of, join, page_csrf
from tests.web.inprocess import (
    TestClient,
    club_in_process,
    new_client,
    snapshot,
    table_game,
    to_move,
)

REFUSALS = {400, 401, 403, 404, 405, 409, 413, 422, 429}
"""The documented refusals; anything 5xx is a failure (the database is up throughout)."""
SUCCESS = {200, 303, 307}
"""Pages, redirects after a form, and the redirect from a path with a trailing slash."""
_names = itertools.count(1)

FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW_FUZZ = settings(FUZZ, max_examples=20)
"""For the routes that hash a password: argon2 makes each of their examples slow."""

INTERESTING = [
    "",
    "0",
    "-1",
    "007",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "1e3",
    "1.5",
    " 1",
    "abc",
    "\x00",
    "a\x00b",
    "..",
    "%00",
    "<script>",
    "'; DROP TABLE users; --",
    "\u202e\ufeff",
    "x" * 300,
]
texts = st.one_of(st.sampled_from(INTERESTING), st.text(max_size=40))
ids = st.one_of(
    st.sampled_from(INTERESTING),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(alphabet="0123456789", min_size=1, max_size=25),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
json_bodies = st.one_of(
    st.fixed_dictionaries({}, optional={"move": json_values, "ply": json_values}).map(json.dumps),
    json_values.map(json.dumps),
    st.integers(min_value=1, max_value=3000).map(lambda d: "[" * d + "]" * d),
    st.integers(min_value=1, max_value=3000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
)
"""Bodies for the API: objects with the fields it reads, any JSON, JSON nested without end,
and bytes that are not JSON at all."""


def forms(fields: list[str]):
    """Form data: some of the route's own fields and a few stray ones, any values."""
    values = texts | ids
    own = st.fixed_dictionaries({}, optional={field: values for field in fields})
    stray = st.dictionaries(st.text(max_size=12), values, max_size=2)
    return st.builds(lambda a, b: {**b, **a}, own, stray)


@dataclass
class Club:
    url: str
    player: TestClient  # the logged-in browser of the first player
    other: TestClient  # the second player's
    anon: TestClient  # a browser nobody logged in to
    pk: int  # a game in progress
    done: int  # a finished game


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def club(request, tmp_path_factory):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'club.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres").fresh_database("fuzz")
    with club_in_process(url) as a, new_client(a) as b, new_client(a) as anon:
        n = next(_names)
        pk = table_game(a, b, f"fz{n}a", f"fz{n}b")
        done = table_game_again(a, b)
        yield Club(url, a, b, anon, pk, done)


def table_game_again(a, b) -> int:
    """Another game between the two, ended by a resignation: it has a replay and a record."""
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    assert join(b, pk).status_code == 303
    mover = to_move(pk, a, b)
    ply = a.get(f"/api/games/{pk}").json()["ply"]
    r = mover.post(f"/api/games/{pk}/move", json={"move": "b2", "ply": ply}, headers=csrf(mover))
    assert r.status_code == 200, r.text
    r = a.post(f"/api/games/{pk}/resign", headers=csrf(a))
    assert r.status_code == 200, r.text
    return pk


def csrf(client) -> dict[str, str]:
    return {"X-CSRF-Token": page_csrf(client)}


def segment(value: str) -> str:
    """``value`` as one path segment, percent-encoded as a browser would send it."""
    return quote(value, safe="")


def check(club: Club, response, before=None) -> None:
    """Success or a documented refusal; no internals shown; a refusal changed nothing
    (checked here if ``before`` is given, else by the caller)."""
    status = response.status_code
    where = f"{response.request.method} {response.request.url}"
    assert status in SUCCESS | REFUSALS, (where, status, response.text[:500])
    assert "Traceback" not in response.text and "sqlalchemy" not in response.text, where
    if response.request.url.path.startswith("/api/") and status in REFUSALS:
        body = response.json()
        assert body["ok"] is False and body["error"], where
    if status in REFUSALS and before is not None:
        assert snapshot(club.url) == before, (where, status)


def get_all(club: Club, client, paths: list[str]) -> None:
    """Ask for each page; asking, whatever the answer, changes nothing."""
    before = snapshot(club.url)
    for path in paths:
        check(club, client.get(path, follow_redirects=False))
    assert snapshot(club.url) == before, paths


@FUZZ
@given(pk=ids, ply=ids)
@example(pk="2147483648", ply="2147483648")  # past PostgreSQL's integer
@example(pk="9223372036854775808", ply="99999999999999999999")  # past SQLite's
@example(pk="abc", ply="-1")
def test_game_pages_and_replays_take_any_id(club, pk, ply):
    paths = [
        f"/games/{segment(pk)}",
        f"/games/{segment(pk)}/replay",
        f"/games/{segment(pk)}/record.json",
        f"/api/games/{segment(pk)}",
        f"/api/games/{club.done}/replay/{segment(ply)}",
        f"/api/games/{segment(pk)}/replay/{segment(ply)}",
    ]
    get_all(club, club.player, paths)
    get_all(club, club.anon, paths[:4])


@FUZZ
@given(name=texts, game=texts, query=texts)
@example(name="a\x00b", game="\x00", query="/\x00")  # PostgreSQL's text holds no NUL
def test_named_pages_take_any_name(club, name, game, query):
    paths = [
        f"/users/{segment(name)}",
        f"/users/{segment(name)}/ratings.png",
        f"/users/{segment(name)}/ratings.svg",
        f"/stats/{segment(name)}.svg",
        f"/leaderboard/{segment(name)}",
        f"/rules/{segment(game)}",
        f"/games/new?game={segment(game)}",
        f"/login?next={segment(query)}",
        f"/?welcome={segment(query)}",
    ]
    get_all(club, club.player, paths)


@FUZZ
@given(pk=ids, body=json_bodies, with_token=st.booleans(), on_this_game=st.booleans())
@example(pk="1", body="[" * 5000 + "]" * 5000, with_token=True, on_this_game=True)
@example(pk="1", body='{"move": "a1\\u0000", "ply": 1}', with_token=True, on_this_game=True)
@example(pk="2147483648", body='{"move": "a1"}', with_token=True, on_this_game=False)
def test_the_json_api_takes_any_body(club, pk, body, with_token, on_this_game):
    target = str(club.pk) if on_this_game else pk
    headers = csrf(club.player) if with_token else {}
    headers["Content-Type"] = "application/json"
    for path in (f"/api/games/{segment(target)}/move", f"/api/games/{segment(target)}/resign"):
        if path.endswith("/resign") and on_this_game and with_token:
            continue  # a valid resignation would end the game the other examples play at
        before = snapshot(club.url)
        check(club, club.player.post(path, content=body.encode(), headers=headers), before)


@FUZZ
@given(
    pk=ids,
    data=forms(["csrf", "game", "players", "seat0", "seat1", "seat1_user", "seat1_bot", "clock"]),
    with_token=st.booleans(),
)
@example(
    pk="2147483648",
    data={"game": "toy", "seat0": "me", "seat1": "user", "seat1_user": "b\x00"},
    with_token=True,
)
def test_game_forms_take_any_fields(club, pk, data, with_token):
    actions = [(club.player, "/games"), (club.other, f"/games/{segment(pk)}/join")]
    actions.append((club.anon, f"/games/{segment(pk)}/resign"))
    if pk not in (str(club.pk), str(club.done)):  # keep the game the other examples play at
        actions.append((club.other, f"/games/{segment(pk)}/resign"))
    for client, path in actions:
        form = {**data, "csrf": page_csrf(client, "/login")} if with_token else data
        before = snapshot(club.url)
        check(club, client.post(path, data=form, follow_redirects=False), before)


@SLOW_FUZZ
@given(
    route=st.sampled_from(["/login", "/register", "/logout"]),
    data=forms(["csrf", "name", "password", "password2", "next"]),
    with_token=st.booleans(),
)
@example(route="/login", data={"name": "a\x00", "password": "a password"}, with_token=True)
@example(route="/register", data={"name": "ok-name", "password": "p\x00ssword"}, with_token=True)
def test_account_forms_take_any_fields(club, route, data, with_token):
    client = club.anon
    client.cookies.clear()
    if with_token:
        data = {**data, "csrf": csrf_of(client.get("/login").text)}
    before = snapshot(club.url)
    check(club, client.post(route, data=data, follow_redirects=False), before)
    client.cookies.clear()


def nesting(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(value=json_values)
def test_the_nesting_of_json_is_measured_outside_its_strings(value):
    assert json_depth(json.dumps(value)) == nesting(value)
    assert json_depth(json.dumps(value, ensure_ascii=False)) == nesting(value)


@pytest.mark.parametrize("unit", ['\\"', '"\\"', '"\\', "[", '"[', "\\"])
def test_measuring_the_nesting_takes_one_pass_whatever_the_text(unit):
    """A body of 64 KiB is measured in well under a second, even one made to backtrack."""
    text = unit * (65536 // len(unit))
    start = time.perf_counter()
    json_depth(text)
    assert time.perf_counter() - start < 1.0


@settings(max_examples=200, deadline=None)
@given(raw=st.one_of(st.none(), json_bodies, texts, st.integers(1, 3000).map(lambda d: "[" * d)))
def test_a_websocket_message_is_a_checked_object_or_a_clear_refusal(raw):
    try:
        data = validate_message(raw)
    except ClubError as exc:
        assert exc.status == 400 and exc.message
    else:
        assert isinstance(data, dict) and data["type"] in {"move", "resign", "ping", "refresh"}
