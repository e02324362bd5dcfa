"""Take the README's screenshot of a game in progress: ``python -m tests.web.screenshot OUT.png``
from the repository's root.

Starts a server on a temporary database, registers a player, starts a Comino game against
the computer, plays a few moves by clicking and photographs the page with a tile picked up.
"""

from __future__ import annotations

import sys
import tempfile

from tests.web.browser import ARGS, CHROMIUM, legal_moves, register_in_browser, wait_my_turn_or_end
from tests.web.helpers import Server


def main(out: str, game: str = "comino", moves: int = 4) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/club.sqlite3", toy=False).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                register_in_browser(page, server.base, "ada")
                page.goto(f"{server.base}/games/new?game={game}")
                page.select_option('select[name="seat1"]', "bot")
                page.click("#create")
                for _ in range(moves):
                    wait_my_turn_or_end(page)
                    ply = page.get_attribute("#play", "data-ply")
                    move = next(m for m in legal_moves(page) if "@" in m)
                    page.click(".all-moves summary")
                    page.fill(".type-move input", move)
                    page.click(".type-move button")
                    page.wait_for_function(
                        "old => document.getElementById('play').dataset.ply !== old", arg=ply
                    )
                wait_my_turn_or_end(page)
                tile = page.locator('#board g.rack-tile[data-player="1"]').first
                box = tile.locator("rect").last.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
                page.screenshot(path=out)
                browser.close()
        finally:
            server.kill()


if __name__ == "__main__":
    main(*sys.argv[1:2])
