"""What changes on a page while a person looks at it, in Chromium against a real server: a
rematch offer appears on the opponent's finished game, the player who offered is taken to
the new game once it is accepted, the lobby shows a new challenge; the chat keeps a line the
rate limit refused and counts the wait down, offers *report* only on others' lines, and
shows times on the reader's clock."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest

from tests.web.helpers import member, page_csrf, started_club

from .helpers import accepted, challenge, finish

_names = itertools.count(1)
SHOWN = "t => [...document.querySelectorAll('#chat-lines .body')].some(e => e.textContent === t)"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "live-browser")
    yield srv
    srv.kill()


def in_browser(browser, base: str, client, **context):
    """A page signed in as ``client`` (its session cookie handed to the browser)."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, **context)
    ctx.add_cookies([{"name": k, "value": v, "url": base} for k, v in client.cookies.items()])
    return ctx, ctx.new_page()


def test_rematch_offer_and_lobby_challenges_are_live(browser, club):
    n = next(_names)
    alice, bob, carol = (member(club.base, f"lv{x}{n}") for x in "abc")
    game = accepted(alice, bob, seat="first")
    finish(alice, bob, game)
    ctx_a, page_a = in_browser(browser, club.base, alice)
    ctx_b, page_b = in_browser(browser, club.base, bob)
    ctx_c, page_c = in_browser(browser, club.base, carol)
    try:
        for page in (page_a, page_b):
            page.goto(f"{club.base}/games/{game}")
            page.wait_for_selector("#rematch-button")
        page_c.goto(club.base + "/")
        assert page_c.is_hidden("#lobby-challenges")
        page_b.wait_for_function("() => window.WebSocket && document.getElementById('bell')")
        page_b.wait_for_timeout(300)  # the bell's socket is open
        page_a.click("#rematch-button")
        page_a.wait_for_selector("#rematch-waiting")
        page_b.wait_for_selector("#rematch-offer", timeout=10000)  # no reload
        assert page_b.inner_text("#rematch-button") == "Accept the rematch"
        page_b.click("#rematch-button")
        page_b.wait_for_url(f"{club.base}/games/*")
        new = page_b.url
        assert new != f"{club.base}/games/{game}"
        page_a.wait_for_url(new, timeout=10000)  # the offerer follows to the new game
        # The lobby hears of a new challenge.
        page_c.wait_for_timeout(300)
        assert challenge(alice, carol.name).status_code == 303
        page_c.wait_for_selector("#lobby-challenges li.challenge.incoming", timeout=10000)
        assert alice.name in page_c.inner_text("#lobby-challenges")
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            ctx.close()


def test_chat_keeps_a_refused_line_and_counts_down(browser, club):
    from ludoteca.web.chat.service import NEW_LINES

    n = next(_names)
    alice, bob = member(club.base, f"ca{n}"), member(club.base, f"cb{n}")  # new accounts
    game = accepted(alice, bob, seat="first")
    assert (
        bob.post(
            f"/api/games/{game}/chat",
            json={"text": "hello from bob"},
            headers={"X-CSRF-Token": page_csrf(bob)},
        ).status_code
        == 200
    )
    ctx, page = in_browser(browser, club.base, alice, timezone_id="Asia/Tokyo")
    try:
        page.goto(f"{club.base}/games/{game}")
        page.wait_for_selector("#chat[data-loaded]")
        page.wait_for_selector("#play[data-live='1']")
        for i in range(NEW_LINES[0]):
            page.fill("#chat-form input[name=text]", f"line {i}")
            page.click("#chat-form button[type=submit]")
            page.wait_for_function(SHOWN, arg=f"line {i}")
            assert page.input_value("#chat-form input[name=text]") == ""
        page.fill("#chat-form input[name=text]", "one line too many")
        page.click("#chat-form button[type=submit]")
        page.wait_for_selector("#chat-note[data-wait]:not([hidden])")
        first = int(page.get_attribute("#chat-note", "data-wait"))
        assert 0 < first <= NEW_LINES[1]
        assert page.input_value("#chat-form input[name=text]") == "one line too many"
        assert page.is_disabled("#chat-form button[type=submit]")
        page.wait_for_function(
            "n => Number(document.getElementById('chat-note').dataset.wait) < n", arg=first
        )  # it counts down
        assert f"{int(page.get_attribute('#chat-note', 'data-wait'))} s" in page.inner_text(
            "#chat-note"
        )
        # report only on the other person's line
        mine = page.locator("#chat-lines .chat-line", has_text="line 0")
        theirs = page.locator("#chat-lines .chat-line", has_text="hello from bob")
        assert mine.locator(".report").count() == 0 and theirs.locator(".report").count() == 1
        # times on the reader's clock (Tokyo, UTC+9), the UTC moment kept in datetime
        stamp = theirs.locator("time")
        utc = datetime.fromisoformat(stamp.get_attribute("datetime").rstrip("Z"))
        tokyo = utc + timedelta(hours=9)
        assert stamp.inner_text() in (tokyo.strftime("%H:%M"), tokyo.strftime("%I:%M %p"))
    finally:
        ctx.close()
