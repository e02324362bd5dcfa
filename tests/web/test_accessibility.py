"""axe-core finds no serious or critical violation on the club's pages, in the light and the
dark theme (the system's setting, emulated): lobby, new game, a game of each game, a replay,
leaderboard, profile, rules, forum, help, stats, log-in, registration, password and settings."""

from __future__ import annotations

import pytest

from tests.web.a11y import axe_path, violations
from tests.web.helpers import create_game, page_csrf, register, started_club
from tests.web.sizes import context_options

GAMES = ("comune", "comino", "kuniumi", "hexagone")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A club with one game of each in progress against the computer and one finished."""
    import httpx

    srv = started_club(tmp_path_factory, "a11y", toy=False)
    client = httpx.Client(base_url=srv.base, timeout=30)
    assert register(client, "ada").status_code == 303
    games = {g: create_game(client, g, [("me", ""), ("bot", "random")]) for g in GAMES}
    done = create_game(client, "kuniumi", [("me", ""), ("bot", "random")])
    client.post(f"/games/{done}/resign", data={"csrf": page_csrf(client)})
    srv.paths = [  # type: ignore[attr-defined]
        "/",
        "/games/new",
        *(f"/games/{pk}" for pk in games.values()),
        f"/games/{done}/replay",
        "/leaderboard",
        "/users/ada",
        "/rules",
        "/rules/comune",
        "/forum",
        "/help",
        "/about",
        "/stats",
        "/challenges",
        "/tournaments",
        "/notifications",
        "/settings/notifications",
        "/settings/password",
    ]
    client.close()
    yield srv
    srv.kill()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation_on_any_page(browser, site, scheme):
    axe_path()
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, color_scheme=scheme, bypass_csp=True
    )
    page = context.new_page()
    found = {}
    for path in ("/login", "/register", "/password/forgot"):
        page.goto(site.base + path)
        if v := violations(page):
            found[path] = v
    page.goto(site.base + "/login")
    page.fill("input[name=name]", "ada")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_selector('[data-user="ada"]')
    for path in site.paths:
        page.goto(site.base + path)
        if path.startswith("/games/") and path.removeprefix("/games/").isdigit():
            page.wait_for_selector("#play[data-synced='1']")
        if v := violations(page):
            found[path] = v
    context.close()
    assert found == {}, found


def test_no_serious_violation_on_a_phone(browser, site):
    """On a phone the stats page's plots and table scroll sideways, and a keyboard could not
    reach them to scroll (axe's scrollable-region-focusable; the desktop shows them whole)."""
    axe_path()
    context = browser.new_context(**context_options("phone", "dark"), bypass_csp=True)
    page = context.new_page()
    page.goto(site.base + "/login")
    page.fill("input[name=name]", "ada")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_selector('[data-user="ada"]')
    found = {}
    for path in ("/stats", "/users/ada", "/tournaments"):
        page.goto(site.base + path)
        if v := violations(page):
            found[path] = v
    context.close()
    assert found == {}, found
