"""The pages a newcomer reads, looked at as a person does in Chromium, in English, German
and Japanese, on a desktop (1280 × 800) and a phone (390 × 844, touch): no text is cut
(Hexagone's side text ran past its drawing on the rules, help and about pages), the header
of a phone is one row, and what a finger presses there is at least 44 px."""

from __future__ import annotations

import pytest

from tests.web.browser import register_in_browser
from tests.web.drawn import clipped_text, small_touch_targets
from tests.web.sizes import context_options

PAGES = ("/rules/hexagone", "/rules/comune", "/help", "/about")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_text_is_cut_on_the_rules_help_and_about_pages(browser, server, size):
    for lang in ("en", "de", "ja"):
        context = browser.new_context(**context_options(size, lang=lang))
        page = context.new_page()
        for path in PAGES:
            page.goto(f"{server.base}{path}?lang={lang}")
            assert page.evaluate("() => document.documentElement.lang") == lang
            assert clipped_text(page) == [], (lang, path)
            if size == "phone":
                assert small_touch_targets(page, "header a, header button") == [], (lang, path)
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_phones_header_is_one_row_and_its_menu_opens_the_sites_links(browser, server, theme):
    """The header took three rows (about 150 px of an 844 px screen) on every page; a long
    name beside Japanese's Log out still leaves it one row."""
    lang = "de" if theme == "light" else "ja"
    context = browser.new_context(**context_options("phone", theme, lang))
    page = context.new_page()
    register_in_browser(
        page, server.base, f"header{theme}" + ("longername" if lang == "ja" else "")
    )
    page.goto(server.base + "/rules")
    height = page.evaluate("() => document.querySelector('header.top').offsetHeight")
    assert height <= 64, f"the header is {height} px high"
    links = page.locator("header nav a")
    assert all(not link.is_visible() for link in links.all())
    page.locator("#menu-button").tap()
    assert page.get_attribute("#menu-button", "aria-expanded") == "true"
    for link in links.all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert small_touch_targets(page, "header a, header button") == []
    page.locator('header nav a[href="/forum"]').tap()
    page.wait_for_url("**/forum")
    context.close()
