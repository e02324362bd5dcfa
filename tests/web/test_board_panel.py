"""A board drawn larger than the screen pans inside its box on a phone (finger-sized cells);
its side panel (Hexagone's turn, dice and piles) must show whole however it is panned. In a
block nine cells wide the panel had been set below the cells inside the panned drawing, so
the first die, and the first letters of each line, lay outside the box: a player could not
see which colours the dice had rolled. The panel is now a drawing of its own below the
board, as wide as the box."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from ludoteca.core import get
from tests.web.drawn import panel_out_of_view, pieces_off_cells, small_touch_targets
from tests.web.sizes import context_options

WIDE_SEED = 11
"""A seed whose start block is nine cells wide (8.5 cell widths between its outer centres,
the widest of the first sixty seeds)."""


def wide_block() -> str:
    state = get("hexagone", players=2).new_state(WIDE_SEED)
    across = [(c >> 16) + (c & 0xFFFF) / 2 for c in state.cells]
    assert max(across) - min(across) == 8.5
    state.play("roll RO")  # the dice are on the table: the panel shows them
    return state.position()


@pytest.mark.parametrize(
    ("size", "theme", "lang"),
    [("phone", "light", "ja"), ("phone", "dark", "de"), ("desktop", "light", "en")],
)
def test_a_panned_boards_panel_shows_whole(server, browser, tmp_path, size, theme, lang):
    context = browser.new_context(**context_options(size, theme, lang))
    page = context.new_page()
    try:
        query = urlencode({"position": wide_block(), "players": 2, "lang": lang})
        page.goto(f"{server.base}/analysis/hexagone?{query}")
        page.wait_for_selector("#board svg .cell[data-cell]")
        if size == "phone":  # the cells drawn larger for fingers, the panel below them
            page.wait_for_selector("#board.zoomed svg.board-panel")
        else:
            assert page.locator("#board.zoomed, #board svg.board-panel").count() == 0
        dice = page.locator(".board-box g.panel .die")
        assert dice.count() == 2
        for pan in (None, 0, 10_000):  # as first shown, panned to the left and to the right
            if pan is not None:
                page.evaluate("x => { document.getElementById('board').scrollLeft = x; }", pan)
            assert panel_out_of_view(page) == []
            assert pieces_off_cells(page) == []
        if size == "phone":
            assert small_touch_targets(page, "#board .cell[data-cell]") == []
            page.locator("#board").scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / f"board-panel-{size}-{theme}-{lang}.png"))
    finally:
        context.close()
