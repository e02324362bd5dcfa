"""The controls a game page asks the player to use now are inside the window, measured in
Chromium at 1280 × 800 and on a phone (390 × 844): Comune's angle choices opened below the
fold and the page left them there, so the player saw only the red outline of the cell."""

from __future__ import annotations

import random

import pytest

from tests.web.browser import AGAINST_RANDOM, create, register_in_browser, wait_my_turn_or_end
from tests.web.drawn import controls_out_of_view
from tests.web.helpers import (
    create_game,
    join,
    legal_texts,
    member,
    move,
    page_csrf,
    started_club,
    view,
)
from tests.web.pointer_play import cell_box, centre, press
from tests.web.sizes import SIZES

CHOICES = "#picker > .choices .move-choice:not(.plain)"


MOST_CHOICES = """async (pk) => {
  const cells = [...document.querySelectorAll('#board .cell.target')].map(e => e.dataset.cell);
  let best = null, most = 0;
  for (const cell of cells.slice(0, 12)) {
    const {moves} = await (await fetch(`/api/games/${pk}/moves?cell=${cell}`)).json();
    const count = new Map();
    for (const m of moves) if (m.cells.length === 2) {
      const key = m.cells.join(' ');
      count.set(key, (count.get(key) || 0) + 1);
    }
    for (const [key, n] of count) if (n > most) { most = n; best = key.split(' '); }
  }
  return best;
}"""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "inview", toy=False)
    yield srv
    srv.kill()


def my_comune_turn(browser, club, size: str, name: str):
    """A new member ``name`` in a window of ``size``, in a Comune game against the random
    computer, at their turn: the browser context (for the test to close), the page and the
    game's number."""
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    register_in_browser(page, club.base, name)
    pk = create(page, club.base, "comune", AGAINST_RANDOM)
    wait_my_turn_or_end(page)
    return context, page, pk


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_comunes_angle_choices_are_brought_into_view(browser, club, size):
    context, page, _ = my_comune_turn(browser, club, size, f"view{size}")
    page.evaluate("() => window.scrollTo(0, 0)")  # as the page opens
    cell = page.locator('#board [data-cell="e5"].cell')
    box = cell.bounding_box()
    assert box is not None and box["y"] + box["height"] < page.viewport_size["height"]
    press(page, *centre(box), size == "phone")  # no scrolling by the test: where it is
    choices = page.locator("#picker > .choices .move-choice:not(.plain)")
    choices.first.wait_for()
    assert choices.count() == 3
    page.wait_for_selector("#picker > .choices[data-previews='1']")  # the drawings arrived
    assert controls_out_of_view(page) == []
    context.close()


BOARD_AT = "() => [scrollY, document.getElementById('board').getBoundingClientRect().top]"


def test_the_board_stays_put_while_the_choices_drawings_arrive(browser, club):
    """The drawings of the angle choices arrive a moment after the buttons. They made the
    buttons taller, the page scrolled to keep them in view, and the board moved under the
    pointer on its way to the next cell: the click took another cell (seen as a whole game
    by pointer that stalled on a desktop, its second click on the wrong cell). The buttons
    have the drawings' room from the start, so the board stays where it was when clicked."""
    context, page, _ = my_comune_turn(browser, club, "desktop", "viewstill")
    page.evaluate("() => window.scrollTo(0, 0)")  # as the page opens
    held = []
    page.route("**/api/games/*/preview", lambda route: held.append(route))
    press(page, *centre(cell_box(page, "e5")), False)
    page.locator(CHOICES).first.wait_for()
    page.wait_for_timeout(400)  # the page's own second looks (two frames, 250 ms)
    before = page.evaluate(BOARD_AT)
    assert held, "the page did not ask for the choices' drawings"
    held[0].continue_()
    page.wait_for_selector("#picker > .choices[data-previews='1']")
    page.wait_for_timeout(400)
    assert page.evaluate(BOARD_AT) == before
    assert controls_out_of_view(page) == []
    context.close()


SCROLL_UP_ONCE_SELECTED = """() => new MutationObserver((changes, watch) => {
  if (!document.querySelector('#board .cell.selected')) return;
  watch.disconnect();
  window.scrollTo(0, 0);
}).observe(document.getElementById('board'), {subtree: true, attributes: true})"""


def test_the_page_leaves_the_window_where_the_player_scrolled_it(browser, club):
    """The choices a click leaves are scrolled into view, and looked at again a moment later
    (the layout may still move). A player who scrolled up at once, to the board's top row
    for their second cell, was pulled back down by that second look as they clicked: the
    click took another cell (a whole game by pointer stalled so on a busy machine)."""
    context, page, _ = my_comune_turn(browser, club, "desktop", "viewleft")
    page.evaluate("() => window.scrollTo(0, 0)")  # as the page opens
    page.evaluate(SCROLL_UP_ONCE_SELECTED)
    press(page, *centre(cell_box(page, "e5")), False)
    page.locator(CHOICES).first.wait_for()
    page.wait_for_timeout(600)  # past the page's second looks (two frames, 250 ms)
    assert page.evaluate("() => scrollY") == 0
    context.close()


def test_all_nine_choices_of_two_pieces_fit_a_phone(browser, club):
    """Two pieces on two cells leave up to nine choices (angles for each), each with a drawing:
    on a phone they ran past the bottom of the screen, and no scrolling shows them at once."""
    context, page, pk = my_comune_turn(browser, club, "phone", "viewnine")
    ply = page.get_attribute("#play", "data-ply")
    press(page, *centre(cell_box(page, "e5")), True)
    page.locator('#picker > .choices [data-move="e5-"]').tap()
    page.wait_for_function(
        "p => document.getElementById('play').dataset.ply !== p", arg=ply, timeout=15000
    )
    wait_my_turn_or_end(page, timeout=30000)
    # The pair of cells leaving the most choices, from the moves the page itself asks for.
    first, second = page.evaluate(MOST_CHOICES, pk)
    press(page, *centre(cell_box(page, first)), True)
    page.wait_for_selector(f'#board .cell.selected[data-cell="{first}"]')
    page.wait_for_selector(f'#board .cell.target[data-cell="{second}"]')
    press(page, *centre(cell_box(page, second)), True)
    choices = page.locator(CHOICES)
    page.wait_for_selector("#picker > .choices[data-previews='1']")
    assert choices.count() >= 6, choices.count()
    assert controls_out_of_view(page) == []
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_offer_to_answer_is_in_view_as_the_page_opens(browser, club, size):
    """A draw offered by the opponent waited under the game log, below the fold on a desktop
    (about 900 px down an 800 px window) and a phone (some 1,400 px down): the player saw only
    their turn and never the offer, unless they scrolled to the page's end."""
    ann, bob = (member(club.base, f"ask{size}{who}") for who in ("ann", "bob"))
    pk = create_game(ann, "comino", [("me", ""), ("user", bob.name)])
    assert join(bob, pk).status_code == 303
    rng = random.Random(5)
    for _ in range(8):  # a game log long enough to push what stands under it down
        client = next(c for c in (ann, bob) if view(c, pk)["your_turn"])
        seen = view(client, pk)
        assert move(client, pk, rng.choice(legal_texts(seen)), seen["ply"]).status_code == 200
    offerer = bob if not view(bob, pk)["your_turn"] else ann
    answerer = ann if offerer is bob else bob
    made = offerer.post(
        f"/api/games/{pk}/offers",
        json={"action": "make", "kind": "draw"},
        headers={"X-CSRF-Token": page_csrf(offerer)},
    )
    assert made.json() == {"ok": True, "done": "offered"}
    context = browser.new_context(**SIZES[size])
    cookie = answerer.cookies.get("ludoteca_session")
    context.add_cookies([{"name": "ludoteca_session", "value": cookie, "url": club.base}])
    page = context.new_page()
    page.goto(f"{club.base}/games/{pk}")
    page.wait_for_selector(".offer[data-kind=draw] [data-answer=accept]")
    assert page.locator("[data-answer]:visible").count() == 2
    assert controls_out_of_view(page, "[data-answer]") == []
    context.close()
    ann.close()
    bob.close()
