"""On a phone (390×844) and a tablet (768×1024) no page is wider than the screen, and the
header's links are all on screen: the header used to make the page 522 px wide, with *Rules*
and *Log out* off to the right."""

from __future__ import annotations

import pytest

from tests.web.browser import register_in_browser

PAGES = [
    "/", "/games/new", "/leaderboard", "/rules", "/rules/comino", "/forum", "/help", "/about",
    "/stats", "/challenges", "/tournaments", "/notifications", "/settings/notifications",
    "/settings/password",
]  # fmt: skip
SIZES = [(360, 740), (390, 844), (768, 1024)]


@pytest.mark.parametrize("width, height", SIZES)
def test_no_page_is_wider_than_the_screen(server, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        register_in_browser(page, server.base, f"phone{width}")
        for path in PAGES:
            page.goto(server.base + path)
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, f"{path} is {wide} px wide on a {width} px screen"
            menu = page.locator("#menu-button")
            if menu.is_visible():  # on a phone the site's links are behind the menu
                menu.click()
            for link in page.locator("header.top a, header.top button:not(#menu-button)").all():
                box = link.bounding_box()
                assert box is not None and box["x"] >= 0, (path, link.inner_text())
                assert box["x"] + box["width"] <= width, (path, link.inner_text(), box)
    finally:
        context.close()
