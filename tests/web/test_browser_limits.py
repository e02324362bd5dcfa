"""The limits as a person meets them in a real headless Chromium: the game page sends the ply
it showed with every move and resignation; a refused new game shows why on the form; and a
game waiting for players can be cancelled from its page."""

from __future__ import annotations

import contextlib
import json

from ludoteca.web.round.quotas import OPEN_GAMES_PER_USER
from tests.web.browser import create
from tests.web.test_browser import club, new_user  # noqa: F401 - ``club`` is a fixture


def sent_frames(page) -> list[dict]:
    """Every JSON message the page sends over its websockets, as they go."""
    frames: list[dict] = []

    def watch(ws) -> None:
        def sent(payload) -> None:
            with contextlib.suppress(TypeError, ValueError):  # not JSON: not ours to check
                frames.append(json.loads(payload))

        ws.on("framesent", sent)

    page.on("websocket", watch)
    return frames


def test_the_page_sends_its_ply_with_moves_and_resignation(browser, club):  # noqa: F811
    ctx_a, a, _ = new_user(browser, club.base, "pa")
    ctx_b, b, _ = new_user(browser, club.base, "pb")
    frames_a, frames_b = sent_frames(a), sent_frames(b)
    pk = create(a, club.base, "kuniumi", [("me", ""), ("open", "")])
    b.goto(club.base + "/")
    b.locator(f'[data-game-id="{pk}"] button.join').click()
    b.wait_for_selector("#play[data-synced='1']")
    a.wait_for_function("() => document.getElementById('play').dataset.status === 'active'")
    shown = a.get_attribute("#play", "data-ply")
    a.locator(".all-moves .move-choice").first.dispatch_event("click")
    a.wait_for_function(
        "old => document.getElementById('play').dataset.ply !== old", arg=shown, timeout=15000
    )
    moves = [f for f in frames_a if f.get("type") == "move"]
    assert moves and moves[0]["ply"] == int(shown)
    b.wait_for_function(
        "old => document.getElementById('play').dataset.ply !== old", arg=shown, timeout=15000
    )
    now = b.get_attribute("#play", "data-ply")
    b.once("dialog", lambda dialog: dialog.accept())
    b.click("#resign")
    for page in (a, b):
        page.wait_for_function(
            "() => document.getElementById('play').dataset.status === 'finished'", timeout=15000
        )
        assert "resigned" in page.inner_text("#status")
    resignations = [f for f in frames_b if f.get("type") == "resign"]
    assert resignations and resignations[0]["ply"] == int(now)
    ctx_a.close()
    ctx_b.close()


def test_a_refused_new_game_says_why_and_a_waiting_game_can_be_cancelled(browser, club):  # noqa: F811
    ctx, page, _ = new_user(browser, club.base, "pc")
    games = [
        create(page, club.base, "kuniumi", [("me", ""), ("open", "")])
        for _ in range(OPEN_GAMES_PER_USER)
    ]
    page.goto(f"{club.base}/games/new?game=kuniumi")
    page.select_option('select[name="seat1"]', "open")
    page.click("#create")
    page.wait_for_selector("p.error")
    assert "games waiting for players" in page.inner_text("p.error")
    assert page.locator("#new-game").count() == 1  # the form is there to try again
    page.goto(f"{club.base}/games/{games[0]}")
    page.click("#cancel")
    page.wait_for_url(f"{club.base}/")
    assert page.locator(f'[data-game-id="{games[0]}"]').count() == 0
    assert page.locator(f'[data-game-id="{games[1]}"]').count() >= 1
    create(page, club.base, "kuniumi", [("me", ""), ("open", "")])  # room again
    ctx.close()
