"""The forum's hostile probes, written as chat lines: each comes back as the same text in
the chat's JSON, and the replay page and the moderators' queue show it as text, never as
markup."""

from __future__ import annotations

import re

from tests.web.forum.test_forum import HOSTILE
from tests.web.helpers import join, page_csrf

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


FAMILY = "family \U0001f468\u200d\U0001f469\u200d\U0001f467"


def test_control_and_deceptive_characters_do_not_reach_readers(person):
    """BEL, ESC colour codes, a direction override and zero-width characters are dropped,
    a stack of accents is cut to a few, and a line with nothing visible is refused (the
    forum's cleaning, shared)."""
    alice, bob = person(), person()
    game = accepted(alice, bob, seat="first")
    sent = {
        "ring\x07 the bell": "ring the bell",
        "\x1b[31mred\x1b[0m text": "[31mred[0m text",
        "file\u202eexe.txt": "fileexe.txt",
        "zero\u200bwidth\ufeff": "zerowidth",
        "e" + "\u0301" * 299: "e" + "\u0301" * 4,
        FAMILY: FAMILY,  # the joiners of an emoji sequence stay
        "  spaced\tout\nline  ": "spaced out line",
    }
    for text in sent:
        r = api(alice, f"/api/games/{game}/chat", {"text": text})
        assert r.status_code == 200, (text, r.text)
    for empty in ("\u200b\u200b\u200b", "\u0301" * 10, "\u202e\u2066", "\x07\x1b"):
        r = api(alice, f"/api/games/{game}/chat", {"text": empty})
        assert r.status_code == 400 and "empty" in r.json()["error"], (empty, r.text)
    lines = [line["body"] for line in bob.get(f"/api/games/{game}/chat").json()["lines"]]
    assert lines == list(sent.values())


def test_reports_are_of_lines_the_reporter_can_read_once_each(person):
    alice, bob, carol = person(), person(), person()
    data = {"csrf": page_csrf(alice), "game": "toy", "seat0": "me", "seat1": "user"}
    data |= {"seat1_user": bob.name, "private": "on"}
    r = alice.post("/games", data=data, follow_redirects=False)
    private = int(r.headers["location"].rsplit("/", 1)[1])
    assert join(bob, private).status_code == 303
    assert api(alice, f"/api/games/{private}/chat", {"text": "between us"}).status_code == 200
    [line] = bob.get(f"/api/games/{private}/chat").json()["lines"]

    def report(client, pk: int):
        return api(client, f"/api/chat/{pk}/report", {"reason": "rude"})

    assert report(carol, line["id"]).status_code == 404  # a private game's line, by its id
    assert report(alice, line["id"]).status_code == 400  # one's own line
    assert report(bob, line["id"]).status_code == 200
    again = report(bob, line["id"])
    assert again.status_code == 409 and "already reported" in again.json()["error"]
    # During a public game a player does not read the spectators' channel, nor report it.
    game = accepted(alice, bob, seat="first")
    assert api(carol, f"/api/games/{game}/chat", {"text": "psst"}).status_code == 200
    [aside] = carol.get(f"/api/games/{game}/chat").json()["lines"]
    assert report(bob, aside["id"]).status_code == 404
