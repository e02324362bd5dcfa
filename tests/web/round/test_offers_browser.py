"""Offers answered live between two people in two browsers: an abort declined, a takeback
accepted (the board goes back on both pages), a draw accepted (the game ends drawn on
both), the open offer looked at on a phone, and the page clean for axe-core; and a page
that keeps its socket while the moves come faster than a person plays (the offers asked
for once a moment, not once a move)."""

from __future__ import annotations

import itertools
import random

from tests.web.a11y import violations
from tests.web.drawn import clipped_text
from tests.web.helpers import create_game, join, legal_texts, member, move, view

_names = itertools.count(1)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CUT_WORDS = """() => [...document.querySelectorAll('table th, table td')].filter(cell => {
  const text = cell.textContent.trim();
  if (!text || /\\s/.test(text)) return false;  // one word: it must take one line
  const range = document.createRange();
  range.selectNodeContents(cell);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
}).map(cell => cell.textContent.trim())"""


def _page(browser, base: str, client, viewport):
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    cookie = client.cookies.get("ludoteca_session")
    context.add_cookies([{"name": "ludoteca_session", "value": cookie, "url": base}])
    page = context.new_page()
    return context, page


def _game_of_two(base: str, game: str, prefix: str):
    """Two new members, ann and bob, and a game of ``game`` between them that bob has joined."""
    ann = member(base, f"{prefix}ann{next(_names)}")
    bob = member(base, f"{prefix}bob{next(_names)}")
    pk = create_game(ann, game, [("me", ""), ("user", bob.name)])
    assert join(bob, pk).status_code == 303
    return ann, bob, pk


def test_abort_takeback_and_draw_are_offered_and_answered_live(server, browser, tmp_path):
    base = server.base
    ann, bob, pk = _game_of_two(base, "toy", "off")
    ctx_a, a = _page(browser, base, ann, DESKTOP)
    ctx_b, b = _page(browser, base, bob, PHONE)
    try:
        for page in (a, b):
            page.goto(f"{base}/games/{pk}")
            page.wait_for_selector("#play[data-synced='1']")
        # abort: offered by ann before anyone moved, declined by bob
        a.click("#offer-buttons [data-offer=abort]")
        b.click(".offer[data-kind=abort] [data-answer=decline]")
        a.wait_for_selector(".offer[data-kind=abort]", state="detached")
        a.wait_for_selector("#offer-buttons [data-offer=abort]", state="hidden")  # paused
        # takeback: whoever moves first asks for it, the other accepts
        seats = view(ann, pk)["seats"]
        mover, mover_page, other_page = (
            (ann, a, b) if seats[view(ann, pk)["to_move"]]["you"] else (bob, b, a)
        )
        before = view(mover, pk)["ply"]
        assert move(mover, pk, "a1").status_code == 200
        mover_page.wait_for_function(
            "p => Number(document.getElementById('play').dataset.ply) > p", arg=before
        )
        mover_page.click("#offer-buttons [data-offer=takeback]")
        other_page.click(".offer[data-kind=takeback] [data-answer=accept]")
        for page in (a, b):
            page.wait_for_function(
                "p => document.getElementById('play').dataset.ply === String(p)", arg=before
            )
        # draw: offered by the mover, seen on the phone, accepted there
        mover_page.click("#offer-buttons [data-offer=draw]")
        accept = other_page.locator(".offer[data-kind=draw] [data-answer=accept]")
        accept.wait_for()
        for page, size in ((a, DESKTOP), (b, PHONE)):  # drawn inside the screen, text unclipped
            for button in page.locator("#offers button:visible").all():
                box = button.bounding_box()
                assert (
                    box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
                )
            assert clipped_text(page, "#offers") == []
        b.screenshot(path=str(tmp_path / "offers-phone.png"), full_page=False)
        a.screenshot(path=str(tmp_path / "offers-desktop.png"), full_page=False)
        assert violations(a) == [] and violations(b) == []
        accept.click()
        for page in (a, b):
            page.wait_for_selector("#play[data-status='finished']")
            page.wait_for_selector("#offers", state="hidden")
        assert view(ann, pk)["result"]["ended"] == "agreement"
        record = ann.get(f"/games/{pk}/record.json").json()
        assert [e["action"] for e in record["offers"]] == [
            "offered",
            "declined",
            "offered",
            "accepted",
            "agreed",
            "offered",
            "accepted",
            "agreed",
        ]
        replay = ann.get(f"/games/{pk}/replay").text
        assert "offered to abort the game" in replay and "The draw was agreed" in replay
        assert "Taken back: a1" in replay
        # the history and the vacation form on the profile, on a phone and a desktop
        a.goto(f"{base}/users/{ann.name}?result=draw#games")
        assert a.locator(f'#recent-games [data-game-id="{pk}"]').count() == 1
        b.goto(f"{base}/users/{bob.name}")
        b.fill("#vacation-days", "3")
        b.click("#start-vacation")
        b.wait_for_selector("#on-vacation")
        assert b.locator("#start-vacation").count() == 0  # one vacation at a time
        for page, size in ((a, DESKTOP), (b, PHONE)):
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], width  # nothing wider than the screen
            assert violations(page) == []
        # the profile's tables on a phone in German (long words): none cut in two
        b.goto(f"{base}/users/{bob.name}?lang=de")
        assert b.locator("#profile-counts th").count() == 5
        assert b.evaluate(CUT_WORDS) == []
        assert b.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        b.locator("#games").scroll_into_view_if_needed()
        b.screenshot(path=str(tmp_path / "history-phone.png"), full_page=True)
        a.screenshot(path=str(tmp_path / "history-desktop.png"), full_page=False)
    finally:
        ctx_a.close()
        ctx_b.close()
        ann.close()
        bob.close()


def test_a_page_keeps_its_socket_while_moves_arrive_faster_than_a_person_plays(server, browser):
    """A computer's turn can be dozens of moves in a second (Hexagone's rolls, swaps and a
    reform's placements). The page asked the server for the offers open at every move it was
    shown, each a message on the socket, so such a turn took it past the socket's 20 messages
    a second: the server closed it as flooding, and the second time paused the address for
    ten seconds. Here two members' moves are sent as fast as the club takes them while one
    member's page looks on: its socket stays open, it shows no refusal and it shows the last
    move, its offers asked for again once the moves stop."""
    base = server.base
    ann, bob, pk = _game_of_two(base, "comune", "fast")
    context, page = _page(browser, base, ann, DESKTOP)
    closed: list[str] = []
    page.on("websocket", lambda ws: ws.on("close", lambda _: closed.append(ws.url)))
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    rng = random.Random(3)
    try:
        page.goto(f"{base}/games/{pk}")
        page.wait_for_selector("#play[data-live='1'][data-synced='1']")
        by_seat = {s["index"]: (ann if s["you"] else bob) for s in view(ann, pk)["seats"]}
        for _ in range(40):
            now = view(ann, pk)
            if now["status"] != "active":
                break
            player = by_seat[now["to_move"]]
            texts = [t for t in legal_texts(view(player, pk)) if t != "pass"] or ["pass"]
            assert move(player, pk, rng.choice(texts), ply=now["ply"]).status_code == 200
        last = view(ann, pk)["ply"]
        assert last >= 25
        page.wait_for_function(
            "p => document.getElementById('play').dataset.ply === String(p)", arg=last
        )
        page.wait_for_timeout(1000)  # a trailing ask for the offers, and any close, arrive
        assert closed == [] and page.get_attribute("#play", "data-live") == "1"
        assert (page.locator("#message").text_content() or "").strip() == ""
        asks = [frame for frame in sent if '"offer"' in frame]
        assert 1 <= len(asks) <= 12, len(asks)  # once a moment, not once for each of the moves
    finally:
        context.close()
        ann.close()
        bob.close()
