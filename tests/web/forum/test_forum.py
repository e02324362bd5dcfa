"""The forum in process on a real SQLite club: threads, replies, pages, Markdown made safe,
boards embedded from links, edits, unread markers, posting limits and refusals."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from sqlalchemy import create_engine, text

from ludoteca.web.forum import service
from tests.web.helpers import create_game, page_csrf

from .forum_helpers import age, new_thread, post_ids, reply, thread_id

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](  javascript:alert(1))",
    "![x](javascript:alert(1))",
    "![x](https://tracker.example/pixel.png)",
    '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
    '<a href="javascript:alert(1)">x</a>',
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;img src=x onerror=alert(1)&#62;",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<svg onload=alert(1)>",
    "<iframe src=javascript:alert(1)></iframe>",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "<style>body{display:none}</style>",
    "`<script>alert(1)</script>`",
]


SAFE_TAGS = {"p", "a", "code", "em", "strong", "br"}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str]]]] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.found.append((tag, [(k.lower(), (v or "").strip().lower()) for k, v in attrs]))


def tags(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every element of ``html`` with its attributes, as a browser would parse them."""
    parser = Tags()
    parser.feed(html)
    return parser.found


def body_html(page: str) -> str:
    """The rendered posts of a thread page."""
    return "\n".join(re.findall(r'<div class="post-body">(.*?)</div>', page, re.DOTALL))


def test_thread_reply_and_pages(person):
    a, b = person(), person()
    pk = thread_id(new_thread(a, "Opening theory in Kuniumi", "What do you *play* first?"))
    for i in range(service.POSTS_PER_PAGE):
        assert reply(b if i % 2 else a, pk, f"reply number {i}").status_code == 303
    first = a.get(f"/forum/thread/{pk}")
    assert "Opening theory in Kuniumi" in first.text
    assert "<em>play</em>" in first.text
    assert len(post_ids(first.text)) == service.POSTS_PER_PAGE
    second = a.get(f"/forum/thread/{pk}?page=2")
    assert "reply number 19" in second.text and len(post_ids(second.text)) == 1
    assert 'rel="prev"' in second.text
    for bad in ("3", "0", "x", "-1", "99999999999", "１"):
        assert a.get(f"/forum/thread/{pk}?page={bad}").status_code == 404
    listed = a.get("/forum/general")
    assert f'data-thread-id="{pk}"' in listed.text and "21 posts" in listed.text


@pytest.mark.parametrize("probe", HOSTILE)
def test_hostile_posts_and_titles_render_as_text(person, probe):
    a = person()
    pk = thread_id(new_thread(a, "t " + probe[:100], probe))
    page = a.get(f"/forum/thread/{pk}").text
    posts = body_html(page)
    title = re.search(r'<h1 id="thread-title">(.*?)</h1>', page, re.DOTALL).group(1)
    for html in (posts, title):
        for tag, attributes in tags(html):
            assert tag in SAFE_TAGS, (probe, tag)
            for name, value in attributes:
                assert not name.startswith("on"), (probe, name)
                if name == "href":
                    assert value.startswith(("https:", "http:", "mailto:", "/")), (probe, value)
    assert "<" not in title  # a title is text, always
    listed = a.get("/forum").text
    assert "<script>alert(1)" not in listed


def test_links_are_kept_and_marked(person):
    a = person()
    pk = thread_id(new_thread(a, "Links", "[the rules](https://example.org/rules) and **bold**"))
    posts = body_html(a.get(f"/forum/thread/{pk}").text)
    assert '<a href="https://example.org/rules" rel="nofollow noopener noreferrer ugc">' in posts


def test_a_game_and_a_position_embed_their_boards(person):
    a = person()
    game = create_game(a, "kuniumi", [("me", ""), ("bot", "random")])
    position = "6/6/3S2/2E3/6/6 setup"
    body = (
        f"Look at this game:\n\n[my game](/games/{game})\n\nand this position:\n\n"
        f"[a position](/forum/board/kuniumi?position={position.replace(' ', '+')})\n\n"
        "but not this one: [x](/forum/board/kuniumi?position=nonsense)"
    )
    pk = thread_id(new_thread(a, "Boards", body, "kuniumi"))
    posts = body_html(a.get(f"/forum/thread/{pk}").text)
    assert posts.count('<figure class="embed"><svg') == 2
    assert 'href="/forum/board/kuniumi?position=nonsense"' in posts  # just a link
    board = a.get(f"/forum/board/kuniumi?position={position}")
    assert board.status_code == 200 and "<svg" in board.text
    assert a.get("/forum/board/kuniumi?position=nonsense").status_code == 400
    assert a.get("/forum/board/nogame?position=x").status_code == 400
    assert a.get("/forum/board/kuniumi?position=" + "6/" * 1500).status_code == 400


def test_a_private_game_is_not_embedded(person):
    a = person()
    data = {"csrf": page_csrf(a), "game": "kuniumi", "seat0": "me", "seat1": "bot"}
    data |= {"seat1_bot": "random", "private": "on"}
    r = a.post("/games", data=data, follow_redirects=False)
    game = int(r.headers["location"].rsplit("/", 1)[1])
    pk = thread_id(new_thread(a, "Secret", f"[mine](/games/{game})"))
    assert "<svg" not in body_html(a.get(f"/forum/thread/{pk}").text)


def test_edit_window_and_edit_mark(person, forum_url):
    a, b = person(), person()
    pk = thread_id(new_thread(a, "Typos", "teh first post"))
    page = a.get(f"/forum/thread/{pk}").text
    post = post_ids(page)[0]
    assert f"/forum/post/{post}/edit" in page and "(edited" not in page
    form = {"csrf": page_csrf(a, "/forum"), "body": "the first post"}
    assert b.post(f"/forum/post/{post}/edit", data=form).status_code == 403
    r = a.post(f"/forum/post/{post}/edit", data=form, follow_redirects=False)
    assert r.status_code == 303
    page = a.get(f"/forum/thread/{pk}").text
    assert "the first post" in page and "(edited" in page
    engine = create_engine(forum_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE forum_posts SET created = :c WHERE id = :id"),
            {"c": "2000-01-01 00:00:00.000000", "id": post},
        )
    engine.dispose()
    late = a.post(f"/forum/post/{post}/edit", data=form | {"body": "later"})
    assert late.status_code == 409 and "add a reply instead" in late.text
    assert "later" not in a.get(f"/forum/thread/{pk}").text
    assert f"/forum/post/{post}/edit" not in a.get(f"/forum/thread/{pk}").text


def test_unread_markers(person):
    a, b = person(), person()
    pk = thread_id(new_thread(a, "Unread?", "hello"))

    def unread(client) -> bool:
        item = re.search(
            rf'<li class="thread-item([^"]*)" data-thread-id="{pk}"',
            client.get("/forum/general").text,
        )
        return "unread" in item.group(1)

    assert not unread(a)  # one's own post is read
    assert unread(b)
    b.get(f"/forum/thread/{pk}")
    assert not unread(b)
    assert reply(a, pk, "news").status_code == 303
    assert unread(b) and not unread(a)


def test_bad_input_is_refused_and_changes_nothing(person, club):
    a = person()
    before = a.get("/forum/general").text.count("thread-item")
    for title, body, needle in (
        ("", "text", "title has 3 to 120"),
        ("x" * 121, "text", "title has 3 to 120"),
        ("Fine title", "   ", "The post is empty"),
        ("\u200b\u202e!!!", "text", "letters or digits"),
        ("\x1b\x1b", "text", "title has 3 to 120"),
        ("Fine title", "x" * (service.MAX_BODY + 1), "at most 20000 characters"),
    ):
        r = new_thread(a, title, body)
        assert r.status_code == 400 and needle in r.text
        assert body[:50] in r.text  # what was typed is offered again
    assert new_thread(a, "nul\x00", "x").status_code == 400
    assert a.get("/forum/general").text.count("thread-item") == before
    assert a.get("/forum/nowhere").status_code == 404
    assert new_thread(a, "Fine title", "text", "nowhere").status_code == 404
    assert reply(a, 99999, "x").status_code == 404
    no_csrf = a.post("/forum/general/new", data={"title": "abc", "body": "x"})
    assert no_csrf.status_code == 403
    anon = type(club)(club.app)
    assert anon.post("/forum/general/new", data={"title": "abc", "body": "x"}).status_code in (
        401,
        403,
    )


def test_new_accounts_have_lower_posting_limits(person, forum_url):
    new = person("newbie", established=False)
    pk = thread_id(new_thread(new, "First", "hi"))
    assert thread_id(new_thread(new, "Second", "hi"))
    third = new_thread(new, "Third", "hi")
    assert third.status_code == 429 and "new account" in third.text
    assert int(third.headers["Retry-After"]) > 0
    for i in range(service_limit_new_posts() - 2):
        assert reply(new, pk, f"r{i}").status_code == 303
    refused = reply(new, pk, "one too many")
    assert refused.status_code == 429 and "one too many" in refused.text
    assert "one too many" not in new.get(f"/forum/thread/{pk}").text
    # The same account, a day older, may go on.
    age(forum_url, new.name, timedelta(days=1))
    assert reply(new, pk, "now established").status_code == 303


def service_limit_new_posts() -> int:
    from ludoteca.web.forum.limits import NEW

    return NEW.posts.count


def test_established_accounts_are_limited_too(person):
    from ludoteca.web.forum.limits import ESTABLISHED

    a = person()
    pk = thread_id(new_thread(a, "Chatty", "one"))
    for i in range(ESTABLISHED.posts.count - 1):
        assert reply(a, pk, f"r{i}").status_code == 303
    assert reply(a, pk, "too many").status_code == 429


def test_locked_threads_take_no_replies(person, forum_url):
    a = person()
    pk = thread_id(new_thread(a, "Closed soon", "text"))
    engine = create_engine(forum_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE forum_threads SET locked = 1 WHERE id = :id"), {"id": pk})
    engine.dispose()
    r = reply(a, pk, "late")
    assert r.status_code == 409 and "locked" in r.text
