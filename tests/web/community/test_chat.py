"""Game chat against a real server, over the game's own websocket: players and spectators
each have a channel and never see the other's during the game; both are kept with the game
and shown beside the replay; a player can mute the spectators; blocks hide lines; hostile
text stays text; writing is rate-limited; a reported line can be hidden by a moderator."""

from __future__ import annotations

import asyncio
import json

import pytest

from ludoteca.cli.main import main as cli
from tests.web.helpers import page_csrf

from .helpers import accepted, api, finish, form

XSS = '<script>alert(1)</script><img src=x onerror="alert(2)">'


class Socket:
    """A game websocket with a person's cookies, collecting the chat lines it is sent."""

    def __init__(self, server, client, pk: int) -> None:
        self.url = server.base.replace("http", "ws") + f"/ws/games/{pk}"
        self.csrf = page_csrf(client, "/login")  # a visitor's page has one too
        self.cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        self.lines: list[dict] = []
        self.errors: list[str] = []

    async def __aenter__(self):
        import websockets

        self.ws = await websockets.connect(self.url, additional_headers={"Cookie": self.cookie})
        await self.until(lambda m: m.get("type") == "state")
        return self

    async def __aexit__(self, *exc):
        await self.ws.close()

    async def until(self, done, seconds: float = 10) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), seconds))
            if message.get("type") == "chat":
                self.lines.append(message["line"])
            if message.get("type") == "error":
                self.errors.append(message["message"])
            if done(message):
                return message

    async def say(self, text: str) -> None:
        await self.ws.send(json.dumps({"type": "chat", "text": text, "csrf": self.csrf}))

    async def said(self, text: str) -> dict:
        await self.say(text)
        return await self.heard(text)

    async def heard(self, text: str) -> dict:
        return await self.until(lambda m: m.get("type") == "chat" and m["line"]["body"] == text)


def bodies(lines) -> list[str]:
    return [line["body"] for line in lines]


@pytest.fixture
def table(server, make_user):
    """alice and bob playing the toy game (a challenge accepted), carol watching."""
    alice, bob, carol = make_user("ca"), make_user("cb"), make_user("cc")
    game = accepted(alice, bob, seat="first")
    return alice, bob, carol, game


def test_players_and_spectators_talk_apart_then_together(server, table, anon):
    alice, bob, carol, game = table

    async def talk():
        async with (
            Socket(server, alice, game) as a,
            Socket(server, bob, game) as b,
            Socket(server, carol, game) as c,
            Socket(server, anon, game) as visitor,
        ):
            await a.said("hello bob")
            await b.heard("hello bob")
            await c.said("bob is lost")
            await b.said("hi alice")
            await a.heard("hi alice")
            await c.said(XSS)
            await a.said("good luck")
            await b.heard("good luck")
            await visitor.say("let me in")
            await visitor.until(lambda m: m.get("type") == "error")
            return a, b, c, visitor

    a, b, c, visitor = asyncio.run(talk())
    assert bodies(a.lines) == ["hello bob", "hi alice", "good luck"]
    assert bodies(b.lines) == ["hello bob", "hi alice", "good luck"]
    assert bodies(c.lines) == ["bob is lost", XSS]
    assert visitor.errors == ["Please log in to chat."]
    assert bodies(visitor.lines) == bodies(c.lines)  # a visitor reads the spectators
    # What the panel loads agrees: during the game each sees only their channel.
    assert bodies(alice.get(f"/api/games/{game}/chat").json()["lines"]) == bodies(a.lines)
    seen = carol.get(f"/api/games/{game}/chat").json()
    assert seen["writes"] == "spectators" and bodies(seen["lines"]) == bodies(c.lines)
    # The game ends: everyone sees both channels, beside the replay too, as text.
    finish(alice, bob, game)
    together = bodies(alice.get(f"/api/games/{game}/chat").json()["lines"])
    assert together == ["hello bob", "bob is lost", "hi alice", XSS, "good luck"]
    replay = anon.get(f"/games/{game}/replay").text
    assert "hello bob" in replay and "bob is lost" in replay
    assert "<script>alert(1)" not in replay and "&lt;script&gt;alert(1)" in replay
    # bob mutes the spectators; alice blocks carol.
    assert api(carol, f"/api/games/{game}/chat/mute", {"muted": True}).status_code == 403
    assert api(bob, f"/api/games/{game}/chat/mute", {"muted": "yes"}).status_code == 400
    assert api(bob, f"/api/games/{game}/chat/mute", {"muted": True}).status_code == 200
    assert bodies(bob.get(f"/api/games/{game}/chat").json()["lines"]) == bodies(a.lines)
    assert "bob is lost" not in bob.get(f"/games/{game}/replay").text
    form(alice, f"/users/{carol.name}/block", "/forum", next="/")
    assert "bob is lost" not in bodies(alice.get(f"/api/games/{game}/chat").json()["lines"])


def test_chat_refusals_and_rate_limit(server, make_user):
    from tests.web.helpers import create_game

    fresh = make_user("cr")  # a new account: the lower limit
    game = create_game(fresh, "toy", [("me", ""), ("open", "")])
    r = api(fresh, f"/api/games/{game}/chat", {"text": "   "})
    assert r.status_code == 400 and "empty" in r.json()["error"]
    r = api(fresh, f"/api/games/{game}/chat", {"text": "x" * 301})
    assert r.status_code == 400 and "300" in r.json()["error"]
    assert api(fresh, f"/api/games/{game}/chat", {}).status_code == 400
    assert api(fresh, "/api/games/999999/chat", {"text": "hi"}).status_code == 404
    codes = [
        api(fresh, f"/api/games/{game}/chat", {"text": f"line {i}"}).status_code for i in range(7)
    ]
    assert codes == [200] * 6 + [429]


def test_a_reported_line_is_hidden_by_a_moderator(server, table, make_user):
    alice, bob, carol, game = table
    dave = make_user("cd")  # another spectator: the players do not read this channel yet
    assert api(carol, f"/api/games/{game}/chat", {"text": "buy cheap watches"}).status_code == 200
    [line] = carol.get(f"/api/games/{game}/chat").json()["lines"]
    assert api(dave, f"/api/chat/{line['id']}/report", {"reason": " "}).status_code == 400
    r = api(dave, f"/api/chat/{line['id']}/report", {"reason": "spam"})
    assert r.status_code == 200
    assert api(dave, "/api/chat/999999/report", {"reason": "spam"}).status_code == 404
    assert cli(["admin", "grant", bob.name, "moderator", "--database", server.url]) == 0
    queue = bob.get("/moderation").text
    assert f'data-line-id="{line["id"]}"' in queue and "buy cheap watches" in queue
    r = form(alice, f"/moderation/chat/{line['id']}/hide", "/", reason="spam")
    assert r.status_code == 403
    r = form(bob, f"/moderation/chat/{line['id']}/hide", "/moderation", reason="advertising")
    assert r.status_code == 303
    assert carol.get(f"/api/games/{game}/chat").json()["lines"] == []
    log = bob.get("/moderation").text
    assert f"hid chat line {line['id']} in game #{game}: advertising" in log
