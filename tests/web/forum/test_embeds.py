"""What the forum's writing hint promises: a game or position link alone on its line shows
its board however it is written (bare path, bare address, Markdown link); only the club's
configured address counts as its own, whatever ``Host`` a request claims; images are links
to the picture; authors can delete their own posts."""

from __future__ import annotations

import re

from tests.web.helpers import create_game, page_csrf

from .forum_helpers import new_thread, post_ids, reply, thread_id
from .test_forum import body_html

OWN = "http://127.0.0.1:8000"
"""The club's address in these tests (``create_app``'s ``public_url``)."""
REL = 'rel="nofollow noopener noreferrer ugc"'


def figures(html: str) -> list[str]:
    return re.findall(r'<figure class="embed">.*?</figure>', html, re.S)


def test_lone_game_links_embed_however_written(person):
    a = person()
    game = create_game(a, "kuniumi", [("me", ""), ("bot", "random")])
    body = (
        f"/games/{game}\n\n/games/{game}/replay?ply=1\n\n{OWN}/games/{game}\n\n"
        f"<{OWN}/games/{game}>\n\n[text](/games/{game})\n\nnot alone: /games/{game} here"
    )
    pk = thread_id(new_thread(a, "Five boards", body, "kuniumi"))
    html = body_html(a.get(f"/forum/thread/{pk}").text)
    shown = figures(html)
    assert len(shown) == 4  # the post's limit; the fifth stays a link
    for figure in shown:
        assert "<svg" in figure and REL in figure.split("<figcaption>", 1)[1]
    assert "not alone: /games/" in html


def test_the_host_header_does_not_make_a_link_the_club_s(person):
    a = person()
    game = create_game(a, "kuniumi", [("me", ""), ("bot", "random")])
    r = a.post(
        "/forum/general/new",
        data={
            "csrf": page_csrf(a, "/forum"),
            "title": "Spoofed",
            "body": f"https://evil.example/games/{game}",
        },
        headers={"Host": "evil.example"},
        follow_redirects=False,
    )
    pk = thread_id(r)
    html = body_html(a.get(f"/forum/thread/{pk}").text)
    assert figures(html) == []
    assert f'<a href="https://evil.example/games/{game}" {REL}>' in html


def test_images_are_links_to_the_picture(person):
    a = person()
    pk = thread_id(new_thread(a, "Pictures", "![my board](https://example.org/b.png) and more"))
    html = body_html(a.get(f"/forum/thread/{pk}").text)
    assert f'<a class="image" href="https://example.org/b.png" {REL}>my board</a>' in html
    assert "!" not in html and "<img" not in html


def test_authors_delete_their_own_posts(person):
    a, b = person(), person()
    pk = thread_id(new_thread(a, "Regrets", "the opening stays"))
    r = reply(a, pk, "something I regret saying")
    mine = int(r.headers["location"].rsplit("-", 1)[1])
    csrf = page_csrf(b, "/forum")
    assert b.post(f"/forum/post/{mine}/delete", data={"csrf": csrf}).status_code == 403
    page = a.get(f"/forum/thread/{pk}").text
    assert f'action="/forum/post/{mine}/delete"' in page
    assert f'action="/forum/post/{mine}/delete"' not in b.get(f"/forum/thread/{pk}").text
    done = a.post(
        f"/forum/post/{mine}/delete", data={"csrf": page_csrf(a, "/forum")}, follow_redirects=False
    )
    assert done.status_code == 303
    for reader in (a, b):
        page = reader.get(f"/forum/thread/{pk}").text
        assert "regret" not in page and "Deleted by its author." in page
        assert post_ids(page)[-1] == mine  # the replies keep their places
    assert 'id="no-hits"' in a.get("/forum/search", params={"q": "saying"}).text
    # An opening post alone takes its thread out of the lists.
    lone = thread_id(new_thread(a, "Never mind", "a thought"))
    [first] = post_ids(a.get(f"/forum/thread/{lone}").text)
    gone = a.post(
        f"/forum/post/{first}/delete", data={"csrf": page_csrf(a, "/forum")}, follow_redirects=False
    )
    assert gone.headers["location"] == "/forum/general"
    assert "Never mind" not in a.get("/forum/general").text
