"""Fuzzing the game websocket's message handler on a real server: whatever a client sends,
the answer is a success (a pong, a view, a view after an accepted move or resignation) or
one of the documented errors, never the server's apology for a failure, never anything
of its insides, and a refused message changes nothing in the game."""

from __future__ import annotations

import itertools
import json
import re
import time

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ludoteca.web.round.flood import MAX_WS_MESSAGE, TOO_MANY_REFRESHES, WS_MESSAGES_PER_SECOND
from ludoteca.web.round.messages import MISSING_PLY
from ludoteca.web.round.socket import SORRY
from tests.web.helpers import create_game, join, page_csrf, register, view
from tests.web.round.test_websocket import socket_for

_names = itertools.count(1)
CELLS = [f"{f}{r}" for r in "123" for f in "abc"]
VALIDATION_ERRORS = [
    re.escape("A message must be a JSON object sent as text."),
    re.escape("Message too long."),
    re.escape("A message must be a JSON object."),
    r"Unknown message type .*\.",
    re.escape("The message has no security (CSRF) token; reload the page."),
    re.escape("A move message needs 'move', the move in notation."),
    re.escape("'ply' must be a whole number, the move number of the position you saw."),
    re.escape(MISSING_PLY),
    re.escape("The security (CSRF) token is wrong or out of date; reload the page."),
    re.escape(TOO_MANY_REFRESHES),
    re.escape("Text sent to the club cannot contain NUL characters."),
    r"Resignation refused: the game has moved on \(now at move \d+\); look at the board "
    r"again before resigning\.",
]
"""The refusals of a malformed or unauthorised message, as the handler documents them."""
LEAKS = re.compile(r"Traceback|\w+Error\b|\w*Exception|sqlite|sqlalchemy|File \"|\.py\b")
GAME_KEYS = ("ply", "status", "moves", "result", "seats", "to_move")


def game_of(v: dict) -> dict:
    return {key: v.get(key) for key in GAME_KEYS}


class Table:
    """Two players at a toy game, each with the game's websocket open; a new game when one
    ends."""

    def __init__(self, server) -> None:
        self.server = server
        self.players: list[httpx.Client] = []
        for _ in range(2):
            client = httpx.Client(base_url=server.base, timeout=20)
            assert register(client, f"fuzz{next(_names)}").status_code == 303
            self.players.append(client)
        self.sockets: list = []
        self.new_game()

    def new_game(self) -> None:
        self.close_sockets()
        a, b = self.players
        self.pk = create_game(a, "toy", [("me", ""), ("open", "")])
        join(b, self.pk)
        self.csrf = [page_csrf(p, f"/games/{self.pk}") for p in self.players]
        self.sockets = [socket_for(self.server, p, self.pk) for p in self.players]
        for ws in self.sockets:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"

    def mover(self) -> tuple[int, dict]:
        """Who is to move (0 or 1), by their own view; a fresh game if this one is over."""
        if view(self.players[0], self.pk)["status"] != "active":
            self.new_game()
        for i, player in enumerate(self.players):
            v = view(player, self.pk)
            if v["your_turn"]:
                return i, v
        raise AssertionError("no one is to move in an active game")

    def answer(self, i: int, raw: str | bytes) -> dict:
        """Send ``raw`` on player ``i``'s socket: the one answer it gets."""
        ws = self.sockets[i]
        ws.send(raw)
        answer = json.loads(ws.recv(timeout=10))
        time.sleep(1.2 / WS_MESSAGES_PER_SECOND)  # within the message rate
        return answer

    def close_sockets(self) -> None:
        for ws in self.sockets:
            ws.close()
        self.sockets = []

    def close(self) -> None:
        self.close_sockets()
        for client in self.players:
            client.close()


@pytest.fixture(scope="module")
def table(server):
    t = Table(server)
    yield t
    t.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
tokens = st.sampled_from(["MINE", "THEIRS", "0" * 64]) | st.text(max_size=70) | json_values
fields = {
    "type": st.sampled_from(["move", "resign", "ping", "refresh"]) | json_values,
    "move": st.sampled_from(CELLS) | st.text(max_size=6) | json_values,
    "ply": st.sampled_from(["PLY"]) | st.integers(-2, 12) | json_values,
    "csrf": tokens,
    "extra": json_values,
}
objects = st.fixed_dictionaries({}, optional=fields)
plausible = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["move", "move", "move", "resign", "ping", "refresh"]),
        "move": st.sampled_from(CELLS),
        "ply": st.sampled_from(["PLY", "PLY"]) | st.integers(-1, 10),
        "csrf": st.sampled_from(["MINE", "MINE", "THEIRS"]),
    },
    optional={"extra": json_values},
)
"""Messages as a page sends them, some right and some a little wrong."""
raw_messages = (
    st.text(max_size=60)
    | st.binary(max_size=40)
    | st.integers(MAX_WS_MESSAGE - 10, MAX_WS_MESSAGE * 2).map(lambda n: "{" + " " * n + "}")
    | json_values.map(json.dumps)
)


def fill_in(message: dict, csrf: list[str], i: int, ply: int) -> dict:
    """The placeholders of a generated message made real: this player's token, the other's,
    the game's ply (so that some moves are legal and some resignations real)."""
    out = dict(message)
    if out.get("csrf") == "MINE":
        out["csrf"] = csrf[i]
    elif out.get("csrf") == "THEIRS":
        out["csrf"] = csrf[1 - i]
    if out.get("ply") == "PLY":
        out["ply"] = ply
    return out


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(message=plausible | objects | raw_messages, by_mover=st.booleans())
def test_every_message_is_answered_or_refused_cleanly(table, message, by_mover):
    i, before = table.mover()
    if not by_mover:
        i = 1 - i
        before = view(table.players[i], table.pk)
    if isinstance(message, dict):
        message = fill_in(message, table.csrf, i, before["ply"])
        raw: str | bytes = json.dumps(message)
    else:
        raw = message
    answer = table.answer(i, raw)
    after = view(table.players[i], table.pk)
    kind = message.get("type") if isinstance(message, dict) else None
    event(f"{kind if isinstance(kind, str) else 'other'} -> {answer['type']}")
    if answer["type"] == "error":
        text = answer["message"]
        assert text != SORRY and not LEAKS.search(text), (message, text)
        if kind != "move" or not isinstance(message.get("move"), str):
            assert any(re.fullmatch(p, text) for p in VALIDATION_ERRORS), (message, text)
        assert game_of(after) == game_of(before), (message, text)
    elif answer["type"] == "pong":
        assert kind == "ping"
        assert game_of(after) == game_of(before)
    else:
        assert answer["type"] == "state", answer
        assert kind in {"refresh", "move", "resign"}, (message, answer)
        if kind == "refresh":
            assert game_of(answer) == game_of(before) == game_of(after)
            return
        # A change: the other player is told of it too.
        told = json.loads(table.sockets[1 - i].recv(timeout=10))
        assert told["type"] == "state" and told["ply"] == answer["ply"] == after["ply"]
        if kind == "move":  # accepted: exactly this move, by the player to move
            assert by_mover and answer["ply"] == before["ply"] + 1
            assert answer["moves"][-1]["text"] == message["move"]
        else:
            assert answer["status"] == "finished" and "resigned" in answer["result"]["reason"]
