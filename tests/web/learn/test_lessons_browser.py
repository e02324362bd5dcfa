"""A newcomer in Chromium: opens a course, taps a square the rules forbid and reads why, then
solves the step by pointer; the browser keeps a visitor's progress. On a phone and a desktop,
axe-clean, in the three languages (the page's sentence is the catalog's). A member plays the
daily solo challenge by pointer and enters the score."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.web.a11y import violations
from tests.web.helpers import started_club
from tests.web.pointer_play import cell_box, centre, press, quoted


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "learn", toy=False)
    yield srv
    srv.kill()


@pytest.mark.parametrize(
    ("viewport", "touch", "lang", "said"),
    [
        ({"width": 1280, "height": 800}, False, "en", "Well done."),
        ({"width": 390, "height": 844}, True, "ja", "よくできました。"),
    ],
)
def test_a_newcomer_fails_then_solves_a_step_by_pointer(
    browser, club, viewport, touch, lang, said, tmp_path
):
    context = browser.new_context(
        viewport=viewport, has_touch=touch, is_mobile=touch, bypass_csp=True
    )
    page = context.new_page()
    page.goto(f"{club.base}/learn/kuniumi?lang={lang}")
    page.locator('.step-link[data-step="6"]').click()
    page.wait_for_function("document.getElementById('learn').dataset.step === '6'")
    page.wait_for_selector('#board [data-cell="d5"].target', state="attached")
    press(page, *centre(cell_box(page, "b2")), touch)  # the God
    press(page, *centre(cell_box(page, "e3")), touch)  # not on its group's lines
    page.wait_for_selector("#verdict.wrong")
    assert "e3" in page.inner_text("#verdict")
    press(page, *centre(cell_box(page, "b2")), touch)  # a fresh start: the God, then d5
    press(page, *centre(cell_box(page, "d5")), touch)
    page.wait_for_selector("#verdict.right")
    assert page.inner_text("#verdict") == said
    assert page.evaluate("localStorage.getItem('ludoteca.learn.kuniumi')") == "6"
    assert page.locator("#next").is_visible()
    page.screenshot(path=str(tmp_path / f"learn-{lang}.png"), full_page=True)
    board = page.locator("#board svg").bounding_box()
    assert (
        board is not None
        and board["x"] >= 0
        and board["x"] + board["width"] <= viewport["width"] + 1
    )
    assert violations(page) == []
    page.goto(f"{club.base}/learn?lang={lang}")
    assert violations(page) == []
    context.close()


def test_a_puzzle_failed_then_solved_by_pointer(browser, club, tmp_path):
    from ludoteca.puzzles.shipped import puzzles

    p = puzzles("kuniumi")[0]
    wrong = sorted(p.refutations)[0]
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    for move, result in ((wrong, "failed"), (p.answer, "solved")):
        page.goto(f"{club.base}/puzzles/kuniumi?id={p.id}&lang=de")
        page.wait_for_selector("#puzzle[data-ready='1']")
        task, side = page.inner_text("#puzzle-task"), page.inner_text("#to-move")
        assert task.endswith(f" · {side.removeprefix('· ')}"), task  # the task, then who moves
        for cell in move.split("-"):
            press(page, *centre(cell_box(page, cell)), False)
        page.wait_for_selector(f"#puzzle[data-result='{result}']")
        if result == "failed":
            assert p.refutations[wrong][0] in page.inner_text("#verdict")
            assert p.answer in page.inner_text("#verdict")
        else:
            assert page.inner_text("#verdict") == "Richtig: Das ist der Zug."
        assert page.locator("#next").is_visible()
    page.screenshot(path=str(tmp_path / "puzzle-de.png"), full_page=True)
    assert violations(page) == []
    page.goto(f"{club.base}/puzzles?lang=de")
    assert violations(page) == []
    page.goto(f"{club.base}/challenge?lang=de")  # the daily solo challenge's board
    page.wait_for_selector("#challenge[data-ready='1'] #board svg")
    assert violations(page) == []
    context.close()


def test_the_analysis_board_marks_its_best_moves_and_shows_an_evaluation_bar(
    browser, club, tmp_path
):
    from ludoteca.puzzles.shipped import puzzles
    from tests.web.browser import register_in_browser

    p = puzzles("kuniumi")[0]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    register_in_browser(page, club.base, "marks")
    page.goto(f"{club.base}/analysis/kuniumi?position={quote(p.position)}")
    page.wait_for_function("() => document.getElementById('analysis')?.dataset.position")
    page.click("#analyse")
    page.wait_for_function("() => Number(document.getElementById('analysis').dataset.marked) > 0")
    first = page.locator("#top-moves tbody .move-choice").first.get_attribute("data-move")
    for cell in first.split("-"):  # the best move's cells are marked on the board itself
        assert "best-1" in page.locator(f'#board [data-cell="{cell}"].cell').first.get_attribute(
            "class"
        )
    bar = page.locator("#eval-bar")
    assert bar.is_visible() and "%" in bar.get_attribute("aria-label")
    fill = page.locator("#eval-fill").bounding_box()
    box = bar.bounding_box()
    assert fill is not None and box is not None and 0 < fill["height"] <= box["height"] + 0.5
    page.screenshot(path=str(tmp_path / "analysis-marks.png"))
    assert violations(page) == []
    context.close()


def _greedy(state):
    """The legal move that captures most (the first such), as a player chasing the bar would."""
    from ludoteca.web.learn import solo

    def captured_after(move) -> int:
        probe = state.clone()
        probe.play(move)
        return solo.captured(probe)

    return max(state.legal_moves(), key=captured_after)


SENT_OR_OFFERED = """([k, n, text]) =>
  JSON.parse(localStorage.getItem(k) || '[]').length > n
  || !!text && !!document.querySelector(`#choices [data-move="${CSS.escape(text)}"]`)"""
"""The page has taken the move (the browser keeps the moves) or offers it as a button."""


SMALLEST_CELL = """() => Math.min(...[...document.querySelectorAll('#board .cell[data-cell]')]
  .map((c) => c.getBoundingClientRect()).filter((r) => r.width)
  .map((r) => Math.min(r.width, r.height)))"""


def _moves_on_page(page, key: str) -> list[str]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('{key}') || '[]')")


@pytest.mark.parametrize(
    ("viewport", "touch", "reform", "lang"),
    [
        ({"width": 1280, "height": 800}, False, True, "en"),
        ({"width": 390, "height": 844}, True, False, "ja"),
    ],
)
def test_a_member_plays_and_enters_the_daily_challenge_by_pointer(
    browser, club, tmp_path, viewport, touch, reform, lang
):
    """The end of the day's solo game played by pointer (the moves before it restored from
    the browser, as a returning player's are): the last three moves, or on the desktop from
    the swap before the last reform on (a capture, then pieces put back, choosing a colour
    where a cell takes several), then entered with the pointer: the entry is the server's
    replay of those moves, on the leaderboard."""
    from ludoteca.web.learn import solo
    from tests.web.browser import register_in_browser

    day = solo.today()
    key = f"ludoteca.challenge.{day.isoformat()}"
    name = f"solo{viewport['width']}"
    context = browser.new_context(
        viewport=viewport, has_touch=touch, is_mobile=touch, bypass_csp=True
    )
    page = context.new_page()
    register_in_browser(page, club.base, name)
    state, _ = solo.replay(day, [])
    whole: list[str] = []
    while not state.is_over:
        whole.append(state.move_to_str(_greedy(state)))
        state, _ = solo.replay(day, whole)
    start = len(whole) - 3
    if reform:
        placed = [n for n, text in enumerate(whole) if text.startswith("place")]
        assert placed, "the day's greedy game puts no piece back"
        start = max(n for n in range(placed[-1]) if whole[n].startswith("swap"))
    page.goto(f"{club.base}/challenge?lang={lang}")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(whole[:start])])
    page.reload()
    page.wait_for_selector("#challenge[data-ready='1'] #board svg")
    page.screenshot(path=str(tmp_path / f"challenge-{viewport['width']}-playing.png"))
    if touch:  # the cells are drawn a finger's size (44 px), as on the game page
        least = page.evaluate(SMALLEST_CELL)
        assert least >= 44, f"cells of {least:.0f} px on a phone"
    for _ in range(solo.MAX_MOVES):
        moves = _moves_on_page(page, key)
        state, _ = solo.replay(day, moves)
        if state.is_over:
            break
        move = _greedy(state)
        text = state.move_to_str(move)
        for cell in state.move_cells(move):
            press(page, *centre(cell_box(page, cell)), touch)
        page.wait_for_function(SENT_OR_OFFERED, arg=[key, len(moves), text])
        if len(_moves_on_page(page, key)) == len(moves):  # a cell of several moves: its button
            button = page.locator(f"#choices [data-move={quoted(text)}]")
            press(page, *centre(button.bounding_box()), touch)
            page.wait_for_function(SENT_OR_OFFERED, arg=[key, len(moves), None])
    assert state.is_over and page.get_attribute("#challenge", "data-over") == "1"
    score = solo.captured(state)
    assert page.get_attribute("#challenge", "data-captured") == str(score)
    said = page.inner_text("#status")  # in the page's language
    assert str(score) in said and ("Game over" in said) == (lang == "en")
    enter = page.locator("#enter")
    enter.scroll_into_view_if_needed()
    press(page, *centre(enter.bounding_box()), touch)
    page.wait_for_function("() => document.getElementById('challenge').dataset.entered !== ''")
    assert page.get_attribute("#challenge", "data-entered") == str(score)
    assert f"{name}: {score}" in page.inner_text("#entries")
    page.screenshot(path=str(tmp_path / f"challenge-{viewport['width']}.png"), full_page=True)
    box = page.locator("#board").bounding_box()  # a larger drawing pans inside it
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1
    if touch:  # the page with its game over and the entry made (its start: the test above)
        assert violations(page) == []
    page.reload()  # the entry is the club's, not the page's
    assert f"{name}: {score}" in page.inner_text("#entries")
    context.close()


def test_a_comune_puzzle_of_many_turns_is_solved_by_pointer(browser, club, tmp_path):
    """A Comune position of hundreds of turns comes to the page compact (the cells a first
    click may take): a clicked cell's moves are asked of the server, so a puzzle (and a lesson
    step, below) of such a position is solved by pointer, a button choosing among the moves of
    the same cells."""
    from ludoteca.core.registry import get as get_game
    from ludoteca.puzzles.shipped import puzzles
    from ludoteca.web.round.view import COMPACT_OVER

    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    p = next(p for p in puzzles("comune") if p.proof["turns"] > COMPACT_OVER)
    state = get_game("comune").from_position(p.position)
    assert len(state.legal_moves()) > COMPACT_OVER
    page.goto(f"{club.base}/puzzles/comune?id={p.id}")
    page.wait_for_selector("#puzzle[data-ready='1']")
    for token in p.answer.split():
        cell = token[:-1]
        press(page, *centre(cell_box(page, cell)), False)
        # the first click's moves come from the server: the page takes the next click once
        # the cell is marked, as a person sees it (a click before that may land first)
        page.wait_for_selector(f'#board .selected[data-cell="{cell}"]')
    page.wait_for_selector(f"#choices [data-move={quoted(p.answer)}]")
    page.screenshot(path=str(tmp_path / "comune-puzzle.png"))
    page.locator(f"#choices [data-move={quoted(p.answer)}]").click()
    page.wait_for_selector("#puzzle[data-result='solved']")
    context.close()
