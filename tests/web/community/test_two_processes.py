"""Two server processes on one PostgreSQL database are one club for the community too:
chat lines and notifications written through one process reach sockets open on the other
(through the same LISTEN/NOTIFY fan-out as moves), and the tallies of /stats count games
ended in either."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.web.helpers import Server, member

from .helpers import api, challenge, finish, form, pending_ids
from .test_chat import Socket


@pytest.fixture(scope="module")
def pair(postgres, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("community-pair")
    url = postgres.fresh_database("communitypair")
    one = Server(url, log=tmp / "one.log").start()
    two = Server(url, log=tmp / "two.log").start()
    yield one, two
    one.kill()
    two.kill()


def user_on(server: Server, name: str) -> httpx.Client:
    return member(server.base, name)


def test_chat_and_notifications_cross_processes(pair):
    one, two = pair
    alice, bob, carol = user_on(one, "pa"), user_on(one, "pb"), user_on(two, "pc")
    bob_on_two = httpx.Client(base_url=two.base, timeout=20, cookies=bob.cookies)
    alice.name, bob.name = "pa", "pb"  # type: ignore[attr-defined]
    me_url = two.base.replace("http", "ws") + "/ws/me"
    cookie = "; ".join(f"{k}={v}" for k, v in bob.cookies.items())

    async def bell() -> dict:
        import websockets

        async with websockets.connect(me_url, additional_headers={"Cookie": cookie}) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "unread"
            await asyncio.to_thread(challenge, alice, "pb", seat="first")  # through one
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

    told = asyncio.run(bell())
    assert told["type"] == "notification" and "pa challenges you" in told["item"]["text"]
    [pk] = pending_ids(bob_on_two, "incoming")
    game = int(form(bob_on_two, f"/challenges/{pk}/accept").headers["location"].rsplit("/", 1)[1])

    async def talk():
        async with Socket(two, bob_on_two, game) as b, Socket(two, carol, game) as c:
            await asyncio.to_thread(api, alice, f"/api/games/{game}/chat", {"text": "from one"})
            await b.heard("from one")
            await c.said("spectating on two")
            return b, c

    b, c = asyncio.run(talk())
    assert [line["body"] for line in b.lines] == ["from one"]
    assert [line["body"] for line in c.lines] == ["spectating on two"]
    finish(alice, bob, game)
    stats = carol.get("/api/stats").json()  # the other process's page counts it
    assert sum(g["games"] for g in stats["games"]) >= 1
