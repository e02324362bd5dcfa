"""The lobby lists everyone's waiting games fairly however many accounts one person holds
(issue 43, finding 17): ten accounts opening five games each after a member opened one
pushed that one out of the newest fifty; now creators take turns in the list."""

from __future__ import annotations

import re

from tests.web.helpers import create_game, register
from tests.web.inprocess import TestClient, club_in_process, new_client

OPEN_SECTION = re.compile(r"<h2>Open games</h2>(.*?)</section>", re.S)


def listed_open(client) -> list[int]:
    section = OPEN_SECTION.search(client.get("/").text)
    assert section, "no open-games section in the lobby"
    return [int(n) for n in re.findall(r'data-game-id="(\d+)"', section.group(1))]


def test_a_flood_of_accounts_cannot_push_a_game_out_of_the_lobby(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as victim:
        assert register(victim, "patient").status_code == 303  # from elsewhere
        mine = create_game(victim, "toy", [("me", ""), ("open", "")])
        flooders = []
        for i in range(10):  # one address's hourly registrations
            flooder = TestClient(victim.app, client=("192.0.2.7", 40000 + i))
            assert register(flooder, f"flood{i}").status_code == 303
            flooders.append(flooder)
        flood = [
            create_game(f, "toy", [("me", ""), ("open", "")]) for _ in range(5) for f in flooders
        ]
        visitor = new_client(victim)
        shown = listed_open(visitor)
        assert len(shown) == 50 and mine in shown
        assert shown == sorted(shown, reverse=True)  # still newest first
        assert set(shown) - {mine} <= set(flood)
