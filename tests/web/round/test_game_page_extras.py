"""The game page beyond clicks: drawings of the moves a click leaves (Comune's angles, drawn
by the engine), play by keyboard (Tab to a playable cell, Enter), the move sound setting
kept by the browser, and the preview API's refusals."""

from __future__ import annotations

import httpx
import pytest

from ludoteca.web.round.view import COMPACT_OVER
from tests.web.browser import AGAINST_RANDOM, create, register_in_browser, wait_my_turn_or_end
from tests.web.helpers import create_game, member, move, page_csrf, started_club, view
from tests.web.pointer_play import cell_box, centre


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "extras", toy=False)
    yield srv
    srv.kill()


def new_page(browser, club, name: str):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    register_in_browser(page, club.base, name)
    return context, page


def start(page, base: str, game: str) -> int:
    """A game against the random computer, once it is this person's turn."""
    pk = create(page, base, game, AGAINST_RANDOM)
    wait_my_turn_or_end(page)
    return pk


def test_comune_angles_are_offered_as_drawings(browser, club):
    context, page = new_page(browser, club, "angles")
    start(page, club.base, "comune")
    page.mouse.click(*centre(cell_box(page, "e5")))
    page.wait_for_selector("#picker .choices[data-previews='1']")
    pictured = page.locator("#picker .choices .move-choice.pictured")
    assert pictured.count() == 3  # the three angles, each drawn
    assert page.locator("#picker .move-choice.pictured .preview svg").count() == 3
    # Undoing the click is offered, but not drawn as the page's main action (the Resign
    # button shows how one is drawn).
    clear, main = page.evaluate(
        """() => [document.querySelector('#picker button.clear'), document.getElementById('resign')]
            .map(b => getComputedStyle(b).backgroundColor)"""
    )
    assert clear != main, (clear, main)
    ply = page.get_attribute("#play", "data-ply")
    pictured.nth(1).click()
    page.wait_for_function("p => document.getElementById('play').dataset.ply !== p", arg=ply)
    context.close()


def test_a_move_by_keyboard_alone(browser, club):
    context, page = new_page(browser, club, "keys")
    start(page, club.base, "kuniumi")  # the set-up: one square places the Earth God
    ply = page.get_attribute("#play", "data-ply")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('#board [data-cell]')"):
            break
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label and label.endswith("playable")
    assert page.evaluate("() => document.activeElement.getAttribute('role')") == "button"
    page.keyboard.press("Enter")
    page.wait_for_function("p => document.getElementById('play').dataset.ply !== p", arg=ply)
    context.close()


def test_the_move_sound_is_a_setting_the_browser_keeps(browser, club):
    context, page = new_page(browser, club, "sound")
    pk = start(page, club.base, "kuniumi")
    assert not page.is_checked("#move-sound")  # off by default
    page.check("#move-sound")
    page.goto(f"{club.base}/games/{pk}")
    assert page.is_checked("#move-sound")
    context.close()


def test_previews_are_for_the_player_to_move_only(club):
    ann, bob = member(club.base, "pv-ann"), member(club.base, "pv-bob")
    pk = create_game(ann, "comune", [("me", ""), ("user", "pv-bob")])
    bob.post(f"/games/{pk}/join", data={"csrf": page_csrf(bob)})
    state = view(ann, pk)
    mover, other = (ann, bob) if state["your_turn"] else (bob, ann)
    moves = [m["text"] for m in view(mover, pk)["legal"][:3]]

    def ask(client, body):
        return client.post(
            f"/api/games/{pk}/preview", json=body, headers={"X-CSRF-Token": page_csrf(client)}
        )

    r = ask(mover, {"moves": moves, "ply": state["ply"]})
    assert r.status_code == 200 and set(r.json()["svgs"]) == set(moves)
    assert all(svg.startswith("<svg") for svg in r.json()["svgs"].values())
    # A page asking about a position the game has left (a move arrived meanwhile) is told so
    # as an ordinary answer, not a failed request the browser logs as an error.
    assert move(mover, pk, moves[0], state["ply"]).status_code == 200
    late = ask(mover, {"moves": moves, "ply": state["ply"]})
    assert late.status_code == 200 and late.json() == {"svgs": {}, "moved_on": True}
    mover, other = other, mover
    state = view(mover, pk)
    assert ask(other, {"moves": moves, "ply": state["ply"]}).status_code == 403
    assert ask(mover, {"moves": moves, "ply": state["ply"] + 1}).status_code == 409
    assert ask(mover, {"moves": ["z9+"], "ply": state["ply"]}).status_code == 400
    assert ask(mover, {"moves": moves * 5, "ply": state["ply"]}).status_code == 400
    assert ask(mover, {"moves": "e5-", "ply": state["ply"]}).status_code == 400
    anon = httpx.post(f"{club.base}/api/games/{pk}/preview", json={"moves": moves})
    assert anon.status_code == 401


def test_letters_on_colours_follow_the_pieces(browser, club):
    context, page = new_page(browser, club, "letters")
    pk = start(page, club.base, "comino")
    assert page.locator("#board text.colour-letter").count() == 0  # off by default
    page.check("#colour-letters")
    page.wait_for_function(
        "() => document.querySelectorAll('#board text.colour-letter').length > 0"
    )
    corners = page.locator("#board rect.corner").count()
    assert page.locator("#board text.colour-letter").count() == corners
    tile = page.locator('#board g.rack-tile[data-player="1"]').first
    texts = "els => els.map(e => e.textContent)"
    before = tile.locator("text.colour-letter").evaluate_all(texts)
    box = tile.locator("rect").last.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.15)  # turn it
    page.wait_for_timeout(200)
    after = tile.locator("text.colour-letter").evaluate_all(texts)
    assert sorted(after) == sorted(before) and len(after) == 4
    follows = tile.locator("rect.corner").evaluate_all(
        "els => els.every(e => e.nextElementSibling.textContent"
        " === e.getAttribute('class').match(/corner-(\\S+)/)[1])"
    )
    assert follows  # each letter names the colour its corner is painted now
    page.goto(f"{club.base}/games/{pk}")
    page.wait_for_selector("#play[data-synced='1']")
    page.wait_for_function(
        "() => document.querySelectorAll('#board text.colour-letter').length > 0"
    )
    assert page.is_checked("#colour-letters")
    context.close()


def test_comino_on_a_phone_has_finger_sized_targets(browser, club):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    register_in_browser(page, club.base, "thumbs")
    start(page, club.base, "comino")
    sizes = page.eval_on_selector_all(
        '#board g.rack-tile[data-player="1"]',
        "els => els.map(e => { const b = e.getBoundingClientRect(); return [b.width, b.height]; })",
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    # The board's squares are not tiny beside the rack's tiles (once 27 px beside 52).
    square = page.locator("#board rect.cell").first.bounding_box()
    assert square["width"] >= 0.8 * min(w for w, _ in sizes), (square, sizes)
    # Nor does the prompt ask a finger to click corners (a tap picks a tile up).
    hint = page.inner_text("#controls .hint")
    assert "tap" in hint.lower() and "click" not in hint.lower(), hint
    assert page.locator("#thinking").is_hidden()  # the player's own turn
    tile = page.locator('#board g.rack-tile[data-player="1"]').first
    tile.scroll_into_view_if_needed()
    box = tile.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.2)
    assert "selected" in tile.get_attribute("class")  # a tap on a corner picks it up
    for button in ("#turn-left", "#turn-right"):  # wholly on the screen, where a thumb is
        b = page.locator(button).bounding_box()
        assert b["y"] >= 0 and b["y"] + b["height"] <= 844, (button, b)
    for button in ("#turn-left", "#turn-right", "#resign"):
        b = page.locator(button).bounding_box()
        assert b["width"] >= 44 and b["height"] >= 44, (button, b)
    before = tile.get_attribute("data-orientation")
    page.locator("#turn-right").tap()
    page.locator("#turn-left").tap()
    assert tile.get_attribute("data-orientation") == before
    context.close()


def test_comino_tiles_show_their_three_arrows_under_the_mouse(browser, club):
    context, page = new_page(browser, club, "arrows")
    start(page, club.base, "comino")
    tile = page.locator('#board g.rack-tile[data-player="1"]').first
    arrows = tile.locator(".hover-arrows")
    kinds = arrows.locator("path").evaluate_all(
        "els => [...new Set(els.map(e => e.getAttribute('class')))]"
    )
    assert kinds == ["arrow anticlockwise", "arrow clockwise", "arrow move"]
    assert arrows.evaluate("e => getComputedStyle(e).display") == "none"
    box = tile.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#board g.rack-tile .hover-arrows')]"
        ".some(e => getComputedStyle(e).display !== 'none')"
    )
    # The arrows take no clicks: a corner under them still turns a tile.
    turned = False
    for one in page.locator('#board g.rack-tile[data-player="1"]').all():
        before = one.get_attribute("data-orientation")
        b = one.bounding_box()
        page.mouse.click(b["x"] + b["width"] * 0.85, b["y"] + b["height"] * 0.15)
        if one.get_attribute("data-orientation") != before:
            turned = True
            break
    assert turned
    context.close()


def test_thousands_of_turns_are_sent_compact_and_a_cells_moves_on_demand(club):
    """Comune's second player chooses among thousands of turns: a page asking for the compact
    form gets the cells to click and the pass, and each clicked cell's moves when asked;
    programs reading the API still get every move."""
    ann, bob = member(club.base, "cp-ann"), member(club.base, "cp-bob")
    pk = create_game(ann, "comune", [("me", ""), ("user", "cp-bob")])
    bob.post(f"/games/{pk}/join", data={"csrf": page_csrf(bob)})
    first = view(ann, pk)
    mover, other = (ann, bob) if first["your_turn"] else (bob, ann)
    opening = next(m for m in first["legal"] if m["cells"] == ["e5"]) if mover is ann else None
    if opening is None:
        opening = next(m for m in view(mover, pk)["legal"] if m["cells"] == ["e5"])
    move(mover, pk, opening["text"], first["ply"])
    mover, other = other, mover
    full = view(mover, pk)["legal"]
    assert len(full) > COMPACT_OVER
    whole = mover.get(f"/api/games/{pk}")
    compact = mover.get(f"/api/games/{pk}?compact=1")
    data = compact.json()
    assert data["legal_partial"] is True and data["legal_count"] == len(full)
    assert [m["text"] for m in data["legal"]] == ["pass"]
    assert data["targets"] == sorted({c for m in full for c in m["cells"]})
    assert "e5" not in data["targets"]
    assert len(compact.content) * 10 < len(whole.content), (
        len(compact.content),
        len(whole.content),
    )

    asked = mover.get(f"/api/games/{pk}/moves", params={"cell": "d4"}).json()
    assert asked["ply"] == data["ply"]
    assert {m["text"] for m in asked["moves"]} == {m["text"] for m in full if "d4" in m["cells"]}
    assert other.get(f"/api/games/{pk}/moves", params={"cell": "d4"}).status_code == 409
    assert mover.get(f"/api/games/{pk}/moves").status_code == 400
    assert httpx.get(f"{club.base}/api/games/{pk}/moves?cell=d4").status_code == 409


def test_the_computer_is_seen_thinking_on_its_turn(browser, club):
    """The computer's turn can take seconds: the page says it is thinking (as a status that
    screen readers announce), in sight under the turn's line (and not on the player's own
    turn: see the phone test above)."""
    context, page = new_page(browser, club, "waits")
    create(page, club.base, "comune", [("bot", "master"), ("me", "")])  # four seconds a move
    thinking = page.locator("#thinking")
    assert thinking.is_visible()
    assert thinking.get_attribute("role") == "status"
    assert "thinking" in thinking.inner_text()
    box, status = thinking.bounding_box(), page.locator("#status").bounding_box()
    assert 0 <= box["y"] <= 800 and box["y"] >= status["y"] + status["height"] - 1
    context.close()


def test_the_side_of_a_game_page_as_a_player_sees_it(browser, club):
    """A game against the computer one click from the lobby; the game's name is the page's
    one heading; each checkbox stands on the first line of its own words; and a game ending
    before the player's eyes is not announced again in a notice over the page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    register_in_browser(page, club.base, "sides")
    page.goto(club.base + "/")
    page.click('.game-card[data-game="kuniumi"] button.quick')  # Play the computer
    page.wait_for_selector("#play[data-synced='1']")
    wait_my_turn_or_end(page)
    assert page.locator("h1").count() == 1 and "Kuniumi" in page.inner_text("h1")
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.side label')]
            .filter(l => l.querySelector('input[type=checkbox]'))
            .map(l => {
                const box = l.querySelector('input').getBoundingClientRect();
                const words = [...l.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
                const range = document.createRange();
                range.selectNodeContents(words);
                const first = range.getClientRects()[0];
                const middle = box.top + box.height / 2;
                return [l.textContent.trim(), first.top <= middle && middle <= first.bottom
                        && box.right <= first.left + 1];
            })"""
    )
    assert len(lines) >= 2 and all(ok for _, ok in lines), lines
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("#play[data-status='finished']")
    # A game against the computer adds no bell entry when it ends, so nothing arrives to
    # cover the page: after a moment there is still no notice and the bell is quiet.
    page.wait_for_timeout(1500)
    assert page.locator(".toast").count() == 0
    assert page.locator("#bell-count").is_hidden()
    assert page.locator("#replay-link").is_visible()
    context.close()
