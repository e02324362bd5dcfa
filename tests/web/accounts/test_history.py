"""A member's history on their profile: filters by result (aborted games apart), opponent,
game and rated, a pager that keeps the filters, a record link per game; and the lobby's
games waiting for them include an offer they have to answer."""

from __future__ import annotations

import re

from ludoteca.web.accounts import profiles
from tests.web.helpers import create_game, page_csrf, view
from tests.web.inprocess import club_in_process, new_client, table_game


def _ids(html: str) -> set[int]:
    return {int(x) for x in re.findall(r'class="game-item" data-game-id="(\d+)"', html)}


def _offer(client, pk: int, action: str, kind: str) -> None:
    token = page_csrf(client, f"/games/{pk}")
    r = client.post(
        f"/api/games/{pk}/offers",
        json={"action": action, "kind": kind},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 200, r.text


def _to_move(ann, bob, pk):
    seats = view(ann, pk)["seats"]
    first = ann if seats[view(ann, pk)["to_move"]]["you"] else bob
    return first, (bob if first is ann else ann)


def test_history_filters_and_the_games_waiting_for_a_member(tmp_path, monkeypatch):
    with club_in_process(f"sqlite:///{tmp_path / 'history.sqlite3'}") as ann:
        bob = new_client(ann)
        won = table_game(ann, bob, "histann", "histbob")
        r = bob.post(
            f"/api/games/{won}/resign",
            json={},
            headers={"X-CSRF-Token": page_csrf(bob, f"/games/{won}")},
        )
        assert r.status_code == 200, r.text
        aborted = create_game(ann, "toy", [("me", ""), ("user", "histbob")])
        assert bob.post(f"/games/{aborted}/join", data={"csrf": page_csrf(bob)}).status_code in (
            200,
            303,
        )
        _offer(ann, aborted, "make", "abort")
        _offer(bob, aborted, "accept", "abort")
        computer = create_game(ann, "toy", [("me", ""), ("bot", "random")])
        r = ann.post(
            f"/api/games/{computer}/resign",
            json={},
            headers={"X-CSRF-Token": page_csrf(ann, f"/games/{computer}")},
        )
        assert r.status_code == 200, r.text
        waiting = create_game(ann, "toy", [("me", ""), ("user", "histbob")])
        bob.post(f"/games/{waiting}/join", data={"csrf": page_csrf(bob)})
        mover, other = _to_move(ann, bob, waiting)
        _offer(mover, waiting, "make", "draw")

        page = ann.get("/users/histann").text
        assert _ids(page) == {won, aborted, computer}
        assert f'href="/games/{won}/record.json"' in page
        seats = page.split('id="by-seat"', 1)[1].split("</table>")[0]
        counts = [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', seats)]
        assert sum(counts) == 2  # won and lost: the aborted game has no result
        assert _ids(ann.get("/users/histann?result=win").text) == {won}
        shown = ann.get("/users/histann?result=aborted").text
        assert _ids(shown) == {aborted} and "outcome-aborted" in shown
        assert _ids(ann.get("/users/histann?result=draw").text) == set()  # aborted: no draw
        assert _ids(ann.get("/users/histann?opponent=computer").text) == {computer}
        assert _ids(ann.get("/users/histann?opponent=people&game=toy").text) == {won, aborted}
        none = ann.get("/users/histann?rated=rated").text
        assert _ids(none) == set() and "No game matches these filters." in none
        assert _ids(ann.get("/users/histann?result=nonsense").text) == {won, aborted, computer}
        monkeypatch.setattr(profiles, "RECENT_GAMES", 1)
        first = ann.get("/users/histann?opponent=people").text
        assert len(_ids(first)) == 1 and 'href="?opponent=people&amp;page=2#games"' in first
        second = ann.get("/users/histann?opponent=people&page=2").text
        assert _ids(second) | _ids(first) == {won, aborted}

        lobby = other.get("/").text
        mine = lobby.split('id="your-turn"', 1)
        assert len(mine) == 2 and f'data-game-id="{waiting}"' in mine[1].split("</section>")[0]
        assert "an offer to answer" in mine[1].split("</section>")[0]
        bob.close()
