"""Moderation in process: roles granted and revoked from the command line, reports, hiding
posts (and with an opening post, its thread), locking threads, suspensions with a reason
the user sees, blocks, and the log of everything moderators do."""

from __future__ import annotations

import re

from ludoteca.cli.main import main as cli
from tests.web.helpers import page_csrf

from .forum_helpers import new_thread, reply, thread_id


def grant(url: str, name: str, role: str = "moderator", action: str = "grant") -> int:
    return cli(["admin", action, name, role, "--database", url])


def post(client, path: str, **data):
    return client.post(path, data={"csrf": page_csrf(client, "/forum"), **data})


def posts_of(client, pk: int) -> list[str]:
    return re.findall(r'<article class="post([^"]*)"', client.get(f"/forum/thread/{pk}").text)


def test_admin_command_grants_and_revokes(person, forum_url, capsys):
    a = person()
    assert grant(forum_url, a.name) == 0
    assert "is now a moderator" in capsys.readouterr().out
    assert grant(forum_url, a.name) == 0
    assert "was already" in capsys.readouterr().out
    assert cli(["admin", "roles", "--database", forum_url]) == 0
    assert f"moderator\t{a.name}" in capsys.readouterr().out
    assert a.get("/moderation").status_code == 200
    assert grant(forum_url, a.name, action="revoke") == 0
    assert "is no longer a moderator" in capsys.readouterr().out
    assert a.get("/moderation").status_code == 403
    assert grant(forum_url, "nobody-here") == 2
    assert "no account has that name" in capsys.readouterr().err
    assert grant(forum_url, a.name, "emperor") == 2
    assert "not a role" in capsys.readouterr().err
    assert cli(["admin", "grant", a.name, "moderator", "--database", "nonsense://"]) == 2


def test_report_then_hide_then_show(person, forum_url):
    author, reader, mod = person(), person(), person()
    assert grant(forum_url, mod.name) == 0
    pk = thread_id(new_thread(author, "A fine thread", "Nothing wrong here"))
    r = reply(author, pk, "buy cheap watches")
    bad = int(r.headers["location"].rsplit("-", 1)[1])
    assert post(reader, f"/forum/post/{bad}/report", reason="spam").status_code == 200
    assert post(reader, f"/forum/post/{bad}/report", reason="  ").status_code == 400
    queue = mod.get("/moderation").text
    assert f'data-post-id="{bad}"' in queue and "spam" in queue
    # Only moderators hide.
    assert post(reader, f"/forum/post/{bad}/hide", reason="x").status_code == 403
    assert post(mod, f"/forum/post/{bad}/hide", reason="").status_code == 400
    assert post(mod, f"/forum/post/{bad}/hide", reason="advertising").status_code == 200
    assert "buy cheap watches" not in reader.get(f"/forum/thread/{pk}").text
    assert "hidden by a moderator" in reader.get(f"/forum/thread/{pk}").text
    assert "advertising" in author.get(f"/forum/thread/{pk}").text  # the author sees why
    assert f'data-post-id="{bad}"' not in mod.get("/moderation").text.split('id="mod-log"')[0]
    log = mod.get("/moderation").text.split('id="mod-log"')[1]
    assert f"hid post {bad} by {author.name}: advertising" in log
    assert post(mod, f"/forum/post/{bad}/show").status_code == 200
    assert "buy cheap watches" in reader.get(f"/forum/thread/{pk}").text
    assert f"showed post {bad} by {author.name} again" in mod.get("/moderation").text


def test_hiding_an_opening_post_hides_its_thread(person, forum_url):
    author, reader, mod = person(), person(), person()
    assert grant(forum_url, mod.name) == 0
    pk = thread_id(new_thread(author, "Offensive title", "and text"))
    opening = int(re.findall(r'data-post-id="(\d+)"', reader.get(f"/forum/thread/{pk}").text)[0])
    assert post(mod, f"/forum/post/{opening}/hide", reason="insults").status_code == 200
    assert "Offensive title" not in reader.get("/forum/general").text
    assert reader.get(f"/forum/thread/{pk}").status_code == 404
    assert mod.get(f"/forum/thread/{pk}").status_code == 200


def test_lock_and_unlock(person, forum_url):
    author, mod = person(), person()
    assert grant(forum_url, mod.name) == 0
    pk = thread_id(new_thread(author, "Heated", "text"))
    assert post(author, f"/forum/thread/{pk}/lock").status_code == 403
    assert post(mod, f"/forum/thread/{pk}/lock", reason="cool down").status_code == 200
    assert reply(author, pk, "more").status_code == 409
    assert 'id="reply"' not in author.get(f"/forum/thread/{pk}").text
    assert f"locked thread {pk}: cool down" in mod.get("/moderation").text
    assert post(mod, f"/forum/thread/{pk}/unlock").status_code == 200
    assert reply(author, pk, "more").status_code == 303


def test_suspension_with_a_reason_the_user_sees(person, forum_url):
    user, mod = person(), person()
    assert grant(forum_url, mod.name) == 0
    pk = thread_id(new_thread(user, "Before", "text"))
    for hours in ("0", "x", "-3", "99999999", ""):
        r = post(mod, "/moderation/suspend", name=user.name, hours=hours, reason="r")
        assert r.status_code == 400, hours
    r = post(mod, "/moderation/suspend", name="no-such-user", hours="2", reason="r")
    assert r.status_code == 404
    by_user = post(user, "/moderation/suspend", name=mod.name, hours="2", reason="r")
    assert by_user.status_code == 403
    r = post(mod, "/moderation/suspend", name=user.name, hours="48", reason="repeated insults")
    assert r.status_code == 200
    refused = reply(user, pk, "let me speak")
    assert refused.status_code == 403 and "repeated insults" in refused.text
    assert "may not write in the forum or chat until" in refused.text
    assert new_thread(user, "Again", "x").status_code == 403
    assert "repeated insults" in user.get("/forum").text  # shown on the forum's pages
    assert "let me speak" not in user.get(f"/forum/thread/{pk}").text
    queue = mod.get("/moderation").text
    assert f"suspended {user.name} for 48 h: repeated insults" in queue
    listed = queue.split('id="suspensions"', 1)[1].split("</ul>", 1)[0]
    assert f'data-user="{user.name}"' in listed and "repeated insults" in listed
    assert post(mod, "/moderation/unsuspend", name=user.name).status_code == 200
    queue = mod.get("/moderation").text
    assert f'data-user="{user.name}"' not in queue.split('id="suspensions"', 1)[1]
    assert f"lifted the suspension of {user.name}" in queue
    assert reply(user, pk, "thank you").status_code == 303
    assert post(mod, "/moderation/unsuspend", name=user.name).status_code == 409


def test_blocking_hides_posts_from_the_blocker_only(person):
    rude, me, other = person(), person(), person()
    pk = thread_id(new_thread(me, "Block test", "hello"))
    assert reply(rude, pk, "you are all idiots").status_code == 303
    mine = post(me, f"/users/{rude.name}/block", next=f"/forum/thread/{pk}")
    assert mine.status_code == 200
    page = me.get(f"/forum/thread/{pk}").text
    assert "you are all idiots" not in page and "someone you have blocked" in page
    assert "you are all idiots" in other.get(f"/forum/thread/{pk}").text
    rude_thread = thread_id(new_thread(rude, "Rude thread", "x"))
    assert f'data-thread-id="{rude_thread}"' not in me.get("/forum/general").text
    assert post(me, f"/users/{me.name}/block").status_code == 400
    assert post(me, "/users/nobody-at-all/block").status_code == 404
    assert post(me, f"/users/{rude.name}/unblock").status_code == 200
    assert "you are all idiots" in me.get(f"/forum/thread/{pk}").text


def test_reports_are_limited(person):
    from ludoteca.web.forum.limits import ESTABLISHED

    author, reporter = person(), person()
    pk = thread_id(new_thread(author, "Many", "text"))
    page = author.get(f"/forum/thread/{pk}").text
    target = int(re.findall(r'data-post-id="(\d+)"', page)[0])
    for _ in range(ESTABLISHED.reports.count):
        assert post(reporter, f"/forum/post/{target}/report", reason="r").status_code == 200
    assert post(reporter, f"/forum/post/{target}/report", reason="r").status_code == 429
