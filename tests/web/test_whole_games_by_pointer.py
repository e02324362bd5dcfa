"""Every game, played to its end against the computer with the pointer only, on a desktop
(1280 × 800) and on a phone (390 × 844, touch), in the light and dark theme and in English,
German and Japanese, looked at after every move as a person looks (see tests/web/look.py):
the pieces lie on their cells as the last move arrives and after, the buttons the page asks
for are in the window, no text is cut, a finger can press what it must; after each computer
move the board marks the cells it named, and the result names the people who played.

``make test`` plays each game once per screen, the themes and languages rotated across them;
``LUDOTECA_LOOK_FULL=1`` plays every combination (48 games). The screenshots go to
``var/looks/`` (or ``LUDOTECA_LOOKS_DIR``), said at the end of the run;
``LUDOTECA_README_SCREENSHOTS=docs/screenshots`` makes the README's pictures too."""

from __future__ import annotations

import itertools
import os
import random
import shutil
from pathlib import Path

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
from tests.web.look import (
    SHOT_AT_MOVE,
    Look,
    check_now,
    check_pressed,
    combinations,
    looks_dir,
    readme_combinations,
    window_moved_for_a_shot,
)
from tests.web.pointer_play import (
    choose,
    play,
    record_traffic,
    server_view,
    what_the_page_showed,
)
from tests.web.sizes import SIZES, context_options

VIEWPORTS = SIZES
README = os.environ.get("LUDOTECA_README_SCREENSHOTS", "")
_names = itertools.count(1)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "pointer", toy=False)
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def shots() -> Path:
    """The pictures' folder. Each game deletes only its own earlier pictures when it starts
    (:func:`fresh_pictures`): the workers of a parallel run share the folder, and one worker
    clearing it deleted the other's pictures, a failed game's among them."""
    folder = looks_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fresh_pictures(look: Look) -> None:
    """Remove the pictures an earlier run took of this game (and only of this game)."""
    for old in look.shots.glob(f"{look.name}-*.png"):
        old.unlink(missing_ok=True)


def wait_moved(page, ply: str, move: dict) -> None:
    """Wait for the page to leave ``ply`` after ``move`` was made; if it never does, say what
    the page showed (its message, its socket, the move) rather than only that time ran out."""
    try:
        page.wait_for_function(
            "p => document.getElementById('play').dataset.ply !== p", arg=ply, timeout=15000
        )
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => ({status: document.getElementById('status').textContent,
                      picked: [...document.querySelectorAll('#board .selected')].map(
                          (n) => n.dataset.tile || n.dataset.cell)})"""
        )
        shown |= what_the_page_showed(page)
        raise AssertionError(f"the page stayed at ply {ply} after {move}: {shown}") from None


def computer_marked(page, view: dict) -> bool:
    """After a computer move, the board marks the cells it named (those still on it)."""
    movers = [m["player"] for m in view["moves"] if m["player"] >= 0]
    if not (movers and movers[-1] == 1 and view["last_cells"]):
        return False
    marked = page.eval_on_selector_all(
        "#board .last-move[data-cell]", "els => [...new Set(els.map(e => e.dataset.cell))]"
    )
    on_board = page.eval_on_selector_all(
        "#board [data-cell]", "els => [...new Set(els.map(e => e.dataset.cell))]"
    )
    # Cells whose pieces were captured by the move have left the board.
    assert set(view["last_cells"]) & set(on_board) <= set(marked), (view, marked)
    return True


def play_and_look(look: Look, name: str) -> None:
    """Play ``look``'s game to its end by pointer, checking the page after every move."""
    page = look.page
    rng = random.Random(f"{look.game}-{look.size}")
    computer_moves = 0
    for _ in range(400):
        wait_my_turn_or_end(page, timeout=30000)
        look.view = view = server_view(page, look.pk)
        if view["status"] == "finished":
            break
        if page.get_attribute("#play", "data-ply") != str(view["ply"]):
            continue  # the page is a moment behind the server: look again
        computer_moves += computer_marked(page, view)
        check_now(look)
        if look.moves in (0, SHOT_AT_MOVE):
            with window_moved_for_a_shot(page):
                look.shoot(f"move{look.moves}")
        ply = page.get_attribute("#play", "data-ply")
        move = choose(rng, view)
        try:
            play(page, move, look.touch, lambda control: check_pressed(look, control))
            look.moves += 1
            wait_moved(page, ply, move)
        except AssertionError as failure:
            shot = look.shoot(f"FAILED-ply{ply}")
            raise AssertionError(f"{look.name}, game {look.pk}: {failure} (see {shot})") from None
        if look.moves == SHOT_AT_MOVE and README:
            readme_shot(look)
    page.wait_for_function("() => document.getElementById('play').dataset.status === 'finished'")
    look.view = server_view(page, look.pk)
    check_now(look)
    page.evaluate("() => window.scrollTo(0, 0)")
    look.shoot("end")
    status = page.inner_text("#status")
    assert status.strip(), "the end names no result"
    if look.lang == "en":
        assert status.startswith(("You won", "You lost", "Draw", "You came")), status
        if not status.startswith("Draw"):  # a drawn game names no winner
            assert name in status or "computer" in status, status
    assert computer_moves > 0
    assert (
        page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]
    )


def readme_shot(look: Look) -> None:
    """The README's picture of this game: the board in mid-play, the last move arrived."""
    page = look.page
    wait_my_turn_or_end(page, timeout=30000)
    page.wait_for_timeout(800)
    names = [f"{look.game}-{look.size}.png"] if look.lang == "en" else []
    if (look.game, look.size) == ("comune", "desktop"):  # the README's page in each language
        names.append(f"comune-desktop-{look.lang}.png")
    folder = Path(README)
    folder.mkdir(parents=True, exist_ok=True)
    with window_moved_for_a_shot(page, "document.querySelector('.board-wrap').offsetTop - 8"):
        page.screenshot(path=str(folder / names[0]))
    for name in names[1:]:
        shutil.copy(folder / names[0], folder / name)


@pytest.mark.parametrize(
    ("game", "size", "theme", "lang"), readme_combinations() if README else combinations()
)
def test_a_whole_game_by_pointer_looked_at_after_every_move(
    browser, club, shots, game, size, theme, lang
):
    context = browser.new_context(**context_options(size, theme, lang))
    page = context.new_page()
    record_traffic(page)
    name = f"pp{next(_names)}"
    register_in_browser(page, club.base, name)
    look = Look(page, game, size, theme, lang, shots)
    fresh_pictures(look)
    look.pk = create(page, club.base, game, AGAINST_RANDOM)
    assert page.evaluate("() => document.documentElement.lang") == lang
    play_and_look(look, name)
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
