"""The forum in a real headless Chromium against a real server: a thread is written with
hostile content that must stay text, replied to, found by search, reported and hidden by a
moderator (granted from the command line, as on a real club); a new account's posting
limit holds; help and about are a click away; the pages fit a 390 px phone."""

from __future__ import annotations

import pytest

from ludoteca.cli.main import main as cli
from ludoteca.web.forum.limits import NEW
from tests.web.browser import register_in_browser
from tests.web.helpers import Server

HOSTILE_TITLE = '<img src=x onerror="window.pwned=1"> &amp; <script>window.pwned=2</script>'
HOSTILE_BODY = (
    "Zugzwang in the endgame.\n\n"
    "<script>window.pwned=3</script>\n\n"
    '<img src=x onerror="window.pwned=4">\n\n'
    "[click me](javascript:window.pwned=5)\n\n"
    "![pic](javascript:window.pwned=6)\n\n"
    "&lt;b&gt;not bold&lt;/b&gt;"
)


FITS = """(m => m.scrollWidth <= m.clientWidth && m.clientWidth <= 390)
    (document.querySelector('main'))"""
WIDE = """(m => [m.scrollWidth, m.clientWidth, ...[...m.querySelectorAll('*')]
    .filter(e => e.getBoundingClientRect().right - m.getBoundingClientRect().left > m.clientWidth)
    .map(e => e.tagName + '.' + e.className)])(document.querySelector('main'))"""
"""The elements of the page that stick out of a 390 px screen, to say which when one does."""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("forum-browser")
    url = f"sqlite:///{tmp / 'club.sqlite3'}"
    srv = Server(url, toy=False, log=tmp / "server.log").start()
    srv.database = url  # type: ignore[attr-defined]
    yield srv
    srv.kill()


def person(browser, base: str, name: str, width: int = 1100):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    register_in_browser(page, base, name)
    page.dialogs = dialogs  # type: ignore[attr-defined]
    return context, page


def not_pwned(page) -> None:
    assert page.evaluate("window.pwned === undefined")
    assert page.dialogs == []


def test_write_reply_search_report_hide(browser, club):
    base = club.base
    ctx_a, a = person(browser, base, "writer")
    ctx_b, b = person(browser, base, "replier", width=390)
    ctx_m, m = person(browser, base, "warden1")
    assert cli(["admin", "grant", "warden1", "moderator", "--database", club.database]) == 0

    # Write a thread with hostile title and body: everything stays text.
    a.click("header nav a[href='/forum']")
    a.click("a[href='/forum/general']")
    a.click("#new-thread")
    a.fill("input[name=title]", HOSTILE_TITLE)
    a.fill("textarea[name=body]", HOSTILE_BODY)
    a.click("form.write button[type=submit]")
    a.wait_for_selector("#thread-title")
    thread_url = a.url
    assert a.inner_text("#thread-title") == HOSTILE_TITLE  # "&amp;" too stays as typed
    body = a.locator("article.post .post-body").first
    assert "<script>window.pwned=3</script>" in body.inner_text()
    assert "<b>not bold</b>" in body.inner_text()
    assert body.locator("script, img, b").count() == 0
    assert body.locator("a[href^='javascript']").count() == 0
    not_pwned(a)

    # Reply from a phone-sized browser; the forum's pages fit it.
    b.goto(thread_url)
    b.fill("#reply textarea[name=body]", "Answer: **the king** walks.")
    b.click("#reply button[type=submit]")
    b.wait_for_selector("article.post >> nth=1")
    assert b.inner_text("article.post >> nth=1 >> strong") == "the king"
    assert b.evaluate(FITS), b.evaluate(WIDE)
    not_pwned(b)

    # The writer finds the thread by a word of its post.
    a.goto(base + "/forum")
    a.fill(".forum-search input[name=q]", "zugzwang")
    a.click(".forum-search button")
    a.wait_for_selector("li.hit")
    assert a.locator("li.hit").count() == 1
    a.click("li.hit a")
    a.wait_for_selector("#thread-title")
    not_pwned(a)

    # The replier reports the opening post; the moderator hides it from the queue.
    b.goto(thread_url)
    first = b.locator("article.post").first
    first.locator("details.report summary").click()
    first.locator("details.report input[name=reason]").fill("script injection attempt")
    first.locator("details.report button").click()
    b.wait_for_selector("#report-sent")
    m.click("header nav a[href='/forum']")
    m.click("a[href='/moderation']")
    item = m.locator("li.report-item").first
    assert "script injection attempt" in item.inner_text()
    item.locator("button.hide").click()
    m.wait_for_selector("#mod-log")
    assert m.locator("li.report-item").count() == 0
    assert "hid post" in m.inner_text("#mod-log")
    a.goto(base + "/forum/general")
    assert a.locator(".thread-item").count() == 0  # hiding the opening post hid the thread
    not_pwned(m)

    # A new account's posting limit holds (the replier has written one post so far).
    c_ctx, c = person(browser, base, "newcomer")
    c.goto(base + "/forum/site/new")
    c.fill("input[name=title]", "Hello all")
    c.fill("textarea[name=body]", "post 1")
    c.click("form.write button[type=submit]")
    c.wait_for_selector("#thread-title")
    for i in range(2, NEW.posts.count + 1):
        c.fill("#reply textarea[name=body]", f"post {i}")
        c.click("#reply button[type=submit]")
        c.wait_for_selector(f"text=post {i}")
    c.fill("#reply textarea[name=body]", "one too many")
    c.click("#reply button[type=submit]")
    c.wait_for_selector(".error")
    assert "new account" in c.inner_text(".error")
    assert c.input_value("textarea[name=body]") == "one too many"  # nothing typed is lost

    # Help and about are linked from every page.
    c.click("footer a[href='/about']")
    c.wait_for_url("**/about")
    assert "Corné van Moorsel" in c.inner_text("main")
    c.click("footer a[href='/help']")
    c.wait_for_selector("#forum")
    assert c.locator("#forum").count() == 1 and c.locator("main svg").count() >= 4
    for ctx in (ctx_a, ctx_b, ctx_m, c_ctx):
        ctx.close()
