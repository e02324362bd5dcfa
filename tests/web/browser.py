"""Playwright helpers for the browser tests: Debian's Chromium, headless, on loopback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed"
        if os.environ.get("CI"):
            pytest.fail(message + " and CI is set: the browser tests need it")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def register_in_browser(page, base: str, name: str, password: str = "correct horse battery"):
    page.goto(base + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.fill("input[name=password2]", password)
    page.click("button[type=submit]")
    page.wait_for_selector(f'[data-user="{name}"]')


def wait_ply_change(page, old: str, timeout: float = 15000) -> str:
    page.wait_for_function(
        "old => document.getElementById('play').dataset.ply !== old", arg=old, timeout=timeout
    )
    return page.get_attribute("#play", "data-ply")


def legal_moves(page) -> list[str]:
    """The legal moves the page was sent (the all-moves list under the board)."""
    return page.eval_on_selector_all(
        ".all-moves .move-choice", "els => els.map(e => e.dataset.move)"
    )


def click_cell(page, cell: str) -> None:
    """Click the middle of a cell, as a person would (hitting whatever piece stands on it)."""
    box = page.locator(f'#board [data-cell="{cell}"].cell').first.bounding_box()
    assert box is not None, f"cell {cell} is not on the board"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def check_screenshot(page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    assert page.locator("#board svg.board").count() == 1


MY_TURN_OR_END = (
    "() => document.getElementById('status').classList.contains('your-turn')"
    " || document.getElementById('play').dataset.status === 'finished'"
)


def wait_my_turn_or_end(page, timeout: float = 20000) -> None:
    page.wait_for_function(MY_TURN_OR_END, timeout=timeout)


def create(page, base: str, game: str, seats: list[tuple[str, str]], players: int | None = None):
    """Create a game on the new-game page as a person does (``seats``: kind and user or
    level per seat); returns its number once the game page is live."""
    page.goto(f"{base}/games/new?game={game}")
    if players is not None:
        page.select_option("#players-select", str(players))
    for i, (kind, extra) in enumerate(seats):
        page.select_option(f'select[name="seat{i}"]', kind)
        if kind == "user":
            page.fill(f'input[name="seat{i}_user"]', extra)
        if kind == "bot":
            page.select_option(f'select[name="seat{i}_bot"]', extra)
    page.click("#create")
    page.wait_for_selector("#play[data-synced='1']")
    return int(page.get_attribute("#play", "data-id"))


AGAINST_RANDOM = [("me", ""), ("bot", "random")]
