"""Every lesson step is replayed through the engine (so a course can never teach an illegal
move), and the course's JSON answers a tried move with the engine's verdict in words."""

from __future__ import annotations

import re

import pytest

from ludoteca.web.learn.course import GAMES, answers, course, judge, why_not
from ludoteca.web.round.view import offered_move
from tests.web.helpers import register
from tests.web.inprocess import club_in_process


@pytest.mark.parametrize("game", GAMES)
def test_every_step_parses_has_answers_and_teaches_only_legal_moves(game):
    c = course(game)
    assert 8 <= len(c.steps) <= 12  # the issue: a short course of about 8-12 steps
    for n, step in enumerate(c.steps, 1):
        state = c.state(n - 1)
        assert state.position()  # the position parses and prints
        legal = {state.move_to_str(m) for m in state.legal_moves()}
        for text in step.goal.get("moves", []):
            assert state.move_to_str(state.str_to_move(text)) in legal, (game, n, text)
        solved = answers(state, step.goal)
        assert solved, f"{game} step {n} has no answer"
        for text in solved[:3]:  # answers are played through the engine and judged right
            assert judge(state, text, step.goal).ok, (game, n, text)


def test_a_step_tells_a_refused_move_from_a_legal_wrong_one():
    c = course("kuniumi")
    state = c.state(5)  # the God moves along its group's line to d5
    goal = c.steps[5].goal
    refused = judge(state, "b2-e3", goal)
    assert not refused.ok and "row or column" in str(refused.reason)
    wrong = judge(state, "b2-b5", goal)
    assert not wrong.ok and "not what this step asks" in str(wrong.reason)
    assert judge(state, "b2-d5", goal).ok


@pytest.mark.parametrize(
    ("game", "index", "cells", "words"),
    [
        ("kuniumi", 5, ["b2", "e3"], "row or column"),
        ("comino", 0, ["5,5"], "shares no side"),
        ("hexagone", 1, ["-4,4", "2,2"], "do not touch"),
    ],
)
def test_a_click_that_makes_no_legal_move_gets_the_engines_reason(game, index, cells, words):
    c = course(game)
    state = c.state(index)
    legal = [offered_move(state, m) for m in state.legal_moves()]
    reason = why_not(state, cells, legal)
    assert reason is not None and words in str(reason)


def test_the_course_pages_judge_moves_and_keep_a_members_progress(tmp_path):
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        page = client.get("/learn")
        assert page.status_code == 200 and "/learn/kuniumi" in page.text
        for game in GAMES:
            assert client.get(f"/learn/{game}").status_code == 200
        assert "/learn/comino" in client.get("/rules/comino").text
        view = client.get("/api/learn/kuniumi/6").json()
        assert view["step"] == 6 and view["legal"] and "d5" in view["text"]
        why = client.post("/api/learn/kuniumi/6", json={"cells": ["b2", "e3"]}).json()
        reason = "e3 is not in a row or column of the land God's group"
        assert why == {"ok": False, "reason": reason}
        assert client.post("/api/learn/kuniumi/6", json={"move": "b2-b5"}).json()["ok"] is False
        right = client.post("/api/learn/kuniumi/6", json={"move": "b2-d5"}).json()
        assert right["ok"] is True and "done" not in right  # a visitor's progress: the browser's
        for bad in ({"move": ""}, {"cells": "b2"}, {"move": 5}):
            assert client.post("/api/learn/kuniumi/6", json=bad).status_code == 400
        assert client.get("/api/learn/kuniumi/0").status_code == 404
        assert client.get("/api/learn/kuniumi/x").status_code == 400
        assert client.get("/api/learn/chess/1").status_code == 404
        # a member's solved step is kept, with the page's token, and never moves back
        assert register(client, "ada").status_code == 303
        csrf = re.search(r'data-csrf="([^"]+)"', client.get("/learn/kuniumi").text).group(1)
        refused = client.post("/api/learn/kuniumi/6", json={"move": "b2-d5"})
        assert refused.status_code == 403
        kept = client.post("/api/learn/kuniumi/6", json={"move": "b2-d5", "csrf": csrf}).json()
        assert kept["done"] == 6
        again = client.post("/api/learn/kuniumi/1", json={"move": "E@c3", "csrf": csrf}).json()
        assert again["done"] == 6
        assert 'data-done="6"' in client.get("/learn/kuniumi").text
        for lang, words in (("de", "Erdgott"), ("ja", "大地の神")):
            assert words in client.get(f"/learn/kuniumi?lang={lang}").text
            step = client.get(f"/api/learn/kuniumi/1?lang={lang}").json()
            assert words in step["text"]
