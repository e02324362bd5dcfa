"""A profile lists every finished game, a page at a time (issue 41, defect 10): it used to
show the newest 20 with no way to the older ones."""

from __future__ import annotations

import re

from ludoteca.web.accounts import profiles
from tests.web.helpers import create_game, page_csrf, register
from tests.web.inprocess import club_in_process


def _listed(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-game-id="(\d+)"', html)]


def test_every_game_is_reachable_page_by_page(tmp_path, monkeypatch):
    monkeypatch.setattr(profiles, "RECENT_GAMES", 2)  # pages of two: five games make three
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        assert register(client, "pager").status_code == 303
        games = []
        for _ in range(5):
            pk = create_game(client, "toy", [("me", ""), ("bot", "random")])
            r = client.post(
                f"/games/{pk}/resign", data={"csrf": page_csrf(client)}, follow_redirects=False
            )
            assert r.status_code == 303
            games.append(pk)
        seen: list[int] = []
        page = client.get("/users/pager")
        assert "(5)" in page.text and "Page 1 of 3" in page.text
        for number in (1, 2, 3):
            page = client.get(f"/users/pager?page={number}")
            assert page.status_code == 200
            seen += _listed(page.text)
            assert ('id="older-games"' in page.text) == (number < 3)
            assert ('id="newer-games"' in page.text) == (number > 1)
        assert seen == sorted(games, reverse=True)  # each game once, newest first
        # a page past the end shows the last; a page that is no number, the first
        assert _listed(client.get("/users/pager?page=99").text) == [games[0]]
        newest = sorted(games, reverse=True)
        assert _listed(client.get("/users/pager?page=x").text) == newest[:2]
