"""The Hexagone daily solo challenge: the same dice for everyone (a roll never depends on
the moves before it but through the block), entries replayed by the server, one per member
and day, a leaderboard with the planner's bar, replays only after the day."""

from __future__ import annotations

import re
from datetime import date

from ludoteca.web.learn import solo
from tests.web.helpers import register
from tests.web.inprocess import club_in_process, new_client


def _play_out(pick) -> list[str]:
    """A whole game of the day, played on the engine with the day's dice (quicker than
    through the page, which replays the moves so far at each move)."""
    state, rolls = solo.replay(solo.today(), [])
    moves: list[str] = []
    while not state.is_over:
        if state.to_move < 0:
            solo.roll(state, solo.today(), rolls)
            rolls += 1
            continue
        moves.append(state.move_to_str(pick(state.legal_moves())))
        state.play(moves[-1])
    return moves


def test_the_days_first_roll_is_the_same_for_every_player_and_differs_by_day():
    first = solo.replay(date(2026, 11, 27), [])[0].position()
    assert solo.replay(date(2026, 11, 27), [])[0].position() == first
    assert solo.replay(date(2026, 11, 28), [])[0].position() != first


def test_entries_are_replayed_ranked_and_hidden_until_the_day_ends(tmp_path):
    day = solo.today().isoformat()
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as ann:
        bob = new_client(ann)
        page = ann.get("/challenge")
        assert page.status_code == 200
        bar = solo.planner_score(solo.today())[0]
        assert f"captures {bar} pieces" in page.text
        # no entries yet: said beside the leaderboard, not numbered "1." as its first entry
        board = page.text.split('<ol id="entries"', 1)[1].split("</ol>", 1)[0]
        assert "<li" not in board and 'id="no-entries"' in page.text
        moves_a = _play_out(lambda legal: legal[0])
        moves_b = _play_out(lambda legal: legal[-1])
        start = ann.get(f"/api/challenge/{day}").json()
        step = ann.post(
            f"/api/challenge/{day}/play", json={"moves": moves_a[:2], "move": moves_a[2]}
        ).json()
        assert start["rolls"] == 1 and step["moves"] == moves_a[:3] and step["legal"]
        refused = ann.post(f"/api/challenge/{day}/play", json={"moves": [], "move": "swap 9,9 0,0"})
        assert refused.status_code == 400 and "9,9" in refused.json()["error"]
        assert register(ann, "ann").status_code == 303
        assert register(bob, "bob").status_code == 303
        tokens = [
            re.search(r'data-csrf="([^"]+)"', c.get("/challenge").text).group(1) for c in (ann, bob)
        ]
        half = ann.post(
            f"/api/challenge/{day}/enter", json={"moves": moves_a[:2], "csrf": tokens[0]}
        )
        assert half.status_code == 409
        forged = ann.post(
            f"/api/challenge/{day}/enter", json={"moves": ["swap 0,0 0,0"], "csrf": tokens[0]}
        )
        assert forged.status_code == 400
        a = ann.post(f"/api/challenge/{day}/enter", json={"moves": moves_a, "csrf": tokens[0]})
        b = bob.post(f"/api/challenge/{day}/enter", json={"moves": moves_b, "csrf": tokens[1]})
        assert a.status_code == b.status_code == 200
        again = ann.post(f"/api/challenge/{day}/enter", json={"moves": moves_b, "csrf": tokens[0]})
        assert again.status_code == 409
        scores = sorted([a.json()["score"], b.json()["score"]], reverse=True)
        board = [e["score"] for e in b.json()["entries"]]
        assert board == scores
        entry = b.json()["entries"][0]["id"]
        visitor = new_client(ann)
        assert visitor.get(f"/challenge/{day}/entries/{entry}").status_code == 403
        assert visitor.get("/challenge/2999-01-01").status_code == 404
        assert visitor.get("/challenge/2020-01-01").status_code == 404  # kept 60 days
        assert visitor.get("/challenge/yesterday").status_code == 400
