"""The forum's hostile probes, written as chat lines: each comes back as the same text in
the chat's JSON, and the replay page and the moderators' queue show it as text, never as
markup."""

from __future__ import annotations

import re

from tests.web.forum.test_forum import HOSTILE

from .helpers import accepted, api, finish


def test_hostile_chat_lines_render_as_text(person):
    alice, bob = person(), person()
    game = accepted(alice, bob, seat="first")
    finish(alice, bob, game)
    writers = [alice, bob]
    for i, probe in enumerate(HOSTILE):
        r = api(writers[i % 2], f"/api/games/{game}/chat", {"text": probe})
        assert r.status_code == 200, (probe, r.text)
    lines = alice.get(f"/api/games/{game}/chat").json()["lines"]
    assert [line["body"] for line in lines] == [" ".join(p.split()) for p in HOSTILE]
    page = alice.get(f"/games/{game}/replay").text
    section = page.split('id="replay-chat"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(r'<span class="body">(.*?)</span></li>', section, re.DOTALL)
    assert len(shown) == len(HOSTILE)
    for html in shown:
        assert "<" not in html and ">" not in html, html
