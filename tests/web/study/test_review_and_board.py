"""Against a real server: a review of a finished game of each two-player game gives a curve
and marks; a move that throws away a win in one is marked a blunder; reviews are refused
for games in progress and limited per person; the analysis board, from a replay step, shows
a best line and win probabilities, plays a move, and shares the position by link."""

from __future__ import annotations

import itertools
import random
import time
from urllib.parse import urlencode

import httpx
import pytest

from tests.web.browser import register_in_browser
from tests.web.helpers import (
    Server,
    create_game,
    join,
    member,
    move,
    page_csrf,
    play_randomly,
    view,
)

_names = itertools.count(1)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("study")
    srv = Server(
        f"sqlite:///{tmp / 'club.sqlite3'}",
        log=tmp / "server.log",
        env={"LUDOTECA_REVIEW_ITERATIONS": "60"},
    ).start()
    yield srv
    srv.kill()


def person(club) -> httpx.Client:
    return member(club.base, f"st{next(_names)}")


def ask_review(client, pk: int):
    return client.post(
        f"/games/{pk}/review", data={"csrf": page_csrf(client)}, follow_redirects=False
    )


def wait_review(client, pk: int, seconds: float = 240) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data = client.get(f"/api/games/{pk}/review").json()
        if data["status"] in ("done", "failed"):
            return data
        time.sleep(0.3)
    raise AssertionError(f"review of {pk} not done: {data}")


def test_a_thrown_win_is_marked_a_blunder(club):
    alice, bob = person(club), person(club)
    pk = create_game(alice, "toy", [("me", ""), ("user", bob.name)])
    join(bob, pk)
    first = alice if view(alice, pk)["your_turn"] else bob
    second = bob if first is alice else alice
    for who, cell in ((first, "a1"), (second, "b1"), (first, "a2"), (second, "b2")):
        assert move(who, pk, cell).status_code == 200
    assert move(first, pk, "c3").status_code == 200  # a3 wins at once; c3 throws it away
    assert move(second, pk, "b3").status_code == 200  # and the other side takes it
    assert view(alice, pk)["status"] == "finished"
    assert ask_review(alice, pk).status_code == 303
    data = wait_review(alice, pk)
    assert data["status"] == "done", data
    assert len(data["values"]) == view(alice, pk)["ply"] + 1
    thrown = [m for m in data["marks"] if m["move"] == "c3"]
    assert thrown and thrown[0]["kind"] == "blunder", data["marks"]
    assert "<svg" in data["svg"] and 'data-ply="' in data["svg"]
    # the mark's "find the better move" (replay.js's link): the position before it, to solve
    before = thrown[0]["ply"] - 1
    found = alice.get(f"/analysis/toy?game={pk}&ply={before}&find=c3", follow_redirects=True)
    assert found.status_code == 200 and "in the game, c3 was played" in found.text
    assert 'id="find" data-played="c3"' in found.text


@pytest.mark.parametrize("game", ["comune", "comino", "kuniumi", "hexagone"])
def test_a_review_of_each_two_player_game(club, game):
    player = person(club)
    pk = create_game(
        player, game, [("me", ""), ("bot", "random")], players=2 if game == "hexagone" else None
    )
    assert play_randomly(player, pk, random.Random(game), seconds=120)["status"] == "finished"
    assert ask_review(player, pk).status_code == 303
    assert ask_review(player, pk).status_code == 303  # asking twice is the same review
    data = wait_review(player, pk)
    assert data["status"] == "done", data
    assert len(data["values"]) == view(player, pk)["ply"] + 1
    assert all(0 <= v <= 1 for vs in data["values"] for v in vs)
    for mark in data["marks"]:
        assert mark["kind"] in ("inaccuracy", "mistake", "blunder") and mark["drop"] >= 0.1


def test_reviews_are_refused_in_play_and_limited(club):
    alice = person(club)
    pk = create_game(alice, "kuniumi", [("me", ""), ("open", "")])
    r = ask_review(alice, pk)
    assert r.status_code == 409 and "over" in r.text
    anon = httpx.post(f"{club.base}/games/{pk}/review")
    assert anon.status_code in (401, 403)
    r = httpx.get(f"{club.base}/analysis/kuniumi", params={"game": pk, "ply": 1})
    assert r.status_code == 409 and "no help during play" in r.text


def test_a_step_of_a_game_opens_on_the_analysis_board_in_the_language_asked_for(club):
    """The step (``?game=&ply=``) is sent on to its position: the ``lang`` asked for was
    dropped on the way, and a member whose setting is English saw the board in English."""
    alice = person(club)
    pk = create_game(alice, "kuniumi", [("me", ""), ("bot", "random")])
    alice.post(f"/games/{pk}/resign", data={"csrf": page_csrf(alice)})
    for lang in ("de", "ja"):
        page = alice.get(
            "/analysis/kuniumi", params={"game": pk, "ply": 0, "lang": lang}, follow_redirects=True
        )
        assert page.status_code == 200 and f'<html lang="{lang}"' in page.text
    alice.close()


def test_the_analysis_board_from_a_replay(browser, club):
    player = person(club)
    pk = create_game(player, "kuniumi", [("me", ""), ("bot", "random")])
    assert play_randomly(player, pk, random.Random(5), seconds=60)["status"] == "finished"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    register_in_browser(page, club.base, f"an{next(_names)}")
    page.goto(f"{club.base}/games/{pk}/replay")
    page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay').dataset.ply === '6'")
    assert "ply=6" in page.get_attribute("#analyse-step", "href")
    page.click("#analyse-step")
    # The board's script writes the position once it has run: read it only then (the click
    # above does not wait for the new page's scripts, and an unset start made the wait
    # below pass at once).
    page.wait_for_function("() => document.getElementById('analysis')?.dataset.position")
    start = page.get_attribute("#analysis", "data-position")
    assert start and start.endswith(" choose")
    page.click("#analyse")
    page.wait_for_function("() => document.getElementById('analysis').dataset.analysed === '1'")
    assert page.locator("#values .value-row").count() == 2
    assert page.inner_text("#pv").strip() not in ("", "—")
    best = page.locator("#top-moves tbody .move-choice").first
    best.click()  # play the computer's first choice on the board
    page.wait_for_function(
        "p => document.getElementById('analysis').dataset.position !== p", arg=start
    )
    shared = page.input_value("#share")
    assert "position=" in shared
    other = context.new_page()
    other.goto(shared)
    other.wait_for_function("() => document.getElementById('analysis').dataset.position")
    assert other.get_attribute("#analysis", "data-position") == page.get_attribute(
        "#analysis", "data-position"
    )
    context.close()


def test_the_analysis_board_plays_a_move_from_the_compact_form(browser, club, tmp_path):
    """A Comune position with 9403 turns comes compact: the first click asks for the cell's
    moves, and clicking on through the targets plays one."""
    position = "5/6/7/8/7H1/8/7/6/5 D 0"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{club.base}/analysis/comune?" + urlencode({"position": position}))
    page.wait_for_function("() => document.getElementById('analysis')?.dataset.position")
    assert page.locator("#choices .move-choice").all_inner_texts() == ["Pass"]
    clicked = []
    for _ in range(6):  # through the cells only: the compact form's moves on demand
        if page.get_attribute("#analysis", "data-position") != position:
            break
        target = page.locator("#board .cell.target").first
        clicked.append(target.get_attribute("data-cell"))
        target.click()
        page.wait_for_timeout(300)
        choice = page.locator("#choices .move-choice")
        if clicked and choice.count() and choice.first.inner_text() != "Pass":
            choice.first.click()
            page.wait_for_timeout(300)
    after = page.get_attribute("#analysis", "data-position")
    assert after and after != position, clicked
    assert "passed" not in page.inner_text("#hint")
    page.screenshot(path=str(tmp_path / "analysis-compact.png"))
    page.close()
