"""The tournament pages through the real app (in this process): create, join, pause,
withdraw, and the pages in each language; a bad form is shown again with why."""

from __future__ import annotations

import re
import time

from tests.web.helpers import create_game, page_csrf, register
from tests.web.inprocess import club_in_process, new_client


def test_create_join_pause_withdraw_and_the_pages_in_three_languages(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as alice:
        bob = new_client(alice)
        assert register(alice, "alice").status_code == 303
        assert register(bob, "bob").status_code == 303
        form = {
            "csrf": page_csrf(alice),
            "name": "Friday arena",
            "game": "toy",
            "form": "arena",
            "starts_in": "60",
            "minutes": "20",
            "clock": "live",
            "clock_base": "3",
            "clock_increment": "2",
        }
        refused = alice.post("/tournaments", data=dict(form, minutes="999"))
        assert refused.status_code == 400 and 'id="tournament-error"' in refused.text
        assert 'value="Friday arena"' in refused.text  # what was typed is kept
        made = alice.post("/tournaments", data=form, follow_redirects=False)
        assert made.status_code == 303
        page = made.headers["location"]
        tid = int(page.rsplit("/", 1)[1])
        listed = bob.get("/tournaments")
        assert listed.status_code == 200 and f'href="/tournaments/{tid}"' in listed.text
        assert bob.post(f"{page}/join", data={"csrf": page_csrf(bob)}).status_code == 200
        seen = bob.get(page).text
        assert 'id="withdraw"' in seen and 'id="pause"' in seen
        assert 'href="/users/bob">bob</a></td>' in seen
        bob.post(f"{page}/pause", data={"csrf": page_csrf(bob)})
        assert "(paused)" in bob.get(page).text
        bob.post(f"{page}/withdraw", data={"csrf": page_csrf(bob)})
        assert 'href="/users/bob">bob</a></td>' not in bob.get(page).text  # place freed
        assert bob.post(f"{page}/nonsense", data={"csrf": page_csrf(bob)}).status_code == 404
        assert bob.post(f"{page}/join", data={}).status_code == 403  # no CSRF token
        assert bob.get("/tournaments/999999").status_code == 404
        visitor = new_client(alice)
        for lang, word, heading in (("de", "Turniere", "Rangliste"), ("ja", "開催予定", "順位")):
            html = visitor.get("/tournaments", headers={"Accept-Language": lang}).text
            assert word in html
            one = visitor.get(page, headers={"Accept-Language": lang}).text
            assert re.search(rf"<h2[^>]*>{heading}</h2>", one)
        profile = alice.get("/users/alice").text
        assert f'href="/tournaments/{tid}"' in profile


def test_a_tournament_game_names_its_tournament_and_links_back(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as alice:
        bob = new_client(alice)
        assert register(alice, "alice").status_code == 303
        assert register(bob, "bob").status_code == 303
        form = {
            "csrf": page_csrf(alice),
            "name": "Night <Swiss>",
            "game": "toy",
            "form": "swiss",
            "rounds": "2",
            "starts_in": "60",
            "clock": "live",
            "clock_base": "3",
            "clock_increment": "2",
        }
        page = alice.post("/tournaments", data=form, follow_redirects=False).headers["location"]
        tid = int(page.rsplit("/", 1)[1])
        bob.post(f"{page}/join", data={"csrf": page_csrf(bob)})
        alice.post(f"{page}/start", data={"csrf": page_csrf(alice)})
        deadline = time.monotonic() + 10
        while not (found := re.search(r'href="/games/(\d+)"', alice.get(page).text)):
            assert time.monotonic() < deadline, "the director paired nobody"
            time.sleep(0.1)
        game = f"/games/{found.group(1)}"
        seen = bob.get(game).text
        link = f'<a href="/tournaments/{tid}">Night &lt;Swiss&gt;</a>'
        assert f"Round 1 of the tournament {link}" in seen
        visitor = new_client(alice)
        german = visitor.get(game, headers={"Accept-Language": "de"}).text
        assert f"Runde 1 des Turniers {link}" in german
        lone = create_game(alice, "toy", [("me", ""), ("open", "")])
        assert 'id="tournament-of-game"' not in alice.get(f"/games/{lone}").text
