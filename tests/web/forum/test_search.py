"""Forum search through its one interface, on SQLite (FTS5) and on PostgreSQL (full-text
search): titles and posts are found, every word must match, hidden posts are not found,
an edit is found by its new words, and no query is a syntax error."""

from __future__ import annotations

import re

from ludoteca.cli.main import main as cli
from tests.web.helpers import register
from tests.web.inprocess import club_in_process, new_client

from .forum_helpers import new_thread, reply, thread_id

QUERIES_THAT_ARE_NOT_SYNTAX = [
    '"',
    "'",
    "*",
    "a OR",
    "NEAR(",
    "title:x",
    "-x",
    "x & | ! ( ) :*",
    "\\",
    "^",
    "%",
    "_",
    "ünïcödé",
    "x" * 300,
]


def found(client, query: str) -> list[int]:
    r = client.get("/forum/search", params={"q": query})
    assert r.status_code == 200, r.text
    return [int(x) for x in re.findall(r'class="hit" data-post-id="(\d+)"', r.text)]


def test_search_on_both_databases(url):
    with club_in_process(url) as a:
        assert register(a, "searcher").status_code == 303
        mod = new_client(a)
        assert register(mod, "searchmod").status_code == 303
        pk = thread_id(new_thread(a, "Hexagone endgame puzzle", "Which piece moves first?"))
        other = thread_id(new_thread(a, "Comino scoring", "Blue areas score twice here"))
        r = reply(a, pk, "The yellow pyramid, then the endgame is forced.")
        assert r.status_code == 303
        reply_id = int(r.headers["location"].rsplit("-", 1)[1])
        page = a.get(f"/forum/thread/{pk}").text
        opening = int(re.findall(r'data-post-id="(\d+)"', page)[0])

        assert found(a, "puzzle") == [opening]  # a title word finds the opening post
        assert sorted(found(a, "endgame")) == sorted([opening, reply_id])
        assert found(a, "ENDGAME yellow") == [reply_id]  # every word, any case
        assert found(a, "puzzle yellow") == []  # title and reply are different posts
        assert len(found(a, "blue scoring")) == 1 and other
        assert found(a, "nothing-like-this") == []
        for query in QUERIES_THAT_ARE_NOT_SYNTAX:
            found(a, query)

        # An edit is found by its new words, not its old ones.
        form = {"csrf": _csrf(a), "body": "The red pyramid decides it."}
        assert a.post(f"/forum/post/{reply_id}/edit", data=form).status_code == 200
        assert found(a, "yellow") == [] and found(a, "red pyramid") == [reply_id]

        # A hidden post is not found.
        database = url
        assert cli(["admin", "grant", "searchmod", "moderator", "--database", database]) == 0
        hide = {"csrf": _csrf(mod), "reason": "test"}
        assert mod.post(f"/forum/post/{reply_id}/hide", data=hide).status_code == 200
        assert found(a, "pyramid") == []
        assert found(a, "puzzle") == [opening]


def _csrf(client) -> str:
    from tests.web.helpers import page_csrf

    return page_csrf(client, "/forum")


def test_a_word_s_beginning_finds_it_and_results_show_plain_text(url):
    """ "kuniu" finds Kuniumi (on both databases), and a result shows the post's words, not
    its Markdown."""
    with club_in_process(url) as a:
        assert register(a, "prefixer").status_code == 303
        body = "**Kuniumi** openings: see [the rules](https://example.org/rules) and `sea`."
        pk = thread_id(new_thread(a, "Opening ideas", body))
        opening = int(re.findall(r'data-post-id="(\d+)"', a.get(f"/forum/thread/{pk}").text)[0])
        assert found(a, "kuniu") == [opening]
        assert found(a, "KUNIU open") == [opening]
        assert found(a, "kuniumix") == []
        page = a.get("/forum/search", params={"q": "kuniu"}).text
        excerpt = page.split('class="excerpt">', 1)[1].split("</span>", 1)[0]
        assert "<mark>Kuniumi</mark> openings: see the rules and sea." in excerpt
        assert "**" not in excerpt and "](" not in excerpt and "`" not in excerpt
