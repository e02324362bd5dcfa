"""Notifications against a real server: the bell's count live over ``/ws/me``, a
correspondence turn, a game's end and a forum reply notify; e-mail for turns and
challenges reaches a real SMTP server with a one-click unsubscribe link that works;
settings are refused without an SMTP server or with a bad address."""

from __future__ import annotations

import asyncio
import itertools
import json
import re

import httpx
import pytest

from tests.web.helpers import Server, member, move, page_csrf, view

from .helpers import challenge, form, notes, pending_ids
from .smtp import smtp  # noqa: F401 - fixture

_names = itertools.count(1)


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory, smtp):  # noqa: F811
    tmp = tmp_path_factory.mktemp("mailclub")
    srv = Server(
        f"sqlite:///{tmp / 'club.sqlite3'}", log=tmp / "server.log", options=(f"--smtp={smtp.url}",)
    ).start()
    yield srv
    srv.kill()


def person(server) -> httpx.Client:
    return member(server.base, f"nt{next(_names)}")


def set_email(client, address: str, turns: bool = True, challenges: bool = True):
    data = {"email": address}
    if turns:
        data["email_turns"] = "on"
    if challenges:
        data["email_challenges"] = "on"
    return form(client, "/settings/notifications", "/settings/notifications", **data)


def correspondence_game(a, b) -> int:
    challenge(a, b.name, seat="first", clock="correspondence", clock_days="3")
    [pk] = pending_ids(b, "incoming")
    r = form(b, f"/challenges/{pk}/accept", "/challenges")
    return int(r.headers["location"].rsplit("/", 1)[1])


def test_turns_and_challenges_are_e_mailed_and_unsubscribe_works(mail_server, smtp):  # noqa: F811
    alice, bob = person(mail_server), person(mail_server)
    assert set_email(bob, "not an address").status_code == 400
    before = len(smtp.messages)
    assert set_email(bob, "bob@example.org").status_code == 303
    assert 'value="bob@example.org"' in bob.get("/settings/notifications").text
    confirmation = smtp.wait_for(before + 1)[before]  # only the link goes to a new address
    link = re.search(
        r"http://\S+/confirm-email/\S+", confirmation.get_payload(decode=True).decode()
    )
    assert httpx.post(link.group(0)).status_code == 200
    before = len(smtp.messages)
    game = correspondence_game(alice, bob)
    invite = smtp.wait_for(before + 1)[before]  # the challenge comes first
    assert invite["To"] == "bob@example.org"
    assert f"{alice.name} challenges you" in invite["Subject"]
    bob_first = view(bob, game)["your_turn"]  # the coin toss: then his turn is e-mailed too
    smtp.wait_for(before + (2 if bob_first else 1))
    # A move by whoever is to move; when bob is next, he is told by e-mail.
    for _ in range(4):
        state = view(alice, game)
        mover = alice if state["your_turn"] else bob
        before = len(smtp.messages)
        assert move(mover, game, view(mover, game)["legal"][0]["text"]).status_code == 200
        if mover is alice:
            break
    turn = smtp.wait_for(before + 1)[-1]
    assert "Your turn" in turn["Subject"]
    body = turn.get_payload(decode=True).decode()
    assert f"{mail_server.base}/games/{game}" in body
    unsubscribe = re.search(r"<([^>]+)>", turn["List-Unsubscribe"]).group(1)
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in body
    # Opening the link changes nothing; the one-click POST (no log-in, no token) does.
    assert httpx.get(unsubscribe).status_code == 200
    assert 'name="email_turns" checked' in bob.get("/settings/notifications").text
    forged = unsubscribe[:-4] + "0000"
    assert httpx.post(forged, data={"List-Unsubscribe": "One-Click"}).status_code == 404
    r = httpx.post(unsubscribe, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200 and "no more e-mail" in r.text
    assert 'name="email_turns" checked' not in bob.get("/settings/notifications").text
    # The bell still tells him; e-mail no longer does.
    before_notes = notes(bob)["items"][0]["id"]
    for _ in range(4):
        state = view(alice, game)
        if state["status"] != "active":
            break
        mover = alice if state["your_turn"] else bob
        move(mover, game, view(mover, game)["legal"][0]["text"])
        if mover is alice:
            break
    newest = notes(bob)["items"][0]
    assert newest["id"] > before_notes and newest["kind"] == "turn" and not newest["read"]
    sent = len(smtp.messages)
    import time

    time.sleep(3)  # longer than the sender's poll
    assert len(smtp.messages) == sent


def test_the_bell_is_live_over_the_socket(mail_server):
    import websockets

    alice, bob = person(mail_server), person(mail_server)
    cookie = "; ".join(f"{k}={v}" for k, v in bob.cookies.items())
    url = mail_server.base.replace("http", "ws") + "/ws/me"

    async def listen() -> list[dict]:
        got = []
        async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await asyncio.to_thread(challenge, alice, bob.name)
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return got

    first, second = asyncio.run(listen())
    assert first == {"type": "unread", "unread": 0}
    assert second["type"] == "notification" and second["unread"] == 1
    assert f"{alice.name} challenges you" in second["item"]["text"]
    assert 'id="bell-count"' in bob.get("/").text
    # The page shows them; its button marks them read and the count goes back to zero.
    assert f"{alice.name} challenges you" in bob.get("/notifications").text
    assert notes(bob)["unread"] == 1
    assert form(bob, "/notifications/read", "/notifications").status_code == 303
    assert notes(bob)["unread"] == 0
    # A visitor's socket is closed at once.

    async def visitor() -> int:
        async with websockets.connect(url) as ws:
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except websockets.ConnectionClosed as exc:
                return exc.rcvd.code if exc.rcvd else 0
        return 0

    assert asyncio.run(visitor()) == 4401


def test_a_game_end_and_a_forum_reply_notify(mail_server):
    alice, bob = person(mail_server), person(mail_server)
    r = alice.post(
        "/forum/general/new",
        data={"csrf": page_csrf(alice, "/forum"), "title": "Openings", "body": "Which?"},
        follow_redirects=False,
    )
    thread = int(r.headers["location"].rsplit("/", 1)[1].split("?")[0])
    bob.post(
        f"/forum/thread/{thread}/reply",
        data={"csrf": page_csrf(bob, "/forum"), "body": "The centre."},
    )
    item = notes(alice)["items"][0]
    assert item["kind"] == "reply" and bob.name in item["text"] and "Openings" in item["text"]
    # Their own replies do not notify them.
    alice.post(
        f"/forum/thread/{thread}/reply",
        data={"csrf": page_csrf(alice, "/forum"), "body": "Thanks."},
    )
    assert notes(alice)["items"][0]["id"] == item["id"]


def test_no_smtp_no_e_mail_settings(server, make_user):
    alice = make_user("ns")
    page = alice.get("/settings/notifications").text
    assert "sends no e-mail" in page and 'name="email"' not in page
    r = form(alice, "/settings/notifications", "/settings/notifications", email="a@b.org")
    assert r.status_code == 409 and "no SMTP server" in r.text
    assert form(alice, "/settings/notifications", "/settings/notifications").status_code == 303
    assert httpx.get(server.base + "/notifications", follow_redirects=False).status_code == 303
    assert httpx.get(server.base + "/api/notifications").status_code == 401
