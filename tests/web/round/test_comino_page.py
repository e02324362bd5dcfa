"""Comino's page module on positions a random game rarely reaches in a test: a turn where no
tile fits anywhere (only *Remove tile* is possible), and rearranging a rack. The engine gives
the position (found by a seeded random game), the view is made as the club makes it, and the
module is loaded from the club and driven by pointer in Chromium."""

from __future__ import annotations

import json
import random

import pytest

from ludoteca.core.registry import get
from ludoteca.web.round.view import board_svg, offered_move, ui_hints
from tests.web.helpers import started_club


def removal_position():
    """The first position of seeded random games where every legal move is a removal."""
    game = get("comino")
    for seed in range(400):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over:
            if state.to_move < 0:
                state.play(rng.choice(state.legal_moves()))
                continue
            offered = [offered_move(state, m) for m in state.legal_moves()]
            if offered and all(o.get("remove") for o in offered):
                return state, offered
            state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no removal position in 400 random games")


def a_view(state, offered) -> dict:
    return {
        "to_move": state.to_move,
        "your_turn": True,
        "legal": offered,
        "hints": ui_hints(state),
        "svg": board_svg(state),
    }


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "comino-page", toy=False)
    yield srv
    srv.kill()


MOUNT = """async (view) => {
    const mod = await import('/play-modules/comino.js');
    document.body.innerHTML = '<div id="board" class="board-box"></div>'
        + '<div id="controls"></div><p id="msg"></p>';
    const boardBox = document.getElementById('board');
    boardBox.innerHTML = view.svg;
    if (view.hints.prompt) {  // as the game page puts it
        const hint = document.createElement('p');
        hint.className = 'hint';
        hint.textContent = view.hints.prompt;
        document.getElementById('controls').append(hint);
    }
    window.sent = [];
    const el = (tag, attrs = {}, text = '') => {
        const n = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
        if (text) n.textContent = text;
        return n;
    };
    const ctx = { boardBox, controls: document.getElementById('controls'), el,
        sendMove: (t) => window.sent.push(t),
        showMessage: (t) => { document.getElementById('msg').textContent = t; } };
    const it = mod.default(view, ctx);
    boardBox.addEventListener('click', (e) => it.click(e));
}"""


def mounted(browser, club, view):
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.goto(club.base + "/rules")
    page.evaluate(MOUNT, json.loads(json.dumps(view)))
    page.wait_for_selector("#board g.rack-tile")
    return context, page


def lower_half(page, tile):
    box = tile.locator("rect").last.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)


def in_window(page, selector: str) -> bool:
    """Whether the element is drawn wholly inside the window (not only in the DOM)."""
    return page.evaluate(
        """s => { const b = document.querySelector(s).getBoundingClientRect();
                  return b.width > 0 && b.top >= 0 && b.left >= 0
                      && b.bottom <= innerHeight && b.right <= innerWidth; }""",
        selector,
    )


def test_remove_tile_appears_when_nothing_fits(browser, club):
    state, offered = removal_position()
    view = a_view(state, offered)
    assert str(view["hints"]["prompt"]) == (
        "None of your tiles fits: pick one and press Remove tile."
    )
    assert view["hints"]["prompt_touch"] == view["hints"]["prompt"]
    context, page = mounted(browser, club, view)
    mover = str(state.to_move + 1)
    # Said, with its button in sight, before any tile is picked (pressing it then does nothing).
    assert page.locator("#remove-tile").is_visible()
    assert page.locator("#remove-tile").is_disabled()
    assert page.locator(".tile-actions .hint").inner_text() == str(view["hints"]["prompt"])
    assert in_window(page, "#remove-tile") and in_window(page, ".tile-actions .hint")
    removable = offered[0]["tile"]
    tile = page.locator(f'#board g.rack-tile[data-player="{mover}"][data-tile="{removable}"]')
    tile.scroll_into_view_if_needed()
    lower_half(page, tile)
    assert page.locator("#remove-tile").is_enabled()
    assert in_window(page, "#remove-tile")
    assert page.locator("#board .cell.target").count() == 0  # it fits nowhere
    page.click("#remove-tile")
    assert page.evaluate("() => window.sent") == [offered[0]["text"]]
    context.close()


def test_tiles_are_rearranged_within_a_rack_never_across(browser, club):
    state = get("comino").new_state(seed=3)
    rng = random.Random(3)
    while state.to_move < 0:
        state.play(rng.choice(state.legal_moves()))
    offered = [offered_move(state, m) for m in state.legal_moves()]
    context, page = mounted(browser, club, a_view(state, offered))
    mine = page.locator('#board g.rack-tile[data-player="1"]')
    theirs = page.locator('#board g.rack-tile[data-player="2"]')
    first, second = mine.nth(0), mine.nth(1)
    a, b = first.get_attribute("data-tile"), second.get_attribute("data-tile")
    order = "g => Number(g.dataset.order)"
    lower_half(page, first)
    lower_half(page, second)  # dropped on another tile of the same rack: they swap places
    after = {t.get_attribute("data-tile"): t.evaluate(order) for t in mine.all()}
    assert (after[a], after[b]) == (1, 0)
    their_order = [t.evaluate(order) for t in theirs.all()]
    lower_half(page, mine.nth(0))
    lower_half(page, theirs.nth(0))  # across racks: no swap, the other tile is picked instead
    assert [t.evaluate(order) for t in theirs.all()] == their_order
    assert "selected" in (theirs.nth(0).get_attribute("class") or "")
    assert page.evaluate("() => window.sent") == []
    context.close()


def dealt(seed: int = 3):
    """A game just dealt (the first player to place), as the club would show it."""
    state = get("comino").new_state(seed=seed)
    rng = random.Random(seed)
    while state.to_move < 0:
        state.play(rng.choice(state.legal_moves()))
    return state, [offered_move(state, m) for m in state.legal_moves()]


def test_a_dragged_tile_follows_the_pointer_and_is_put_down_after(browser, club):
    state, offered = dealt()
    context, page = mounted(browser, club, a_view(state, offered))
    mine = page.locator('#board g.rack-tile[data-player="1"]')
    fits = {m["tile"] for m in offered if m["cells"]}
    tile = next(t for t in mine.all() if t.get_attribute("data-tile") in fits)
    # A square where this tile, as it is turned now, does not fit: a covered one.
    covered = page.locator("#board rect.cell:not(.open)").first.bounding_box()
    for step in range(2):
        box = tile.locator("rect").last.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 40, steps=4)
        if step == 1:  # the last drop's complaint is gone as soon as the next drag starts
            assert page.inner_text("#msg") == ""
        ghost = page.locator(".drag-ghost")
        assert ghost.count() == 1  # a picture of the tile under the pointer
        g = ghost.bounding_box()
        px, py = box["x"] + box["width"] / 2, box["y"] - 40
        assert abs(g["x"] + g["width"] / 2 - px) < 2 and abs(g["y"] + g["height"] / 2 - py) < 2
        page.mouse.move(covered["x"] + 5, covered["y"] + 5, steps=4)
        page.mouse.up()
        assert "does not fit" in page.inner_text("#msg")
        assert page.locator(".drag-ghost").count() == 0
        assert page.locator("#board g.rack-tile.selected").count() == 0  # put back down
    # so a click on one tile, then on another, swaps them
    first, second = mine.nth(0), mine.nth(1)
    a, b = first.get_attribute("data-tile"), second.get_attribute("data-tile")
    lower_half(page, first)
    lower_half(page, second)
    order = "g => Number(g.dataset.order)"
    after = {t.get_attribute("data-tile"): t.evaluate(order) for t in mine.all()}
    assert (after[a], after[b]) == (1, 0)
    assert page.evaluate("() => window.sent") == []
    context.close()


def test_a_picked_tile_keeps_its_corners_in_sight(browser, club):
    state, offered = dealt()
    context, page = mounted(browser, club, a_view(state, offered))
    tile = page.locator('#board g.rack-tile[data-player="1"]').first
    lower_half(page, tile)
    assert "selected" in (tile.get_attribute("class") or "")
    strokes = tile.locator("rect.corner").evaluate_all(
        "els => els.map(e => getComputedStyle(e).stroke)"
    )
    assert strokes == ["none"] * 4, strokes  # no frame drawn over the corners' colours
    frame, fills = tile.evaluate(
        """g => [getComputedStyle(g.querySelector(':scope > rect:not(.corner)')).stroke,
                 [...g.querySelectorAll('rect.corner')].map(e => getComputedStyle(e).fill)]"""
    )
    assert frame not in fills and frame != "none"  # the frame is in no tile's colour
    context.close()
