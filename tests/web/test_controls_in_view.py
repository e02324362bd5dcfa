"""The controls a game page asks the player to use now are inside the window, measured in
Chromium at 1280 × 800 and on a phone (390 × 844): Comune's angle choices opened below the
fold and the page left them there, so the player saw only the red outline of the cell."""

from __future__ import annotations

import pytest

from tests.web.browser import AGAINST_RANDOM, create, register_in_browser, wait_my_turn_or_end
from tests.web.drawn import controls_out_of_view
from tests.web.helpers import started_club
from tests.web.pointer_play import centre, press
from tests.web.sizes import SIZES


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "inview", toy=False)
    yield srv
    srv.kill()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_comunes_angle_choices_are_brought_into_view(browser, club, size):
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    register_in_browser(page, club.base, f"view{size}")
    create(page, club.base, "comune", AGAINST_RANDOM)
    wait_my_turn_or_end(page)
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
