"""The club's mark: every page links it and ``/favicon.ico`` answers, so loading a page in a
browser leaves no failed request and no console error behind."""

from __future__ import annotations

import httpx

PAGES = ["/", "/rules", "/register", "/login", "/leaderboard"]


def test_favicon_ico_is_the_clubs_mark(server):
    r = httpx.get(server.base + "/favicon.ico")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in r.content


def test_pages_load_without_a_failed_request_or_console_error(server, browser):
    context = browser.new_context()
    page = context.new_page()
    failed: list[str] = []
    errors: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        for path in PAGES:
            page.goto(server.base + path)
            page.wait_for_load_state("networkidle")
            icon = page.get_attribute('link[rel="icon"]', "href")
            assert icon and page.request.get(server.base + icon).status == 200, path
        # A browser also asks for /favicon.ico by itself where a page links none.
        page.goto(server.base + "/favicon.ico")
    finally:
        context.close()
    assert failed == [] and errors == [], (failed, errors)
