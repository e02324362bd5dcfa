"""A newcomer's first minutes: from a game card to that game after logging in or
registering (the address they were going to is kept all the way), the rules a registration
must meet said on the form, the computer levels described on the new-game form with a fair
one chosen, and one click from the lobby to a game against the computer.

In process (the club's app through Starlette's test client, on a real SQLite file)."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web.helpers import PASSWORD, csrf_of, register
from tests.web.inprocess import club_in_process


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('first') / 'club.sqlite3'}"
    with club_in_process(url) as client:
        yield client


def next_of(location: str) -> str:
    return parse_qs(urlsplit(location).query)["next"][0]


def links(html: str, text: str) -> list[str]:
    """The addresses of the links called ``text`` in the page's main part (not its header)."""
    main = html.split("<main>", 1)[1].split("</main>", 1)[0]
    return [unescape(h) for h in re.findall(r'<a href="([^"]+)">' + re.escape(text) + "</a>", main)]


def test_play_on_a_card_leads_back_to_that_game_after_logging_in(club):
    club.cookies.clear()
    lobby = club.get("/").text
    assert 'href="/games/new?game=comino"' in lobby  # the card's Play
    r = club.get("/games/new?game=comino", follow_redirects=False)
    assert r.status_code == 303
    back = next_of(r.headers["location"])
    assert back == "/games/new?game=comino"
    login = club.get(r.headers["location"]).text
    # Registering instead of logging in keeps the way back too, and the log-in link there.
    (register_url,) = links(login, "Register")
    assert next_of(register_url) == back
    form = club.get(register_url).text
    assert f'name="next" value="{back}"' in unescape(form)
    (login_url,) = links(form, "Log in")
    assert next_of(login_url) == back
    r = club.post(
        "/register",
        data={
            "name": "newcomer",
            "password": PASSWORD,
            "password2": PASSWORD,
            "next": back,
            "csrf": csrf_of(form),
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == back
    page = club.get(back).text
    assert re.search(r'<option value="comino"[^>]*selected', page)
    # Logging in again (a wrong password first) comes back to the same place.
    club.cookies.clear()
    login = club.get("/login?next=" + back.replace("?", "%3F").replace("=", "%3D")).text
    wrong = {"name": "newcomer", "password": "not it at all", "next": back}
    r = club.post("/login", data={**wrong, "csrf": csrf_of(login)}, follow_redirects=False)
    assert r.status_code == 400 and f'name="next" value="{back}"' in unescape(r.text)
    right = {**wrong, "password": PASSWORD, "csrf": csrf_of(r.text)}
    r = club.post("/login", data=right, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == back


@pytest.mark.parametrize(
    "elsewhere", ["//evil.example/x", "/\\evil.example", "https://evil.example"]
)
def test_the_way_back_never_leads_to_another_site(club, elsewhere):
    club.cookies.clear()
    form = club.get("/register", params={"next": elsewhere}).text
    assert 'name="next" value="/"' in form
    assert links(form, "Log in") == ["/login"]


def test_the_registration_form_states_its_rules(club):
    club.cookies.clear()
    form = unescape(club.get("/register").text)
    assert "At least 8 characters" in form and 'aria-describedby="password-rule"' in form
    assert "letters, digits, '_', '.' or '-'" in form and 'aria-describedby="name-rule"' in form


def test_the_new_game_form_describes_the_levels_and_offers_a_fair_one(club):
    club.cookies.clear()
    assert register(club, "leveller").status_code == 303
    form = club.get("/games/new").text
    levels = form.split('name="seat1_bot"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w+)" selected>', levels) == ["easy"]
    about = form.split('id="levels-about"')[1].split("</dl>")[0]
    for level in ("random", "easy", "medium", "hard", "master"):
        assert f"<dt>{level}</dt>" in about
    assert "a fair first game" in about
    # Coming from a card's Play the computer, the second seat is already the computer.
    form = club.get("/games/new?game=comune&against=computer").text
    seat1 = form.split('name="seat1"')[1].split("</select>")[0]
    assert re.search(r'<option value="bot"\s+selected', seat1)


def test_one_click_from_the_lobby_to_a_game_against_the_computer(club):
    club.cookies.clear()
    assert register(club, "oneclick").status_code == 303
    lobby = club.get("/").text
    for game in ("kuniumi", "hexagone"):  # Hexagone's smallest table is the solo puzzle
        assert f'form="quick-play" name="game" value="{game}"' in lobby
        r = club.post(
            "/games/quick", data={"game": game, "csrf": csrf_of(lobby)}, follow_redirects=False
        )
        assert r.status_code == 303
        pk = int(r.headers["location"].rsplit("/", 1)[1])
        seats = club.get(f"/api/games/{pk}").json()["seats"]
        assert [s["kind"] for s in seats] == ["user", "bot"]
        assert "easy" in seats[1]["label"]
    # Logged out, the same button leads to logging in, then to that game's form.
    club.cookies.clear()
    lobby = club.get("/").text
    r = club.post(
        "/games/quick", data={"game": "hexagone", "csrf": csrf_of(lobby)}, follow_redirects=False
    )
    assert r.status_code == 303
    assert next_of(r.headers["location"]) == "/games/new?game=hexagone&against=computer"
    r = club.post("/games/quick", data={"game": "nope", "csrf": csrf_of(lobby)})
    assert r.status_code == 400
