"""Anonymous analysis pages are cheap and limited (issue 43, finding 3): a Comune position
with thousands of turns is sent in the compact form (the cells a first click may take, a
clicked cell's moves on demand), kept once made, and one address asking too fast is refused
with 429 and ``Retry-After``."""

from __future__ import annotations

import json
import re
import time

import pytest

from ludoteca.web.analysis import rates
from tests.web.inprocess import club_in_process

MANY = "5/6/7/8/7H1/8/7/6/5 D 0"
"""A Comune position whose player to move has 9403 turns (random play from the start)."""


@pytest.fixture
def anon(tmp_path):
    rates._buckets = rates.Buckets()  # type: ignore[attr-defined]  # a fresh allowance
    with club_in_process(f"sqlite:///{tmp_path / 'club.sqlite3'}") as client:
        yield client


def initial_view(html: str) -> dict:
    found = re.search(
        r'<script type="application/json" id="initial-view">(.*?)</script>', html, re.S
    )
    assert found, "no initial view in the page"
    return json.loads(found.group(1))


def test_a_position_with_thousands_of_moves_is_sent_compact(anon):
    began = time.perf_counter()
    page = anon.get("/analysis/comune", params={"position": MANY})
    took = time.perf_counter() - began
    assert page.status_code == 200
    view = initial_view(page.text)
    assert view["legal_partial"] and view["legal_count"] == 9403 and view["targets"]
    assert len(page.content) < 80_000, len(page.content)  # 286 KB listing 3000 turns
    assert took < 2.0
    cell = view["targets"][0]
    r = anon.get("/api/analysis/comune/moves", params={"position": MANY, "cell": cell})
    assert r.status_code == 200
    moves = r.json()["moves"]
    assert moves and all(cell in m["cells"] for m in moves)
    played = anon.post(
        "/api/analysis/comune/play", json={"position": MANY, "move": moves[0]["text"]}
    )
    assert played.status_code == 200 and played.json()["position"] != MANY


def test_one_address_asking_too_fast_is_refused(anon):
    codes = [anon.get("/analysis/comune", params={"position": MANY}).status_code for _ in range(30)]
    assert codes[:10] == [200] * 10 and 429 in codes, codes
    r = anon.get("/analysis/comune", params={"position": MANY})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
