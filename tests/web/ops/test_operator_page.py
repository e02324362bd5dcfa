"""``/operator``, the club at a glance for its moderators: refused to everyone else; shows the
live games, members online, the computer's queue, the outbox, reports and recent errors; in
German and Japanese; fits a phone and passes axe."""

from __future__ import annotations

import httpx

from ludoteca.cli.main import main
from tests.web.a11y import violations
from tests.web.browser import browser, register_in_browser  # noqa: F401 - a fixture
from tests.web.helpers import create_game, register, started_club

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_operator_page(browser, tmp_path_factory, tmp_path):  # noqa: F811
    club = started_club(tmp_path_factory, "operator")
    try:
        with httpx.Client(base_url=club.base, timeout=20) as someone:
            assert someone.get("/operator").status_code == 403  # a visitor
            assert register(someone, "opplayer").status_code == 303
            assert someone.get("/operator").status_code == 403  # a member
            create_game(someone, "toy", [("me", ""), ("bot", "random")])
        context = browser.new_context(viewport=DESKTOP, bypass_csp=True)  # for axe
        page = context.new_page()
        register_in_browser(page, club.base, "opboss")
        assert main(["admin", "grant", "opboss", "moderator", "--database", club.url]) == 0
        page.goto(club.base + "/operator")
        assert page.inner_text("h1") == "Operator's page"
        assert page.inner_text("#op-active") == "1"  # the game against the computer
        assert int(page.inner_text("#op-online")) >= 0
        assert page.inner_text("#op-outbox") == "0"
        assert page.locator("#op-errors li").count() >= 1
        assert violations(page) == []
        page.screenshot(path=str(tmp_path / "operator-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.goto(club.base + "/operator?lang=ja")
        assert page.inner_text("h1") == "運営ページ"
        assert "対局中のゲーム" in page.inner_text("#op-figures")
        fits = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert fits, "the operator's page is wider than a phone"
        boxes = page.eval_on_selector_all(
            "#op-figures > div", "els => els.map(e => e.getBoundingClientRect().right)"
        )
        assert boxes and max(boxes) <= PHONE["width"]
        assert violations(page) == []
        page.screenshot(path=str(tmp_path / "operator-phone-ja.png"), full_page=True)
        page.goto(club.base + "/operator?lang=de")
        assert page.inner_text("h1") == "Betriebsübersicht"
        assert "Laufende Partien" in page.inner_text("#op-figures")
        context.close()
    finally:
        club.kill()
