"""Every game, played to its end against the computer with the pointer only, on a desktop
and on a phone (390 × 844, touch): after each computer move the board marks the cells it
named, and the result names the people who played."""

from __future__ import annotations

import itertools
import random

import pytest

from tests.web.browser import AGAINST_RANDOM, create, register_in_browser, wait_my_turn_or_end
from tests.web.helpers import started_club
from tests.web.pointer_play import choose, play, server_view

GAMES = ("comune", "comino", "kuniumi", "hexagone")
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
_names = itertools.count(1)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "pointer", toy=False)
    yield srv
    srv.kill()


@pytest.mark.parametrize("device", list(VIEWPORTS))
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_pointer(browser, club, game, device):
    context = browser.new_context(**VIEWPORTS[device])
    page = context.new_page()
    name = f"pp{next(_names)}"
    register_in_browser(page, club.base, name)
    pk = create(page, club.base, game, AGAINST_RANDOM)
    rng = random.Random(f"{game}-{device}")
    touch = device == "phone"
    computer_moves = 0
    for _ in range(400):
        wait_my_turn_or_end(page, timeout=30000)
        view = server_view(page, pk)
        if view["status"] == "finished":
            break
        if page.get_attribute("#play", "data-ply") != str(view["ply"]):
            continue  # the page is a moment behind the server: look again
        movers = [m["player"] for m in view["moves"] if m["player"] >= 0]
        if movers and movers[-1] == 1 and view["last_cells"]:
            computer_moves += 1  # the computer just moved: its cells are marked
            marked = page.eval_on_selector_all(
                "#board .last-move[data-cell]", "els => [...new Set(els.map(e => e.dataset.cell))]"
            )
            on_board = page.eval_on_selector_all(
                "#board [data-cell]", "els => [...new Set(els.map(e => e.dataset.cell))]"
            )
            # Cells whose pieces were captured by the move have left the board.
            assert set(view["last_cells"]) & set(on_board) <= set(marked), (view, marked)
        ply = page.get_attribute("#play", "data-ply")
        play(page, choose(rng, view), touch)
        page.wait_for_function(
            "p => document.getElementById('play').dataset.ply !== p", arg=ply, timeout=15000
        )
    page.wait_for_function("() => document.getElementById('play').dataset.status === 'finished'")
    status = page.inner_text("#status")
    assert status.startswith(("You won", "You lost", "Draw", "You came")), status
    if not status.startswith("Draw"):  # a drawn game names no winner
        assert name in status or "computer" in status, status
    assert computer_moves > 0
    assert (
        page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]
    )
    context.close()
