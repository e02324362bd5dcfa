"""Take the screenshots the README shows: ``python -m tests.web.screenshot [DIR]`` from the
repository's root (default ``docs/screenshots``).

Starts a server on a temporary database, registers a player and, for each game, starts a
game against the computer, plays a few moves by pointer (as a person would) and
photographs the page on a desktop (1280 × 860) and on a phone (390 × 844); then the lobby
in the dark theme, and Comune's game page in each language (``comune-desktop-de.png``...).
Needs Debian's Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from tests.web.browser import (
    AGAINST_RANDOM,
    ARGS,
    CHROMIUM,
    create,
    register_in_browser,
    wait_my_turn_or_end,
)
from tests.web.helpers import Server
from tests.web.pointer_play import choose, play, server_view

GAMES = ("comune", "comino", "kuniumi", "hexagone")
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 860}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}
MOVES = 6


LOCALES = {"en": "en-GB", "de": "de-DE", "ja": "ja-JP"}


def photograph(
    browser, base: str, out: Path, game: str, device: str, n: int, lang: str | None = None
) -> Path:
    options = {**DEVICES[device], **({"locale": LOCALES[lang]} if lang else {})}
    context = browser.new_context(**options)
    page = context.new_page()
    register_in_browser(page, base, f"ada{n}")
    pk = create(page, base, game, AGAINST_RANDOM)
    rng = random.Random(game)
    for _ in range(MOVES):
        wait_my_turn_or_end(page, timeout=30000)
        view = server_view(page, pk)
        if view["status"] == "finished":
            break
        ply = page.get_attribute("#play", "data-ply")
        play(page, choose(rng, view), device == "phone")
        page.wait_for_function("p => document.getElementById('play').dataset.ply !== p", arg=ply)
    wait_my_turn_or_end(page, timeout=30000)
    page.wait_for_timeout(800)  # the last move's arrival
    page.evaluate("() => window.scrollTo(0, document.querySelector('.board-wrap').offsetTop - 8)")
    path = out / (f"{game}-{device}-{lang}.png" if lang else f"{game}-{device}.png")
    page.screenshot(path=str(path))
    context.close()
    return path


def main(out: str = "docs/screenshots") -> None:
    from playwright.sync_api import sync_playwright

    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/club.sqlite3", toy=False).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                n = 0
                for game in GAMES:
                    for device in DEVICES:
                        n += 1
                        print(photograph(browser, server.base, target, game, device, n), flush=True)
                for lang in LOCALES:
                    n += 1
                    print(photograph(browser, server.base, target, "comune", "desktop", n, lang))
                context = browser.new_context(
                    viewport={"width": 1280, "height": 860}, color_scheme="dark"
                )
                page = context.new_page()
                page.goto(server.base + "/")
                page.wait_for_timeout(500)
                page.screenshot(path=str(target / "lobby-dark.png"))
                print(target / "lobby-dark.png")
                browser.close()
        finally:
            server.kill()


if __name__ == "__main__":
    main(*sys.argv[1:2])
