"""Two club processes on one PostgreSQL database (two apps, each with its own connection
pool): what is written through one is read, found and moderated through the other."""

from __future__ import annotations

import re

from ludoteca.cli.main import main as cli
from tests.web.helpers import page_csrf, register
from tests.web.inprocess import club_in_process, new_client

from .forum_helpers import new_thread, reply, thread_id


def test_the_forum_is_shared_by_every_process(postgres):
    url = postgres.fresh_database("forumtwo")
    with club_in_process(url) as one, club_in_process(url) as two:
        assert register(one, "alpha").status_code == 303
        mod = new_client(two)
        assert register(mod, "omega").status_code == 303
        assert cli(["admin", "grant", "omega", "moderator", "--database", url]) == 0
        pk = thread_id(new_thread(one, "Across machines", "written on one"))
        assert "written on one" in two.get(f"/forum/thread/{pk}").text
        assert "Across machines" in two.get("/forum/search", params={"q": "machines"}).text
        r = reply(one, pk, "hide me")
        post = int(r.headers["location"].rsplit("-", 1)[1])
        hidden = mod.post(
            f"/forum/post/{post}/hide", data={"csrf": page_csrf(mod, "/forum"), "reason": "r"}
        )
        assert hidden.status_code == 200
        page = one.get(f"/forum/thread/{pk}").text
        assert "hide me" not in page and "hidden by a moderator" in page
        lock = mod.post(f"/forum/thread/{pk}/lock", data={"csrf": page_csrf(mod, "/forum")})
        assert lock.status_code == 200
        assert reply(one, pk, "still there?").status_code == 409
        assert re.search(r"hid post \d+ by alpha", mod.get("/moderation").text)
