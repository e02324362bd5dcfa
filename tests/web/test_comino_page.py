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


def test_remove_tile_appears_when_nothing_fits(browser, club):
    state, offered = removal_position()
    context, page = mounted(browser, club, a_view(state, offered))
    mover = str(state.to_move + 1)
    assert page.locator("#remove-tile").is_hidden()  # nothing picked yet
    removable = offered[0]["tile"]
    lower_half(
        page, page.locator(f'#board g.rack-tile[data-player="{mover}"][data-tile="{removable}"]')
    )
    assert page.locator("#remove-tile").is_visible()
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
