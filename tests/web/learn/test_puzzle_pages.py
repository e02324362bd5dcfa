"""The puzzle pages in process: a wrong move is told with its refutation and the answer, a
refused one with the engine's reason, the right one as right; a member's first try moves
both Glicko-2 ratings once, and the streak; the daily puzzle is one for everyone."""

from __future__ import annotations

import re
from datetime import date

from ludoteca.puzzles.shipped import puzzles
from ludoteca.web.learn.puzzles import daily
from tests.web.helpers import register
from tests.web.inprocess import club_in_process


def test_solving_and_failing_puzzles_with_ratings_and_streaks(tmp_path):
    p = puzzles("kuniumi")[0]
    wrong = sorted(p.refutations)[0]
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        assert client.get("/puzzles").status_code == 200
        assert "/puzzles/daily" in client.get("/").text
        assert client.get("/puzzles/daily").status_code == 200
        go = client.get("/puzzles/kuniumi", follow_redirects=False)
        assert go.status_code == 303 and go.headers["location"].startswith("/puzzles/kuniumi?id=")
        assert client.get("/puzzles/kuniumi?id=nothing").status_code == 404
        assert client.get("/puzzles/chess").status_code == 404
        failed = client.post(f"/api/puzzles/{p.id}", json={"move": wrong}).json()
        assert failed["ok"] is False and failed["answer"] == p.answer
        assert failed["line"] == p.refutations[wrong] and failed["line"][0] in failed["reason"]
        refused = client.post(f"/api/puzzles/{p.id}", json={"move": "a1-a1"}).json()
        assert refused["refused"] is True and refused["reason"]
        assert client.post(f"/api/puzzles/{p.id}", json={"move": p.answer}).json()["ok"] is True
        assert client.post(f"/api/puzzles/{p.id}", json={"move": 3}).status_code == 400

        assert register(client, "ada").status_code == 303
        csrf = re.search(r'data-csrf="([^"]+)"', client.get(f"/puzzles/kuniumi?id={p.id}").text)
        token = csrf.group(1)
        assert client.post(f"/api/puzzles/{p.id}", json={"move": p.answer}).status_code == 403
        first = client.post(f"/api/puzzles/{p.id}", json={"move": p.answer, "csrf": token})
        me = first.json()["me"]
        assert me["rated"] is True and me["rating"] > 1500 and me["streak"] == 1
        again = client.post(f"/api/puzzles/{p.id}", json={"move": wrong, "csrf": token}).json()
        assert again["me"]["rated"] is False and again["me"]["rating"] == me["rating"]
        assert again["me"]["streak"] == 0 and again["me"]["best_streak"] == 1
        other = puzzles("kuniumi")[1]
        lost = client.post(
            f"/api/puzzles/{other.id}",
            json={"move": sorted(other.refutations)[0], "csrf": token},
        ).json()["me"]
        assert lost["rated"] is True and lost["rating"] < me["rating"]


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_day():
    days = [date(2026, 11, d) for d in range(1, 8)]
    chosen = [daily(d) for d in days]
    assert all(c is not None for c in chosen)
    assert daily(days[0]) == chosen[0]
    assert len({c.id for c in chosen if c}) > 1


def test_find_the_better_move_compares_with_the_games_move(tmp_path):
    p = puzzles("kuniumi")[0]
    losing = [m for m, v in p.proof["others"].items() if v == -1]
    assert losing
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        page = client.get(f"/analysis/kuniumi?position={p.position}&find={losing[0]}")
        assert page.status_code == 200 and f"in the game, {losing[0]} was played" in page.text
        body = {"position": p.position, "move": p.answer, "played": losing[0]}
        assert client.post("/api/analysis/kuniumi/compare", json=body).status_code in (401, 403)
        assert register(client, "cy").status_code == 303
        token = re.search(r'data-csrf="([^"]+)"', client.get("/puzzles").text).group(1)
        found = client.post("/api/analysis/kuniumi/compare", json={**body, "csrf": token}).json()
        assert found["better"] is True and found["mine"] > found["theirs"]
        same = {**body, "move": losing[0], "csrf": token}
        assert client.post("/api/analysis/kuniumi/compare", json=same).json()["better"] is False


def test_a_wrong_comune_move_is_answered_with_the_opponents_best_reply(tmp_path):
    """Comune's puzzles are proven over two turns: a wrong move is told what it scores, the
    opponent's best answer to it (the line), and what the answer and its best reply score."""
    from ludoteca.core.registry import get as get_game
    from ludoteca.puzzles.prove import two_turn_line

    p = puzzles("comune")[0]
    state = get_game("comune").from_position(p.position)
    wrong = next(m for m in state.legal_moves() if state.move_to_str(m) != p.answer and m != 0)
    mine, theirs, line = two_turn_line(state, wrong)
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        failed = client.post(f"/api/puzzles/{p.id}", json={"move": state.move_to_str(wrong)})
        data = failed.json()
        assert data["ok"] is False and data["line"] == line and line
        assert f"scores {mine:g}" in data["reason"] and line[0] in data["reason"]
        assert f"scoring {theirs:g}" in data["reason"]
        assert f"best move scores {p.proof['gain']:g}" in data["reason"]
        german = client.post(
            f"/api/puzzles/{p.id}?lang=de", json={"move": state.move_to_str(wrong)}
        ).json()
        assert german["reason"] != data["reason"] and line[0] in german["reason"]
