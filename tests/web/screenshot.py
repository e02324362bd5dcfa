"""Take the screenshots the README shows: ``python -m tests.web.screenshot [DIR]`` from the
repository's root (default ``docs/screenshots``).

The game pictures come from the same harness that checks every game in the tests
(``tests/web/test_whole_games_by_pointer.py``, run here with
``LUDOTECA_README_SCREENSHOTS=DIR``): each game played to its end by pointer against the
computer on a desktop (1280 × 800) and a phone (390 × 844), looked at after every move,
photographed after the player's sixth move (``comune-desktop.png``...), and Comune's desktop
page in each language (``comune-desktop-de.png``...). Then the lobby in the dark theme.
Needs Debian's Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.web.browser import ARGS, CHROMIUM
from tests.web.helpers import ROOT, Server


def main(out: str = "docs/screenshots") -> None:
    from playwright.sync_api import sync_playwright

    target = Path(out).resolve()
    target.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "LUDOTECA_README_SCREENSHOTS": str(target)}
    harness = "tests/web/test_whole_games_by_pointer.py"
    run = [sys.executable, "-m", "pytest", harness, "-q", "-p", "no:cacheprovider"]
    run += ["-k", "looked_at"]
    subprocess.run(run, cwd=ROOT, env=env, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/club.sqlite3", toy=False).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(
                    viewport={"width": 1280, "height": 860}, color_scheme="dark"
                )
                page = context.new_page()
                page.goto(server.base + "/")
                page.wait_for_timeout(500)
                page.screenshot(path=str(target / "lobby-dark.png"))
                browser.close()
        finally:
            server.kill()
    for path in sorted(target.glob("*.png")):
        print(path)


if __name__ == "__main__":
    main(*sys.argv[1:2])
