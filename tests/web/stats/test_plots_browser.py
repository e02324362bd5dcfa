"""The plots as Chromium draws them: Japanese words drawn as text in the page's fonts, colours
that follow the light and the dark theme, and on a phone a plot of a readable size that
scrolls in its figure, not the page.

The screenshots are kept beside the test's files (``stats-ja-dark-phone.png`` …): look at
them to see the glyphs (Debian's fonts-noto-cjk has them)."""

from __future__ import annotations

import httpx

from tests.web.browser import browser  # noqa: F401 - the fixture
from tests.web.helpers import register
from tests.web.stats_data import put_rating_history, put_tallies

THEMES = {"light": "rgb(31, 35, 40)", "dark": "rgb(231, 231, 228)"}
"""The page's ink (``--ink`` in style.css) in each theme."""


def test_the_plots_follow_the_theme_and_speak_japanese(server, browser, tmp_path):  # noqa: F811
    put_tallies(
        server.url,
        [
            {"game": "kuniumi", "players": 2, "month": "2026-03", "games": 3, "decided": 3},
            {"game": "hexagone", "players": 3, "month": "2026-04", "games": 9, "first_wins": 9},
        ],
    )
    with httpx.Client(base_url=server.base) as client:
        assert register(client, "hanako").status_code == 303
    put_rating_history(server.url, "hanako", {"kuniumi": [(1500 + 9 * i, 300) for i in range(9)]})
    devices = (("desktop", 1280), ("phone", 390))  # light on a desktop, dark on a phone
    for (theme, ink), (device, width) in zip(THEMES.items(), devices, strict=True):
        context = browser.new_context(
            viewport={"width": width, "height": 844}, color_scheme=theme, locale="ja-JP"
        )
        page = context.new_page()
        for path, shot in (("/stats?lang=ja", "stats"), ("/users/hanako?lang=ja", "profile")):
            page.goto(server.base + path)
            plots = page.locator("svg.plot")
            assert plots.count() == (2 if shot == "stats" else 1)
            drawn = page.evaluate(
                """() => [...document.querySelectorAll('svg.plot text')].map(t => {
                    const box = t.getBBox();
                    return [t.textContent, getComputedStyle(t).fill, box.width, box.height,
                            t.classList.contains('plot-muted')];
                })"""
            )
            japanese = [d for d in drawn if any("\u3040" <= c <= "\u9fff" for c in d[0])]
            assert japanese, "the plots' words are in Japanese"
            assert {d[1] for d in drawn if not d[4]} == {ink}, "the page's ink, light or dark"
            assert all(d[2] > 0 and d[3] > 0 for d in japanese), "every word is drawn"
            for i in range(plots.count()):  # readable: scrolled in its figure on a phone
                box = plots.nth(i).bounding_box()
                assert box is not None and box["width"] >= min(560, width - 40)
            page_width = page.evaluate("document.documentElement.scrollWidth")
            assert page_width <= width, "the page itself does not scroll sideways"
            page.screenshot(path=str(tmp_path / f"{shot}-ja-{theme}-{device}.png"), full_page=True)
        context.close()
