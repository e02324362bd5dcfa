"""The community in Chromium, against a real server with a real SMTP server: a challenge is
sent from a profile, notified live under the bell, accepted and played by clicking; the two
players chat while a third person watches and sees only the spectators' channel; played
live on the game's page, a correspondence game sends no turn e-mail and shows no "your
turn" notices; after the game everyone sees both channels."""

from __future__ import annotations

import itertools
import random
import re
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.web.browser import click_cell, register_in_browser
from tests.web.helpers import Server, create_game, play_randomly, register

from .smtp import smtp  # noqa: F401 - fixture

_names = itertools.count(1)


@pytest.fixture(scope="module")
def mail_club(tmp_path_factory, smtp):  # noqa: F811
    tmp = tmp_path_factory.mktemp("community-browser")
    srv = Server(
        f"sqlite:///{tmp / 'club.sqlite3'}",
        log=tmp / "server.log",
        options=(f"--smtp={smtp.url}", "--turn-mail-delay=2"),
    ).start()
    srv.database = f"sqlite:///{tmp / 'club.sqlite3'}"  # type: ignore[attr-defined]
    yield srv
    srv.kill()


def waiting_turn_mails(url: str) -> int:
    """Turn e-mails the server has not yet sent or dropped."""
    engine = create_engine(url)
    with engine.connect() as conn:
        found = conn.execute(
            text("SELECT count(*) FROM mail_outbox WHERE kind = 'turns' AND sent IS NULL")
        ).scalar_one()
    engine.dispose()
    return int(found)


def person(browser, base: str, prefix: str):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    name = f"{prefix}{next(_names)}"
    register_in_browser(page, base, name)
    return context, page, name


def chat_bodies(page) -> list[str]:
    return page.eval_on_selector_all(
        "#chat-lines .chat-line .body", "els => els.map(e => e.textContent)"
    )


def say(page, text: str) -> None:
    page.fill("#chat-form input[name=text]", text)
    page.click("#chat-form button[type=submit]")
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-lines .body')].some(e => e.textContent === t)",
        arg=text,
    )


def test_challenge_chat_and_e_mail_in_the_browser(browser, mail_club, smtp):  # noqa: F811
    base = mail_club.base
    ctx_a, alice, name_a = person(browser, base, "ba")
    ctx_b, bob, name_b = person(browser, base, "bb")
    ctx_c, carol, _ = person(browser, base, "bc")
    # bob wants e-mail, and confirms his address with the link mailed to it.
    before = len(smtp.messages)
    bob.goto(base + "/settings/notifications")
    bob.fill("input[name=email]", "bob@example.org")
    bob.click("#prefs button[type=submit]")
    bob.wait_for_selector("#confirm-sent")
    mail = smtp.wait_for(before + 1)[before].get_payload(decode=True).decode()
    bob.goto(re.search(r"http://\S+/confirm-email/\S+", mail).group(0))
    bob.click("#confirm-email")
    bob.wait_for_selector("#confirmed")
    bob.goto(base + "/")
    # alice challenges bob from his profile, by correspondence.
    alice.goto(f"{base}/users/{name_b}")
    alice.click("#challenge-user")
    assert alice.input_value("input[name=name]") == name_b
    alice.select_option("select[name=game]", "toy")
    alice.select_option("select[name=seat]", "first")
    alice.select_option("select[name=clock]", "correspondence")
    alice.click("#challenge-form button[type=submit]")
    alice.wait_for_selector("#sent")
    # bob's bell rings without a reload, and a notice links to the challenge.
    bob.wait_for_selector("#bell-count:not([hidden])")
    assert bob.inner_text("#bell-count") == "1"
    bob.click(".toast a")
    bob.wait_for_url(base + "/challenges")
    bob.click("#incoming .accept")
    bob.wait_for_selector("#play[data-synced='1']")
    game = int(bob.get_attribute("#play", "data-id"))
    # alice is told too, and follows the link.
    alice.wait_for_selector(".toast a")
    alice.click(".toast a")
    alice.wait_for_selector("#play[data-synced='1']")
    assert alice.get_attribute("#play", "data-id") == str(game)
    carol.goto(f"{base}/games/{game}")
    carol.wait_for_selector("#play[data-synced='1']")
    for page in (alice, bob, carol):
        page.wait_for_selector("#chat[data-loaded='1']")
    # Players talk; the spectator talks in her own channel.
    say(alice, "hello bob")
    bob.wait_for_function(
        "() => document.querySelector('#chat-lines .body')?.textContent === 'hello bob'"
    )
    say(carol, "bob is lost")
    say(bob, "hi alice")
    alice.wait_for_function(
        "t => [...document.querySelectorAll('#chat-lines .body')].some(e => e.textContent === t)",
        arg="hi alice",
    )
    assert chat_bodies(alice) == ["hello bob", "hi alice"]
    assert chat_bodies(bob) == ["hello bob", "hi alice"]
    assert chat_bodies(carol) == ["bob is lost"]
    # Play by clicking, both on the game's page: bob's correspondence turns are shown, not
    # announced, and not e-mailed to him (he is there).
    rng = random.Random(3)
    before = len(smtp.messages)
    for _ in range(12):
        if alice.get_attribute("#play", "data-status") == "finished":
            break
        mover = next(
            (p for p in (alice, bob) if "your-turn" in (p.get_attribute("#status", "class") or "")),
            None,
        )
        if mover is None:
            alice.wait_for_timeout(100)
            continue
        ply = mover.get_attribute("#play", "data-ply")
        targets = mover.eval_on_selector_all(
            "#board .cell.target", "els => els.map(e => e.dataset.cell)"
        )
        click_cell(mover, rng.choice(targets))
        mover.wait_for_function("p => document.getElementById('play').dataset.ply !== p", arg=ply)
    alice.wait_for_function("() => document.getElementById('play').dataset.status === 'finished'")
    assert bob.locator(".toast[data-kind=turn]").count() == 0
    assert alice.locator(".toast[data-kind=turn]").count() == 0
    deadline = time.monotonic() + 15
    while waiting_turn_mails(mail_club.database) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert waiting_turn_mails(mail_club.database) == 0
    assert not any("Your turn" in str(m["Subject"]) for m in smtp.messages[before:])
    # Over: both channels for everyone, loaded without a reload.
    for page in (alice, carol):
        page.wait_for_function(
            "() => document.querySelectorAll('#chat-lines .chat-line').length === 3", timeout=10000
        )
    assert chat_bodies(carol) == ["hello bob", "bob is lost", "hi alice"]
    # The rematch button appears for the players, not for the spectator.
    alice.wait_for_selector("#rematch-button")
    assert carol.locator("#rematch:not([hidden])").count() == 0
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()


def test_rematch_against_the_computer_starts_at_once(mail_club):
    client = httpx.Client(base_url=mail_club.base, timeout=20)
    assert register(client, f"rb{next(_names)}").status_code == 303
    game = create_game(client, "toy", [("me", ""), ("bot", "random")])
    assert play_randomly(client, game, random.Random(1), seconds=30)["status"] == "finished"
    from tests.web.helpers import page_csrf

    r = client.post(
        f"/games/{game}/rematch", data={"csrf": page_csrf(client)}, follow_redirects=False
    )
    new = int(r.headers["location"].rsplit("/", 1)[1])
    seats = client.get(f"/api/games/{new}").json()["seats"]
    assert new != game and [s["kind"] for s in seats] == ["bot", "user"]
    client.close()
