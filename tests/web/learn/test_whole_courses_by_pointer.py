"""A newcomer completes each game's whole course by pointer: every step, its move read from
the lesson's goal (the engine's first answer to it) and made with clicks on the drawn board,
on a phone with taps. The course ends saying so and suggesting a first game against the
computer; a reload (and the course list) shows it done. One wrong move on the way is
answered in words. On a phone the boards are finger-sized and a finger is told to tap. One
server, one browser, one page per screen reused for every course."""

from __future__ import annotations

import os
from datetime import date
from urllib.parse import quote

import pytest

from ludoteca.puzzles.shipped import puzzles
from ludoteca.web.learn.course import GAMES, answers, course
from ludoteca.web.round.view import offered_move
from tests.web.a11y import violations
from tests.web.helpers import started_club
from tests.web.learn.test_lessons_browser import SMALLEST_CELL
from tests.web.pointer_play import cell_box, centre, play_comino, press, quoted

PHONE_OTHERS = ("comune", "kuniumi", "hexagone")
"""The phone completes two courses a run: Comino's always (its board is drawn larger than a
phone and pans; its tiles are picked up, turned and put down by taps) and one of the others,
taking turns by the day. ``LUDOTECA_LEARN_PHONE=kuniumi,hexagone`` chooses instead."""


def phone_games() -> tuple[str, ...]:
    chosen = os.environ.get("LUDOTECA_LEARN_PHONE", "")
    if chosen:
        return tuple(g for g in chosen.split(",") if g)
    return ("comino", PHONE_OTHERS[date.today().toordinal() % len(PHONE_OTHERS)])


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "courses", toy=False)
    yield srv
    srv.kill()


def expected_move(game: str, n: int) -> dict:
    """Step ``n``'s move as the page offers it: the lesson's first named move, or else the
    engine's first answer to the step's goal."""
    c = course(game)
    state = c.state(n - 1)
    goal = c.steps[n - 1].goal
    text = goal["moves"][0] if "moves" in goal else answers(state, goal)[0]
    return offered_move(state, state.str_to_move(text))


TAKEN = """([cell, text]) => !!document.querySelector('#verdict.right, #verdict.wrong')
  || !!document.querySelector(`#board .cell.selected[data-cell="${CSS.escape(cell)}"]`)
     && (!!document.querySelector(`#choices [data-move="${CSS.escape(text)}"]`)
         || !!document.querySelector('#board .cell.target'))"""
"""The page has taken a click: the move has been judged, or the cell is selected and the page
offers what may follow (a further cell, or the move's button)."""


LAST_MOVE_OUT_OF_VIEW = """() => {
  const box = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll('#board .cell.last-move')]
    .map((c) => [c.dataset.cell, c.getBoundingClientRect()])
    .filter(([, r]) => r.width && (r.right <= box.left || r.left >= box.right
                                   || r.bottom <= box.top || r.top >= box.bottom))
    .map(([cell]) => cell);
}"""
"""The cells of the move just made that are panned out of the board's box (a phone's board
is drawn larger than the screen and pans)."""


def press_choice(page, text: str, touch: bool) -> None:
    button = page.locator(f"#choices [data-move={quoted(text)}]")
    button.scroll_into_view_if_needed()
    press(page, *centre(button.bounding_box()), touch)


def play_step(page, move: dict, touch: bool) -> None:
    """Make ``move`` by pointer: a Comino tile turned and put down, a move naming no cell by
    its button, otherwise its cells one by one and, where a cell takes several moves (a
    Comune angle, a Hexagone colour), the move's button."""
    if "tile" in move:
        play_comino(page, move, touch)
    elif not move["cells"]:
        press_choice(page, move["text"], touch)
    else:
        for cell in move["cells"]:
            press(page, *centre(cell_box(page, cell)), touch)
            page.wait_for_function(TAKEN, arg=[cell, move["text"]])
        if not page.locator("#verdict.right").count():
            press_choice(page, move["text"], touch)


def open_course(page, base: str, game: str) -> int:
    page.goto(f"{base}/learn/{game}")
    page.wait_for_function("document.getElementById('learn').dataset.step === '1'")
    page.wait_for_selector("#board .cell[data-cell]", state="attached")
    return int(page.get_attribute("#learn", "data-steps"))


def wrong_move_first(page, touch: bool, shot) -> None:
    """Hexagone's second step: two pieces that do not touch are no swap, and the page says
    so in the engine's words; the step is then made afresh."""
    page.locator('.step-link[data-step="2"]').click()
    page.wait_for_function("document.getElementById('learn').dataset.step === '2'")
    page.wait_for_selector("#board .cell.target", state="attached")
    for cell in ("-4,4", "2,2"):
        press(page, *centre(cell_box(page, cell)), touch)
    page.wait_for_selector("#verdict.wrong")
    said = page.inner_text("#verdict")
    assert "do not touch" in said, said
    page.screenshot(path=str(shot))
    assert page.get_attribute("#learn", "data-solved") is None


def complete_course(page, base: str, game: str, touch: bool, shots, size: str) -> None:
    total = open_course(page, base, game)
    assert total == len(course(game).steps)
    if game == "hexagone":  # the one wrong move of the run, then on from step 1
        wrong_move_first(page, touch, shots / f"course-{game}-{size}-wrong.png")
        page.locator('.step-link[data-step="1"]').click()
        page.wait_for_function("document.getElementById('learn').dataset.step === '1'")
    for n in range(1, total + 1):
        page.wait_for_selector("#board .cell[data-cell]", state="attached")
        if touch:  # drawn finger-sized, as the game page's board
            assert page.evaluate(SMALLEST_CELL) >= 44, (game, n)
        move = expected_move(game, n)
        if move.get("remove"):  # only removals: the hint travels with the Remove button
            hint = page.locator(".tile-actions .hint")
            assert hint.is_visible() and "Remove tile" in hint.inner_text()
        elif "tile" in move:  # a finger is told what a finger does
            hint = page.inner_text("#module-controls .hint")
            assert ("Tap a rack tile" in hint) == touch, hint
        elif touch and page.locator("#module-controls .hint").count():  # every game's words
            hint = page.inner_text("#module-controls .hint")
            assert "click" not in hint.lower(), (game, n, hint)
        play_step(page, move, touch)
        page.wait_for_function(f"document.getElementById('learn').dataset.solved === '{n}'")
        assert page.get_attribute("#verdict", "class") == "verdict right", (game, n)
        assert page.evaluate(LAST_MOVE_OUT_OF_VIEW) == [], (
            f"{game} step {n}: the move is out of view"
        )
        if n == total // 2:
            page.screenshot(path=str(shots / f"course-{game}-{size}-step{n}.png"))
        if n < total:
            next_button = page.locator("#next")
            next_button.scroll_into_view_if_needed()
            press(page, *centre(next_button.bounding_box()), touch)
            page.wait_for_function(f"document.getElementById('learn').dataset.step === '{n + 1}'")
    finished = page.locator("#finished")
    assert finished.is_visible() and "You have finished the course." in finished.inner_text()
    suggestion = finished.locator("a.button")
    assert suggestion.get_attribute("href") == f"/games/new?game={game}&against=computer"
    assert "against the computer" in suggestion.inner_text()
    finished.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"course-{game}-{size}-finished.png"))
    page.reload()  # the browser kept the progress: every step marked done
    page.wait_for_function(f"document.getElementById('learn').dataset.step === '{total}'")
    assert page.locator("#lesson-steps li.done").count() == total, game


@pytest.mark.parametrize(
    ("size", "viewport", "touch", "games"),
    [
        ("desktop", {"width": 1280, "height": 800}, False, GAMES),
        ("phone", {"width": 390, "height": 844}, True, phone_games()),
    ],
)
def test_a_newcomer_completes_whole_courses_by_pointer(
    browser, club, tmp_path, size, viewport, touch, games
):
    context = browser.new_context(
        viewport=viewport, has_touch=touch, is_mobile=touch, bypass_csp=True
    )
    page = context.new_page()
    for game in games:
        complete_course(page, club.base, game, touch, tmp_path, size)
    page.goto(f"{club.base}/learn")  # the course list counts them done too
    for game in games:
        total = len(course(game).steps)
        said = page.inner_text(f'.learn-progress[data-game="{game}"]')
        assert said == f"{total} of {total} steps", (game, said)
    page.screenshot(path=str(tmp_path / f"courses-{size}.png"))
    if touch:  # the course page after its end, and the analysis board, finger-sized there too
        page.goto(f"{club.base}/learn/{games[0]}")
        page.wait_for_selector("#board .cell[data-cell]", state="attached")
        assert violations(page) == []
        dealt = quote(puzzles("comino")[0].position)
        page.goto(f"{club.base}/analysis/comino?position={dealt}")
        page.wait_for_function("() => document.getElementById('analysis')?.dataset.position")
        assert page.evaluate(SMALLEST_CELL) >= 44
        assert "Tap a rack tile" in page.inner_text("#module-controls .hint")
    context.close()
