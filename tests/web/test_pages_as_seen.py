"""The pages a newcomer reads, looked at as a person does in Chromium, in English, German
and Japanese, on a desktop (1280 × 800) and a phone (390 × 844, touch): no text is cut
(Hexagone's side text ran past its drawing on the rules, help and about pages), the header
of a phone is one row, and what a finger presses there is at least 44 px."""

from __future__ import annotations

import time

import pytest

from tests.web.browser import register_in_browser
from tests.web.drawn import clipped_text, crowded_controls, small_touch_targets, words_cut
from tests.web.helpers import correspondence_swiss, create_game, member, page_csrf
from tests.web.sizes import SIZES, context_options

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
            assert crowded_controls(page) == [], (lang, path)
            assert words_cut(page) == [], (lang, path)
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


MEMBER_PAGES = (
    "/", "/games/new", "/users/{me}", "/notifications", "/challenges", "/tournaments",
    "/tournaments/{tournament}", "/games/{done}/replay", "/puzzles/daily", "/following",
    "/analysis/comune", "/help",
)  # fmt: skip


STATS_AND_MENU = ('a[href="/stats"]', "#language-select")
"""The footer's last link and the language menu after its dot: on one line (the menu wrapped
alone on a phone, leaving "Stats ·" to end the line above)."""


def test_a_members_pages_are_finger_sized_and_uncut_on_a_phone(browser, server):
    """The pages added since the game page was looked at, on a phone in the dark theme: the
    menus of their forms (the computer's level, the history filters, the tournament and
    challenge forms) were 33 px tall; short links standing alone (a name in the standings
    or on a replay, *Learn* and *Challenges* in Japanese, *Rules* on a game's card, *watch*
    beside a tournament's pairing, *Chat* in the help's contents) 30 to 43 px wide; the
    analysis board's Copy button ran into the link's field; the tournament list cut
    "Sonntagsturnier" and "Schweizer System" mid-word."""
    me = member(server.base, "fin")  # short names: a link beside them stands alone
    rival = member(server.base, "fiv")
    tournament = correspondence_swiss(me, "Sonntagsturnier", "comune", 3, rival)
    rival.close()
    answer = me.post(
        f"/tournaments/{tournament}/start", data={"csrf": page_csrf(me, "/tournaments")}
    )
    assert answer.status_code == 303
    deadline = time.monotonic() + 10  # the director pairs the first round (every 0.25 s)
    while "/games/" not in me.get(f"/tournaments/{tournament}").text:
        assert time.monotonic() < deadline, "the first round was not paired"
        time.sleep(0.1)
    done = create_game(me, "toy", [("me", ""), ("bot", "random")])
    me.post(f"/games/{done}/resign", data={"csrf": page_csrf(me)})
    context = browser.new_context(**context_options("phone", "dark", "ja"))
    cookie = me.cookies.get("ludoteca_session")
    context.add_cookies([{"name": "ludoteca_session", "value": cookie, "url": server.base}])
    page = context.new_page()
    for lang, paths in (("ja", MEMBER_PAGES), ("de", MEMBER_PAGES), ("en", ("/",))):
        for path in paths:
            path = path.format(me=me.name, tournament=tournament, done=done)
            page.goto(f"{server.base}{path}?lang={lang}")
            assert small_touch_targets(page) == [], (lang, path)
            assert clipped_text(page) == [], (lang, path)
            assert crowded_controls(page) == [], (lang, path)
            assert words_cut(page) == [], (lang, path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, (lang, path)
            # both boxes in one look: a page still drawing (a replay's board) moves the footer
            stats, menu = page.evaluate(
                """selectors => selectors.map(s => {
                    const box = document.querySelector('footer ' + s).getBoundingClientRect();
                    return {y: box.y, height: box.height};
                })""",
                list(STATS_AND_MENU),
            )
            middle = stats["y"] + stats["height"] / 2
            assert menu["y"] <= middle <= menu["y"] + menu["height"], (lang, path)
    # On a desktop the analysis board's side is narrow: its table cut "Zu-g", "Besuch-e".
    page.set_viewport_size(SIZES["desktop"]["viewport"])
    page.goto(f"{server.base}/analysis/comune?lang=de")
    assert words_cut(page) == []
    context.close()
    me.close()
