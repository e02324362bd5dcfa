"""Stepping through a replay: quick presses all count, and the step buttons are drawn icons.

Each step's board is fetched from the server; the page used to count a press from the step
last *shown*, so presses made while a board was on its way were lost (five quick presses
advanced one step)."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.web.helpers import create_game, play_randomly, register, started_club


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory):
    """A real club and a finished Kuniumi game of a person against the random computer."""
    srv = started_club(tmp_path_factory, "replay", toy=False)
    try:
        with httpx.Client(base_url=srv.base, timeout=20) as client:
            assert register(client, "stepper").status_code == 303
            pk = create_game(client, "kuniumi", [("me", ""), ("bot", "random")])
            view = play_randomly(client, pk, random.Random(3))
            assert view["status"] == "finished"
            comino = create_game(client, "comino", [("me", ""), ("bot", "random")])
            assert play_randomly(client, comino, random.Random(4))["status"] == "finished"
            yield srv, pk, view["ply"], comino
    finally:
        srv.kill()


def test_quick_presses_are_never_lost(browser, finished_game):
    srv, pk, total, _ = finished_game
    assert total >= 12
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        for _ in range(10):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '10'")
        for _ in range(5):
            page.click("#next")
        end = min(15, total)  # a random game may be shorter: the last press stops at its end
        page.wait_for_function(
            "p => document.getElementById('replay').dataset.ply === p", arg=str(end)
        )
        for _ in range(3):
            page.click("#prev")
        back = str(end - 3)
        page.wait_for_function("p => document.getElementById('replay').dataset.ply === p", arg=back)
        page.wait_for_timeout(300)  # boards still on their way must not move the page back
        assert page.get_attribute("#replay", "data-ply") == back
        assert page.inner_text("#replay-ply") == back
    finally:
        page.close()


def test_a_step_whose_board_failed_to_arrive_is_asked_for_again(browser, finished_game):
    """A dropped request used to leave the replay on the old move for good: the press was
    lost without a word. The page now asks again while that step is still the one wanted."""
    srv, pk, _, _ = finished_game
    page = browser.new_page()
    failed: list[str] = []

    def drop_first_try(route):
        if not failed:
            failed.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    try:
        page.route(f"**/api/games/{pk}/replay/3", drop_first_try)
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        page.click("#next")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '1'")
        page.click("#next")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '2'")
        page.click("#next")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '3'")
        assert failed, "the first request for step 3 was not dropped"
        assert page.inner_text("#replay-ply") == "3"
    finally:
        page.close()


def test_step_buttons_are_drawn_not_glyphs(browser, finished_game):
    srv, pk, _, _ = finished_game
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        for button in ("first", "prev", "next", "last"):
            locator = page.locator(f"#{button}")
            assert locator.locator("svg path").count() == 1, button
            assert locator.inner_text().strip() == "", button  # no character to miss a glyph
            assert locator.get_attribute("aria-label"), button
            box = locator.bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44, (button, box)
    finally:
        page.close()


def test_the_deal_is_one_step_in_the_replay_and_one_line_in_the_move_list(browser, finished_game):
    """Comino's 21 deal draws took 21 presses (and 21 lines) before the first real move."""
    srv, _, _, pk = finished_game
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        first = page.locator("#replay-moves li").first
        assert "The tiles were dealt" in first.inner_text()
        assert "21 draws" in first.locator(".notation").inner_text()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '21'")
        assert page.inner_text("#replay-ply") == "0"  # the deal is no one's move
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '22'")
        assert page.inner_text("#replay-ply") == "1"  # the first placement is move 1
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '22'")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        # the game's own page lists the deal on one line too
        page.goto(f"{srv.base}/games/{pk}")
        page.wait_for_selector("#movelist li")
        chance = page.locator("#movelist li.chance")
        assert chance.count() == 1 and "21 draws" in chance.first.inner_text()
    finally:
        page.close()


def test_the_slider_steps_and_the_last_move_is_marked(browser, finished_game):
    srv, pk, _, _ = finished_game
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        assert page.locator("#board .last-move").count() == 0  # the start: no move yet
        k = next(  # a step whose move names cells (a "choose land" names none)
            k
            for k in range(7, 12)
            if httpx.get(f"{srv.base}/api/games/{pk}/replay/{k}").json()["last_cells"]
        )
        page.eval_on_selector(
            "#replay-slider",
            "(s, k) => { s.value = String(k); s.dispatchEvent(new Event('input')); }",
            k,
        )
        page.wait_for_function(f"() => document.getElementById('replay').dataset.ply === '{k}'")
        assert page.inner_text("#replay-ply") == str(k)
        step = httpx.get(f"{srv.base}/api/games/{pk}/replay/{k}").json()
        marked = page.eval_on_selector_all(
            "#board .last-move[data-cell]", "els => [...new Set(els.map(e => e.dataset.cell))]"
        )
        assert set(step["last_cells"]) <= set(marked)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"() => document.getElementById('replay-slider').value === '{k + 1}'"
        )
    finally:
        page.close()


def test_the_log_tells_each_move_in_words_by_name_and_opens_it(browser, finished_game):
    """Issue 41, defect 9: the replay's list was bare notation (``E@c3``, ``table: 21
    draws``); it is now a log in words, who did what by name, each entry opening its move."""
    srv, pk, total, comino = finished_game
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        entries = page.locator("[data-game-log] > li[data-ply]")
        assert entries.count() == total
        words = entries.locator(".words").all_inner_texts()
        assert words[0].startswith("stepper placed the Earth God on ")
        assert words[6].startswith("computer (random) chose to play ")
        assert "the closed group" in words[-1] or "no legal move" in words[-1]
        # a three-digit move number keeps its room inside the log (list markers were clipped)
        clipped = page.evaluate(
            """() => {
                const log = document.querySelector('[data-game-log]');
                const num = log.querySelector('li .num');
                num.textContent = '123';
                const a = num.getBoundingClientRect(), b = log.getBoundingClientRect();
                return num.scrollWidth > num.clientWidth + 1 || a.left < b.left;
            }"""
        )
        assert not clipped
        entries.nth(4).locator("a").click()
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '5'")
        assert "current" in (entries.nth(4).get_attribute("class") or "")
        # the game's own page keeps the same log, in words, each entry a link to its move
        page.goto(f"{srv.base}/games/{comino}")
        page.wait_for_selector("[data-game-log] li[data-ply]")
        log = page.locator("[data-game-log] > li[data-ply]")
        assert "The tiles were dealt" in log.first.inner_text()
        second = log.nth(1)
        assert second.locator(".words").inner_text().startswith("stepper placed ")
        assert second.locator("a").get_attribute("href").endswith("/replay?ply=22")
    finally:
        page.close()


def test_the_address_follows_the_replay_and_opens_at_its_move(browser, finished_game):
    """Issue 41, defect 10: stepping left the address as it was, so no link could show a
    move; and keys typed in the position box stepped the replay instead of the caret."""
    srv, pk, _, _ = finished_game
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}/replay")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
        for _ in range(3):
            page.click("#next")
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '3'")
        page.wait_for_function("() => location.search === '?ply=3'")
        link = page.url
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_function("() => document.getElementById('replay').dataset.ply === '3'")
        assert page.inner_text("#replay-ply") == "3"
        # arrows in the position box move its caret, not the replay
        box = page.locator("#position")
        box.click()
        box.evaluate("b => b.setSelectionRange(0, 0)")
        for key in ("ArrowRight", "ArrowRight", "End", "ArrowLeft"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)
        assert page.get_attribute("#replay", "data-ply") == "3"
        assert box.evaluate("b => b.selectionStart") > 0
    finally:
        page.close()


def test_comino_analysis_board_plays_tiles_as_the_game_page_does(browser, finished_game):
    """Issue 41, defect 11: Comino's analysis board listed notation buttons and had none of
    the game page's tiles; its rack tiles are now picked up and dropped on a square."""
    srv, _, _, comino = finished_game
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{srv.base}/analysis/comino?game={comino}&ply=24")
        page.wait_for_selector("#board svg g.rack-tile")
        before = page.get_attribute("#analysis", "data-position")
        to_move = "2" if before.split()[-1] == "2" else "1"
        tiles = page.locator(f'#board g.rack-tile[data-player="{to_move}"]')
        found = False
        # The deal is random: some tile, in some orientation, fits somewhere. Pick each tile
        # up in turn and turn it until a square is offered.
        for index in range(tiles.count()):
            box = tiles.nth(index).bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
            page.wait_for_function("() => document.querySelector('#board g.rack-tile.selected')")
            assert page.locator("#choices [data-move*='@']").count() == 0  # no notation list
            for _ in range(4):
                if page.locator("#board [data-cell].cell.target").count():
                    found = True
                    break
                page.click("#turn-right")  # the page marks the squares in the click itself
            if found:
                break
            # Put it down again: a click on another tile of the same rack while one is held
            # swaps the two (the rack's rearranging), and picks nothing up.
            selected = page.locator("#board g.rack-tile.selected")
            box = selected.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
            page.wait_for_function("() => !document.querySelector('#board g.rack-tile.selected')")
        assert found, "no tile of the player to move fits anywhere"
        target = page.locator("#board [data-cell].cell.target").first
        target.click()
        page.wait_for_function(
            "p => document.getElementById('analysis').dataset.position !== p", arg=before
        )
        assert page.locator("#back").is_enabled()
    finally:
        page.close()


def test_the_game_page_log_looks_back_at_a_move_while_the_game_goes_on(browser, finished_game):
    """Issue 41, defect 9: the game page's log is in words and each entry shows its move,
    also during the game (its board, then back to the game as it is)."""
    srv = finished_game[0]
    client = httpx.Client(base_url=srv.base, timeout=20)
    assert register(client, "looker").status_code == 303
    pk = create_game(client, "kuniumi", [("me", ""), ("bot", "random")])
    view = play_randomly(client, pk, random.Random(5), moves=3)
    page = browser.new_page()
    try:
        page.goto(f"{srv.base}/games/{pk}")
        page.wait_for_selector("[data-game-log] > li[data-ply]")
        log = page.locator("[data-game-log] > li[data-ply]")
        assert log.count() == view["ply"]
        assert log.first.locator(".words").inner_text().startswith("looker placed the Earth God")
        log.first.locator("a").click()
        page.wait_for_selector("#look-back:not([hidden])")
        page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 1")
        page.click("#look-back-return")
        page.wait_for_selector("#look-back", state="hidden")
        assert page.locator("#board .piece").count() == view["ply"]
        # a move made now reaches the log live, in words
        play_randomly(client, pk, random.Random(6), moves=1)
        page.wait_for_function(
            "n => document.querySelectorAll('[data-game-log] > li').length > n", arg=view["ply"]
        )
        assert log.last.locator(".words").inner_text().startswith("looker placed ")
    finally:
        page.close()
        client.close()
