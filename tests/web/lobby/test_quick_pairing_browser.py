"""Quick pairing, the computer's level and presence as people see them, in Chromium on a
real server: two people press the same cell of the lobby's grid and both land in the same
game; someone who pressed it and left is not paired; following a member shows them
playing, with a link to watch; the lobby is drawn within a phone's width, and axe-core
finds nothing serious on the lobby and ``/following``."""

from __future__ import annotations

import time

from tests.web.a11y import violations
from tests.web.browser import register_in_browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CELL = '.seek-cell[data-players="2"][data-control="none"]'


def test_pressing_the_same_cell_pairs_two_people_and_not_one_who_left(server, browser, tmp_path):
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=DESKTOP)
    cy_ctx = browser.new_context(viewport=PHONE, bypass_csp=True)
    try:
        ann, bob, cy = ann_ctx.new_page(), bob_ctx.new_page(), cy_ctx.new_page()
        for page, name in ((ann, "qp_ann"), (bob, "qp_bob"), (cy, "qp_cy")):
            register_in_browser(page, server.base, name)
            page.goto(server.base + "/")
        cell = ann.locator(CELL).first
        game = cell.get_attribute("data-game")
        same = f'{CELL}[data-game="{game}"]'

        # Someone presses the cell and leaves the lobby: their seek goes with the page.
        cy.locator(same).click()
        cy.wait_for_function("() => document.getElementById('seek-status').textContent !== ''")
        cy.goto(server.base + "/help")
        time.sleep(0.5)

        ann.locator(same).click()
        ann.wait_for_function("() => document.getElementById('seek-status').textContent !== ''")
        assert ann.locator(same).get_attribute("aria-pressed") == "true"
        ann.screenshot(path=str(tmp_path / "lobby-seeking-desktop.png"), full_page=True)
        time.sleep(1.2)  # a pool round passes: ann is still waiting, not paired with cy
        assert ann.url.rstrip("/") == server.base

        bob.locator(same).click()
        ann.wait_for_url("**/games/*", timeout=10000)
        bob.wait_for_url("**/games/*", timeout=10000)
        assert ann.url == bob.url
        pk = ann.url.rsplit("/", 1)[1]
        seats = ann.locator(".seat").all_inner_texts()
        assert any("qp_ann" in s for s in seats) and any("qp_bob" in s for s in seats)
        assert not any("qp_cy" in s for s in seats)

        # Following ann shows her playing, with the game to watch.
        cy.goto(server.base + "/users/qp_ann")
        cy.locator("#follow-user").click()
        cy.goto(server.base + "/following")
        row = cy.locator('#following li[data-name="qp_ann"]')
        assert "playing" in (row.get_attribute("class") or "")
        assert row.locator("a.watch").get_attribute("href") == f"/games/{pk}"
        cy.screenshot(path=str(tmp_path / "following-phone.png"), full_page=True)
        assert not violations(cy), violations(cy)

        # The lobby on a phone: within the screen, the grid's cells finger-sized.
        cy.goto(server.base + "/")
        cy.screenshot(path=str(tmp_path / "lobby-phone.png"), full_page=True)
        assert cy.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        for box in (c.bounding_box() for c in cy.locator(".seek-cell").all()[:10]):
            assert box is not None and box["height"] >= 40
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert int(cy.locator("#online-count").inner_text()) >= 1
        found = violations(cy)
        assert not found, found
        # In every language a table size's cells make one row on the phone (short labels,
        # the whole control in each cell's title and accessible name), so the grid stays short.
        three_days = {"en": "3 days a move", "de": "3 Tage pro Zug", "ja": "1手につき3日"}
        for lang, words in three_days.items():
            cy.goto(f"{server.base}/?lang={lang}")
            tops = cy.eval_on_selector_all(
                ".pairing-row",
                "rows => rows.map(r => [...r.querySelectorAll('.seek-cell')]"
                ".map(c => Math.round(c.getBoundingClientRect().top)))",
            )
            assert tops and all(len(set(row)) == 1 for row in tops), (lang, tops)
            days = cy.locator('.seek-cell[data-control="3d"]').first
            assert days.get_attribute("title") == words
            assert words in days.inner_text() or words in (days.text_content() or "")
            assert cy.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

        # The computer's level: described, and remembered for the next visit.
        cy.select_option("#computer-level", "medium")
        about = cy.locator("#computer-level-about").inner_text()
        cy.reload()
        assert cy.locator("#computer-level").input_value() == "medium"
        assert cy.locator("#computer-level-about").inner_text() == about != ""
    finally:
        for ctx in (ann_ctx, bob_ctx, cy_ctx):
            ctx.close()
