"""How long a game page takes to load in a real browser, on loopback.

    python bench/page_load.py [--loads 30] [--target 150] [--json]

It starts the club (``ludoteca serve``, a real process, on a fresh SQLite file), seats two
members at a game of each of the four games and plays a few moves, then opens each game
page ``--loads`` times in Debian's Chromium (headless, driven by Playwright) as the first
member, each time in a fresh page of one browser context (so the style sheet and scripts
come from the browser's cache, as they do for a player going from page to page). It reports,
from the browser's own navigation timing, the time to ``DOMContentLoaded`` and to ``load``,
p50 and p90 and max, per game. Exit status 1 when a game's p50 to ``DOMContentLoaded``
misses ``--target`` milliseconds (150).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(ROOT / "bench"))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMING = """() => {
  const n = performance.getEntriesByType('navigation')[0];
  return [n.domContentLoadedEventEnd - n.startTime, n.loadEventEnd - n.startTime];
}"""


def start_club(folder: Path) -> tuple[subprocess.Popen, str]:
    from helpers import free_port

    port = free_port()
    log = open(folder / "server.log", "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli.main", "serve", "--port", str(port),
         "--database", f"sqlite:///{folder}/club.db", "--bot-pool", "thread"],
        stdout=log, stderr=log, start_new_session=True, env={**os.environ},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/rules", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the club did not start; see {folder / 'server.log'}")


def seed(base: str, rng: random.Random) -> tuple[httpx.Client, dict[str, int]]:
    """Two members of the club at ``base`` at a game of each kind (see bench/pages.py)."""
    from helpers import member

    from pages import play_openings

    alice = member(base, "alice")
    return alice, play_openings(alice, member(base, "bob"), rng)


def measure(loads: int, seed_value: int = 1) -> list[dict]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is not installed (Debian's chromium package)")
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_club(Path(tmp))
        try:
            alice, games = seed(base, random.Random(seed_value))
            cookies = [{"name": c.name, "value": c.value, "url": base} for c in alice.cookies.jar]
            rows = []
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                context = browser.new_context()
                context.add_cookies(cookies)
                for game, pk in games.items():
                    times = []
                    for i in range(loads + 3):  # three first loads fill the cache, untimed
                        page = context.new_page()
                        page.goto(f"{base}/games/{pk}", wait_until="load")
                        if i >= 3:
                            times.append(page.evaluate(TIMING))
                        page.close()
                    dcl = sorted(t[0] for t in times)
                    load = sorted(t[1] for t in times)
                    rows.append(
                        {
                            "game": game,
                            "loads": loads,
                            "dcl_p50_ms": round(statistics.median(dcl), 1),
                            "dcl_p90_ms": round(dcl[math.ceil(len(dcl) * 0.9) - 1], 1),
                            "dcl_max_ms": round(dcl[-1], 1),
                            "load_p50_ms": round(statistics.median(load), 1),
                        }
                    )
                browser.close()
            return rows
        finally:
            proc.terminate()
            proc.wait(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=30, help="timed loads per game (30)")
    parser.add_argument(
        "--target",
        type=float,
        default=150.0,
        help="p50 to DOMContentLoaded a game may take, ms (150)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.loads < 1:
        parser.error("--loads must be at least 1")
    rows = measure(args.loads)
    for row in rows:
        row["ok"] = row["dcl_p50_ms"] <= args.target
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game page':10} {'DOMContentLoaded p50/p90/max ms':>32} {'load p50 ms':>12}")
        for r in rows:
            dcl = f"{r['dcl_p50_ms']:.0f} / {r['dcl_p90_ms']:.0f} / {r['dcl_max_ms']:.0f}"
            flag = "ok" if r["ok"] else "SLOW"
            print(f"{r['game']:10} {dcl:>32} {r['load_p50_ms']:12.0f} {flag}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
