"""Several people in Chromium join a Swiss and an arena on a real server, play through to
the podium (each next game opening by itself), and the tournament page is drawn as it
should be on a desktop and a phone, with nothing for axe-core to object to."""

from __future__ import annotations

import re
import sqlite3
import time

from playwright.sync_api import Error as PlaywrightError

from tests.web.a11y import violations
from tests.web.browser import register_in_browser
from tests.web.helpers import started_club

GAME_PATH = re.compile(r"/games/(\d+)$")


def game_of(page) -> int | None:
    found = GAME_PATH.search(page.url)
    return int(found.group(1)) if found else None


def play_one_game(pages: dict, done: set[int], before_resigning=lambda: None) -> int:
    """Wait until two pages have opened the same new game by themselves, and let the first
    of them (by name) resign it from its board's Resign button."""
    game, names = wait_paired(pages, done)
    before_resigning()
    page = pages[names[0]]
    page.locator("#resign").click(timeout=10000)
    deadline = time.monotonic() + 30
    while not finished_or_moved_on(page, game):  # an arena may open the next game at once
        assert time.monotonic() < deadline, f"game {game} did not end"
        page.wait_for_timeout(100)
    done.add(game)
    return game


def finished_or_moved_on(page, game: int) -> bool:
    try:
        return game_of(page) != game or page.locator("#play[data-status=finished]").count() > 0
    except PlaywrightError:  # the page was navigating meanwhile
        return False


def wait_paired(pages: dict, done: set[int], timeout: float = 20) -> tuple[int, list[str]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at: dict[int, list[str]] = {}
        for name, page in sorted(pages.items()):
            game = game_of(page)
            if game is not None and game not in done:
                at.setdefault(game, []).append(name)
        for game, names in at.items():
            if len(names) == 2:
                return game, names
        next(iter(pages.values())).wait_for_timeout(100)  # (lets Playwright hear of pages)
    raise AssertionError(f"no game opened by itself: {[p.url for p in pages.values()]}")


def create(page, base: str, name: str, form: str, **fields: str) -> str:
    page.goto(base + "/tournaments")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", "toy")
    page.select_option("select[name=form]", form)
    page.fill("input[name=starts_in]", "60")
    page.select_option("select[name=clock]", "live")  # 3 minutes + 2 s a move
    for key, value in fields.items():
        page.fill(f"input[name={key}]", value)
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    return page.url


def check_podium(page, shots, label: str, places: int) -> None:
    page.wait_for_selector("#podium li", timeout=15000)
    assert page.locator("#podium li").count() == places
    width = page.viewport_size["width"]
    for box in page.locator("#podium li, #standings").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert box["width"] > 0 and box["height"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"{label}.png"), full_page=True)


LONG_NAME = "Quick Swiss of the Thursday evening club night, open to everyone"


def check_list_on_phone(page, base: str, shots) -> None:
    """A long tournament name wraps in the list, so that on a phone the columns after it
    (the game, the format) are still in view, not pushed behind a sideways scroll."""
    page.goto(base + "/tournaments")
    row = page.locator("table.tournament-list tr", has_text=LONG_NAME)
    cells = row.locator("td").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    )
    width = page.viewport_size["width"]
    assert cells[0]["height"] > 48, cells[0]  # the name takes several lines (one: 32 px)
    assert cells[2]["x"] + cells[2]["width"] <= width, cells  # the format is in view
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.screenshot(path=str(shots / "list-phone.png"), full_page=True)


def test_people_play_a_swiss_and_an_arena_to_the_podium(browser, tmp_path_factory):
    club = started_club(tmp_path_factory, "tournaments")
    shots = tmp_path_factory.mktemp("tournament-shots")
    contexts, pages = [], {}
    try:
        for name in ("ada", "ben", "cy"):
            ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            register_in_browser(page, club.base, name)
            pages[name] = page
        swiss = create(pages["ada"], club.base, LONG_NAME, "swiss", rounds="2")
        for name in ("ben", "cy"):
            pages[name].goto(swiss)
            pages[name].click("#join")
            pages[name].wait_for_selector("#withdraw")
        pages["ada"].goto(swiss)
        pages["ada"].click("#start-now")
        done: set[int] = set()
        for _ in range(2):  # three players, two rounds: one game and one bye a round
            play_one_game(pages, done)
        page = pages["cy"]
        page.goto(swiss)
        check_podium(page, shots, "swiss-desktop", 3)
        standings = page.locator("#standings tbody tr").all_inner_texts()
        assert len(standings) == 3
        byes = page.locator(".pairings li", has_text="bye").count()
        assert byes == 2
        assert violations(page) == []
        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True
        )
        contexts.append(phone)
        small = phone.new_page()
        small.goto(swiss)
        check_podium(small, shots, "swiss-phone", 3)
        check_list_on_phone(small, club.base, shots)

        arena = create(pages["ben"], club.base, "Quick arena", "arena", minutes="1")
        pages["ada"].goto(arena)
        pages["ada"].click("#join")
        pages["ada"].wait_for_selector("#withdraw")
        pages["ben"].goto(arena)
        pages["ben"].click("#start-now")
        arena_pages = {name: pages[name] for name in ("ada", "ben")}
        play_one_game(arena_pages, done)
        database = club.url.removeprefix("sqlite:///")

        def time_is_up() -> None:  # while the game is played: it is played out, then the end
            with sqlite3.connect(database) as db:
                db.execute("UPDATE tournaments SET ends = created WHERE name = 'Quick arena'")

        play_one_game(arena_pages, done, time_is_up)  # paired again at once, from a game page
        page = pages["ada"]
        page.goto(arena)
        check_podium(page, shots, "arena-desktop", 2)
        assert page.locator("#status").inner_text().lower().startswith("finished")
        assert violations(page) == []
    finally:
        for ctx in contexts:
            ctx.close()
        club.kill()
