"""Markdown is rendered only for a post that may be written: a suspended account, one at
its posting or editing limit, or a body built to make the renderer slow is refused first,
without rendering anything (the costly part of a post)."""

from __future__ import annotations

import pytest

from ludoteca.web.forum import markup
from ludoteca.web.forum.limits import ESTABLISHED, NEW
from tests.web.helpers import page_csrf

from .forum_helpers import new_thread, post_ids, reply, thread_id
from .test_moderation import grant, post

SLOW = "[](![" * 3998
"""The body that took 0.5–0.8 s to render on every refused request."""


@pytest.fixture
def renders(monkeypatch) -> list[int]:
    """The lengths of the bodies the club renders (the renderer itself still runs)."""
    seen: list[int] = []
    real = markup.render

    def counted(source, *args, **kwargs):
        seen.append(len(source))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(markup, "render", counted)
    return seen


def test_a_post_beyond_the_limit_is_refused_before_rendering(person, renders):
    new = person("lim", established=False)
    pk = thread_id(new_thread(new, "Limits", "hi"))
    for i in range(NEW.posts.count - 1):
        assert reply(new, pk, f"r{i}").status_code == 303
    renders.clear()
    refused = reply(new, pk, "[x](/y) " * 50)
    assert refused.status_code == 429
    assert new_thread(new, "More", "hi there").status_code == 429
    assert renders == []


def test_a_suspended_account_is_refused_before_rendering(person, forum_url, renders):
    user, mod = person(), person()
    assert grant(forum_url, mod.name) == 0
    pk = thread_id(new_thread(user, "Suspended soon", "text"))
    [mine] = post_ids(user.get(f"/forum/thread/{pk}").text)
    assert (
        post(mod, "/moderation/suspend", name=user.name, hours="2", reason="r").status_code == 200
    )
    renders.clear()
    assert reply(user, pk, "still here").status_code == 403
    assert new_thread(user, "Another", "text").status_code == 403
    edited = user.post(
        f"/forum/post/{mine}/edit",
        data={"csrf": page_csrf(user, "/forum"), "body": "changed"},
        follow_redirects=False,
    )
    assert edited.status_code == 403
    assert renders == []


def test_edits_are_limited(person, renders):
    a = person()
    pk = thread_id(new_thread(a, "Edited often", "v0"))
    [mine] = post_ids(a.get(f"/forum/thread/{pk}").text)

    def edit(body: str):
        return a.post(
            f"/forum/post/{mine}/edit",
            data={"csrf": page_csrf(a, "/forum"), "body": body},
            follow_redirects=False,
        )

    for i in range(ESTABLISHED.edits.count):
        assert edit(f"v{i + 1}").status_code == 303
    renders.clear()
    refused = edit("one edit too many")
    assert refused.status_code == 429 and "edits in" in refused.text
    assert int(refused.headers["Retry-After"]) > 0
    assert renders == []


def test_a_body_built_to_be_slow_is_refused_unrendered(person, renders):
    a = person()
    pk = thread_id(new_thread(a, "Brackets", "text"))
    renders.clear()
    refused = reply(a, pk, SLOW)
    assert refused.status_code == 400 and "at most" in refused.text
    assert reply(a, pk, "[a](/b) " * (markup.MAX_LINKS + 1)).status_code == 400
    assert renders == []
    assert reply(a, pk, "[a](/games/1) and [b](http://example.org) " * 40).status_code == 303
