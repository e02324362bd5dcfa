"""The web club in a real headless Chromium, against a real server on loopback: register,
create and join, play by clicking, play the computer, replay. Each flow ends with a
screenshot checked for the board."""

from __future__ import annotations

import itertools
import random

import pytest

from ludoteca.web.round.view import COMPACT_OVER
from tests.web.browser import (
    check_screenshot,
    click_cell,
    create,
    legal_moves,
    register_in_browser,
    wait_my_turn_or_end,
    wait_ply_change,
)
from tests.web.helpers import Server, started_club
from tests.web.pointer_play import server_view

_names = itertools.count(1)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "browser", toy=False)
    yield srv
    srv.kill()


def new_user(browser, base: str, prefix: str):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    name = f"{prefix}{next(_names)}"
    register_in_browser(page, base, name)
    return context, page, name


def my_turn(page) -> bool:
    return "your-turn" in (page.get_attribute("#status", "class") or "")


def test_kuniumi_two_people_play_to_the_end_by_clicking(browser, club, tmp_path):
    ctx_a, a, name_a = new_user(browser, club.base, "ku")
    ctx_b, b, name_b = new_user(browser, club.base, "ku")
    pk = create(a, club.base, "kuniumi", [("me", ""), ("open", "")])
    b.goto(club.base + "/")
    b.locator(f'[data-game-id="{pk}"] button.join').click()
    b.wait_for_selector("#play[data-synced='1']")
    a.wait_for_function("() => document.getElementById('play').dataset.status === 'active'")
    a.wait_for_selector("#controls .hint")
    assert "Earth God" in a.inner_text("#controls")  # set-up starts with the Earth God
    rng = random.Random(5)
    pages = {name_a: a, name_b: b}
    for _ in range(60):
        if a.get_attribute("#play", "data-status") == "finished":
            break
        mover = a if my_turn(a) else b
        if not my_turn(mover):
            wait_my_turn_or_end(mover)
            continue
        ply = mover.get_attribute("#play", "data-ply")
        move = rng.choice(legal_moves(mover))
        if move.startswith("choose"):
            mover.locator(f'.choices .move-choice[data-move="{move}"]').first.click()
        elif "-" in move:  # god's origin, then a highlighted destination
            origin, dest = move.split("-")
            click_cell(mover, origin)
            assert mover.locator(f'#board [data-cell="{dest}"].cell.target').count() == 1
            click_cell(mover, dest)
        else:  # a set-up placement, E@c3
            click_cell(mover, move.split("@")[1])
        wait_ply_change(mover, ply)
        other = b if mover is a else a
        wait_ply_change(other, ply)
    for p in pages.values():
        p.wait_for_function("() => document.getElementById('play').dataset.status === 'finished'")
        assert "Winner" in p.inner_text("#status") or "Draw" in p.inner_text("#status")
    check_screenshot(a, tmp_path / "kuniumi.png")
    # and the replay
    a.goto(f"{club.base}/games/{pk}/replay")
    a.wait_for_function("() => document.getElementById('replay').dataset.ply === '0'")
    a.click("#next")
    a.wait_for_function("() => document.getElementById('replay').dataset.ply === '1'")
    a.keyboard.press("ArrowRight")
    a.wait_for_function("() => document.getElementById('replay').dataset.ply === '2'")
    a.keyboard.press("ArrowLeft")
    a.wait_for_function("() => document.getElementById('replay').dataset.ply === '1'")
    a.click("#last")
    total = a.get_attribute("#replay", "data-total")
    a.wait_for_function(f"() => document.getElementById('replay').dataset.ply === '{total}'")
    assert a.input_value("#position").endswith(tuple(["land", "sea", "play"])) or a.input_value(
        "#position"
    )
    assert a.locator("#board svg.board").count() == 1
    check_screenshot(a, tmp_path / "kuniumi-replay.png")
    ctx_a.close()
    ctx_b.close()


def engine_state(club, pk: int):
    """The server's current state of a game, read from its database (the test's referee)."""
    from ludoteca.web.infra.store import Store
    from ludoteca.web.round.service import GameService

    store = Store(club.url, migrate_schema=False)
    try:
        return GameService(store).state(pk)[1]
    finally:
        store.dispose()


def tile_name(tile: str) -> str:
    return min(tile[i:] + tile[:i] for i in range(4))


def test_comino_rotate_by_corners_and_drop(browser, club, tmp_path):
    ctx, page, _ = new_user(browser, club.base, "co")
    create(page, club.base, "comino", [("me", ""), ("bot", "random")])
    page.wait_for_function(
        "() => document.getElementById('status').classList.contains('your-turn')"
    )
    moves = [m for m in legal_moves(page) if "@" in m]
    # A placement whose orientation is not the tile's name: the tile must be turned first.
    move = next(m for m in moves if m.split("@")[0] != tile_name(m.split("@")[0]))
    orient, cell = move.split("@")
    tile = page.locator(f'#board g.rack-tile[data-player="1"][data-tile="{tile_name(orient)}"]')
    box = tile.locator("rect").last.bounding_box()
    for _ in range(4):
        if tile.get_attribute("data-orientation") == orient:
            break
        page.mouse.click(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15)
    assert tile.get_attribute("data-orientation") == orient
    # and the other corner turns it back the other way
    page.mouse.click(box["x"] + box["width"] * 0.15, box["y"] + box["height"] * 0.15)
    assert tile.get_attribute("data-orientation") != orient
    page.mouse.click(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15)
    assert tile.get_attribute("data-orientation") == orient
    ply = page.get_attribute("#play", "data-ply")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)  # pick up
    assert page.locator(f'#board [data-cell="{cell}"].cell.target').count() == 1
    click_cell(page, cell)
    wait_ply_change(page, ply)
    assert move in page.inner_text("#movelist")
    check_screenshot(page, tmp_path / "comino.png")
    ctx.close()


def test_comino_drag_a_tile_onto_a_square(browser, club):
    """Press on a rack tile's lower half, move, release over a highlighted square: the tile
    is placed, and no text is selected on the way."""
    ctx, page, _ = new_user(browser, club.base, "cd")
    create(page, club.base, "comino", [("me", ""), ("bot", "random")])
    page.wait_for_function(
        "() => document.getElementById('status').classList.contains('your-turn')"
    )
    move = next(m for m in legal_moves(page) if "@" in m)
    orient, cell = move.split("@")
    tile = page.locator(f'#board g.rack-tile[data-player="1"][data-tile="{tile_name(orient)}"]')
    box = tile.locator("rect").last.bounding_box()
    for _ in range(4):  # turned to the move's orientation first (top-right corner: clockwise)
        if tile.get_attribute("data-orientation") == orient:
            break
        page.mouse.click(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15)
    assert tile.get_attribute("data-orientation") == orient
    target = page.locator(f'#board [data-cell="{cell}"].cell').first.bounding_box()
    ply = page.get_attribute("#play", "data-ply")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
    page.mouse.down()
    page.mouse.move(target["x"] + 2, target["y"] + 2, steps=4)
    assert page.locator(f'#board [data-cell="{cell}"].cell.target').count() == 1
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    assert page.evaluate("() => String(window.getSelection())") == ""
    page.mouse.up()
    wait_ply_change(page, ply)
    assert move in page.inner_text("#movelist")
    ctx.close()


def test_a_game_brings_its_page_module_and_the_club_names_none(club):
    """Comino's page code is served from its own package; a game without one gets a 404."""
    import httpx

    from ludoteca.web.round.assets import page_module

    r = httpx.get(f"{club.base}/play-modules/comino.js")
    assert r.status_code == 200 and "export default function" in r.text
    assert r.headers["content-type"].startswith("text/javascript")
    assert page_module("comino").parent.name == "comino"
    for missing in ("kuniumi", "no-such-game", "..%2Fapp"):
        assert httpx.get(f"{club.base}/play-modules/{missing}.js").status_code == 404


def test_hexagone_solo_roll_swap_capture(browser, club, tmp_path):
    ctx, page, _ = new_user(browser, club.base, "hx")
    # The dice decide whether a capture can be made at all: a game that ends without one
    # is followed by another (three at most), so the check does not hang on one deal.
    captured = False
    for _game in range(3):
        pk = create(page, club.base, "hexagone", [("me", "")], players=1)
        page.wait_for_function(
            "() => document.getElementById('status').classList.contains('your-turn')"
        )
        assert page.locator("#board .dice .die").count() == 2  # the roll is shown
        for _ in range(15):
            if page.get_attribute("#play", "data-status") == "finished":
                break
            state = engine_state(club, pk)
            legal = legal_moves(page)
            assert sorted(legal) == sorted(state.move_to_str(m) for m in state.legal_moves())
            choice = None
            for text in legal:
                if text.startswith("swap"):
                    probe = state.clone()
                    probe.play(text)
                    if probe.scores() and probe.scores()[0] > (state.scores() or [0])[0]:
                        choice = text
                        break
            if choice is None:
                choice = next((t for t in legal if t.startswith("swap")), legal[0])
            ply = page.get_attribute("#play", "data-ply")
            if choice.startswith("swap"):
                _, c1, c2 = choice.split()
                click_cell(page, c1)
                click_cell(page, c2)
            else:
                page.locator(f'.choices .move-choice[data-move="{choice}"]').first.click()
            wait_ply_change(page, ply)
            after = engine_state(club, pk)
            if after.scores() and after.scores()[0] > 0:
                captured = True
                break
        if captured:
            break
    assert captured, "no capture within 15 rolls in any of three games"
    check_screenshot(page, tmp_path / "hexagone.png")
    ctx.close()


def test_comune_against_the_computer_to_the_end(browser, club, tmp_path):
    ctx, page, name = new_user(browser, club.base, "cm")
    pk = create(page, club.base, "comune", [("me", ""), ("bot", "random")])
    rng = random.Random(3)
    placed = 0
    for turn in range(80):
        wait_my_turn_or_end(page)
        if page.get_attribute("#play", "data-status") == "finished":
            break
        ply = page.get_attribute("#play", "data-ply")
        # The page has the cells to click, not Comune's thousands of turns (the compact
        # form): the test reads the turns from the API to choose one.
        view = server_view(page, pk)
        listed = page.locator(".all-moves .move-choice").count()
        assert listed == (len(view["legal"]) if len(view["legal"]) <= COMPACT_OVER else 1)
        singles = [m["text"] for m in view["legal"] if len(m["cells"]) == 1]
        if turn < 4 and singles:
            cell = rng.choice(singles)[:-1]
            click_cell(page, cell)
            page.wait_for_selector("#picker > .choices .move-choice:not(.plain)")
            choices = page.locator("#picker > .choices .move-choice:not(.plain)")
            assert choices.count() >= 1  # the angles it may take, asked of the server
            page.keyboard.press(" ")  # cycle the angle with a key ...
            page.keyboard.press("Enter")  # ... and play it
            placed += 1
        else:
            # Pass is offered once, in words (it was both a Pass button and a `pass` one).
            offered = page.locator('#play [data-move="pass"]:visible')
            assert offered.count() == 1
            assert offered.inner_text() == "Pass"
            offered.click()
        wait_ply_change(page, ply, timeout=20000)
    page.wait_for_function("() => document.getElementById('play').dataset.status === 'finished'")
    status = page.inner_text("#status")
    assert "Winner" in status or "Draw" in status
    if "Winner" in status:  # the result names people, not seats
        assert f"{name} (light)" in status or "computer (random) (dark)" in status, status
    assert placed >= 1
    check_screenshot(page, tmp_path / "comune.png")
    ctx.close()


def test_page_reconnects_by_itself_after_a_server_restart(browser, tmp_path):
    from tests.web.helpers import join, move, page_csrf, view

    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    srv = Server(url, toy=True, log=tmp_path / "server.log").start()
    ctx, page, name = new_user(browser, srv.base, "rc")
    try:
        import httpx

        from tests.web.helpers import register

        pk = create(page, srv.base, "toy", [("me", ""), ("open", "")])
        other = httpx.Client(base_url=srv.base, timeout=20)
        assert register(other, "rc-other").status_code == 303
        join(other, pk)
        page.wait_for_function("() => document.getElementById('play').dataset.live === '1'")
        srv.kill()
        page.wait_for_function("() => document.getElementById('play').dataset.live === '0'")
        srv = Server(url, toy=True, log=tmp_path / "server.log", port=srv.port).start()
        page.wait_for_function(
            "() => document.getElementById('play').dataset.live === '1'", timeout=20000
        )
        v = view(other, pk)
        if not v["your_turn"]:  # the browser's player moves first: click a cell
            ply = page.get_attribute("#play", "data-ply")
            click_cell(page, "b2")
            wait_ply_change(page, ply)
            v = view(other, pk)
        ply = page.get_attribute("#play", "data-ply")
        assert move(other, pk, "a1", csrf=page_csrf(other)).status_code == 200
        wait_ply_change(page, ply)  # told live, over the new connection
        assert "a1" in page.inner_text("#movelist")
        # the other player's move is marked on the board
        assert page.locator('#board [data-cell="a1"].last-move').count() >= 1
        check_screenshot(page, tmp_path / "reconnected.png")
        other.close()
    finally:
        ctx.close()
        srv.kill()
