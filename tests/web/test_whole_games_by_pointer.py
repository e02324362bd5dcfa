"""Every game, played to its end against the computer with the pointer only, on a desktop
and on a phone (390 × 844, touch): after each computer move the board marks the cells it
named, and the result names the people who played."""

from __future__ import annotations

import itertools
import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.browser import (
    AGAINST_RANDOM,
    MY_TURN_OR_END,
    create,
    register_in_browser,
    wait_my_turn_or_end,
)
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


def wait_moved(page, ply: str, move: dict) -> None:
    """Wait for the page to leave ``ply`` after ``move`` was made; if it never does, say what
    the page showed (its message, its socket, the move) rather than only that time ran out."""
    try:
        page.wait_for_function(
            "p => document.getElementById('play').dataset.ply !== p", arg=ply, timeout=15000
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => ({message: document.getElementById('message').textContent,
                      live: document.getElementById('play').dataset.live,
                      status: document.getElementById('status').textContent,
                      picked: [...document.querySelectorAll('#board .selected')].map(
                          (n) => n.dataset.tile || n.dataset.cell)})"""
        )
        raise AssertionError(f"the page stayed at ply {ply} after {move}: {shown}") from None


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
        move = choose(rng, view)
        play(page, move, touch)
        wait_moved(page, ply, move)
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


def test_the_first_tap_plays_even_when_the_games_module_is_slow_to_arrive(browser, club):
    """Comino's page module arrives after the page's own scripts. Until it is there the page
    must not offer the turn: a tile tapped on the generic board was lost when the module's
    arrival drew the board again, and the move never went (seen as a stalled game)."""
    context = browser.new_context(**VIEWPORTS["phone"])
    page = context.new_page()
    register_in_browser(page, club.base, f"pp{next(_names)}")
    pk = create(page, club.base, "comino", AGAINST_RANDOM)
    held = []
    # The module's request is held until released below (routing also turns the cache off).
    page.route("**/play-modules/comino.js", lambda route: held.append(route))
    page.goto(f"{club.base}/games/{pk}")
    page.wait_for_timeout(500)
    assert held, "the game page did not ask for its module"
    assert not page.evaluate(MY_TURN_OR_END), "the turn is offered before the module is there"
    held[0].continue_()
    wait_my_turn_or_end(page, timeout=15000)
    view = server_view(page, pk)
    ply = page.get_attribute("#play", "data-ply")
    move = choose(random.Random(7), view)
    play(page, move, touch=True)
    wait_moved(page, ply, move)
    context.close()
