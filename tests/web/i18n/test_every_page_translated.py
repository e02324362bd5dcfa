"""Every page, plot and refusal a person reads passes through the catalogs.

A crawl of the club in this process, as a member with games (finished, rated, in progress,
Kuniumi with its gods placed), a forum thread embedding a board, a challenge, notifications
and the moderators' page: it starts from the pages the menu and footer link and follows
every link on the club's own pages (a few of each kind of address), so pages added later
are crawled as soon as something links them. Three crawls:

- in a pseudo-locale (a language the club does not speak, whose catalog writes every
  message in brackets): English words outside brackets reached a person untranslated;
- in German and in Japanese: no English message id may show.

Run alone: ``pytest tests/web/i18n/test_every_page_translated.py``; a failure lists each
page with the texts at fault.
"""

from __future__ import annotations

import logging
import re
from collections import Counter, deque
from datetime import timedelta
from urllib.parse import urljoin, urlsplit

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from starlette.routing import Match

from ludoteca.web.infra.store import User, normalise_url
from ludoteca.web.moderation.models import UserRole
from tests.web.community.helpers import accepted, challenge, finish
from tests.web.forum.forum_helpers import age, new_thread, thread_id
from tests.web.helpers import create_game, join, move, page_csrf, register, view
from tests.web.i18n.pseudo import english_left, pseudo_language, reading, untransformed
from tests.web.inprocess import TestClient, new_client

PER_ROUTE = 2
"""Addresses crawled per route (``/games/{pk}``…): the kinds of page, not every game."""
START = (
    "/",
    "/help",
    "/about",
    "/stats",
    "/leaderboard",
    "/rules",
    "/forum",
    "/games/new",
    "/challenges",
    "/notifications",
    "/moderation",
    "/login",
    "/register",
)
LOGGED_ON_PURPOSE = "An error logged on purpose, shown on the operator page as written"
SKIP = re.compile(r"^/(static|logout|api)/?|^/language|\.(png|json|js|css)$")
NAMES = ("zqann", "zqbob")


@pytest.fixture(scope="module")
def crawl_club(tmp_path_factory):
    """A club with something on every page, and a member (a moderator) to read it. Its
    games are the four and the web tests' toy: toy games other test folders register in the
    same process (the bots' toy-coins, …) are no part of a club and are not crawled."""
    from ludoteca.core import registry
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.throttle import Limit, Limits

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_extra", {k: v for k, v in registry._extra.items() if k == "toy"})
        yield from _crawl_club(tmp_path_factory, create_app, Limit, Limits)


def _crawl_club(tmp_path_factory, create_app, Limit, Limits):

    url = f"sqlite:///{tmp_path_factory.mktemp('crawl') / 'club.sqlite3'}"
    app = create_app(url, bot_pool="thread", limits=Limits(register_per_address=Limit(100, 60)))
    with TestClient(app, raise_server_exceptions=False) as ann:
        bob = new_client(ann)
        for client, name in zip((ann, bob), NAMES, strict=True):
            assert register(client, name).status_code == 303
            age(url, name, timedelta(days=3))
            client.name = name  # type: ignore[attr-defined]
        engine = create_engine(normalise_url(url))
        with Session(engine) as db, db.begin():  # a moderator, as `ludoteca admin grant` makes
            user = db.scalar(select(User).where(User.name_key == NAMES[0]))
            db.add(UserRole(user_id=user.id, role="moderator"))
        engine.dispose()
        finish(ann, bob, accepted(ann, bob))
        kuniumi = create_game(ann, "kuniumi", [("me", ""), ("open", "")])
        assert join(bob, kuniumi).status_code == 303
        for _ in range(2):  # the gods on the board
            mover = ann if view(ann, kuniumi)["your_turn"] else bob
            state = view(mover, kuniumi)
            assert move(mover, kuniumi, state["legal"][0]["text"]).status_code == 200
        thread = thread_id(new_thread(ann, "Zqzq zq", f"[zq](/games/{kuniumi})\n\nqqq zq"))
        assert thread
        challenge(bob, NAMES[0])
        ann.kuniumi = kuniumi  # type: ignore[attr-defined]
        # The operator's page lists the errors this process logged, in the log's own words
        # (other tests' errors too, in the same process): one is logged here, so the crawl
        # always reads that list, whichever tests ran before it.
        try:
            raise ValueError("a deliberate error")
        except ValueError:
            logging.getLogger("ludoteca.web.crawl").exception(LOGGED_ON_PURPOSE)
        yield ann, new_client(ann)


def route_of(app, path: str) -> str | None:
    for route in app.router.routes:
        match, _ = route.matches({"type": "http", "path": path, "method": "GET"})
        if match == Match.FULL:
            return getattr(route, "path", path)
    return None


def crawl(client: TestClient, check) -> dict[str, list]:
    """Every page reachable from :data:`START` by links (:data:`PER_ROUTE` per route), each
    read and given to ``check``; returns the faults by address."""
    seen: set[str] = set()
    per_route: Counter[str] = Counter()
    queue = deque(START)
    faults: dict[str, list] = {}
    while queue:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        route = route_of(client.app, urlsplit(path).path)
        if route is None or per_route[route] >= PER_ROUTE:
            continue
        per_route[route] += 1
        response = client.get(path)
        kind = response.headers.get("content-type", "")
        if "html" not in kind and "svg" not in kind:
            continue
        found = check(reading(response.text))
        if found:
            faults[path] = found
        for href in re.findall(r'href="([^"#]+)', response.text):
            target = urlsplit(urljoin("http://club" + path, href.replace("&amp;", "&")))
            if target.netloc == "club" and not SKIP.search(target.path):
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    assert len(per_route) > 20, f"the crawl reached only {sorted(per_route)}"
    return faults


def refusals(client: TestClient, pk: int) -> list[str]:
    """What a person reads when the club refuses: a page that is not there, and a move sent
    from a board that has changed since (the game page shows the answer's error)."""
    texts = reading(client.get("/games/999999").text)
    stale = move(client, pk, "a1", ply=0, csrf=page_csrf(client))
    texts.append(stale.json().get("error", ""))
    return texts


def in_language(client: TestClient, code: str) -> None:
    assert (
        client.post("/language", data={"lang": code, "csrf": page_csrf(client)}).status_code < 400
    )
    client.cookies.set("lang", code)


def report(faults: dict[str, list]) -> str:
    return "\n".join(f"{path}: {found[:6]}" for path, found in sorted(faults.items()))


def test_every_text_a_person_reads_passes_through_the_catalogs(crawl_club):
    ann, visitor = crawl_club
    allowed = {n for n in NAMES} | {"ludoteca", "zqzq"}
    from ludoteca.web.round.catalog import available_games

    allowed |= {
        w.lower() for cls in available_games().values() for w in re.findall(r"\w+", cls.title)
    }
    with pseudo_language() as code:
        for client in (ann, visitor):
            in_language(client, code)
        assert LOGGED_ON_PURPOSE in ann.get("/operator").text  # the log's lines, as written
        faults = crawl(ann, lambda texts: untransformed(texts, allowed))
        faults |= crawl(visitor, lambda texts: untransformed(texts, allowed))
        refused = untransformed(refusals(ann, ann.kuniumi), allowed)
    if refused:
        faults["(refusals)"] = refused
    assert not faults, "untranslated texts:\n" + report(faults)


@pytest.mark.parametrize("code", ["de", "ja"])
def test_no_english_message_shows_in_german_or_japanese(crawl_club, code):
    ann, visitor = crawl_club
    for client in (ann, visitor):
        in_language(client, code)
    faults = crawl(ann, lambda texts: english_left(texts, code))
    faults |= crawl(visitor, lambda texts: english_left(texts, code))
    refused = english_left(refusals(ann, ann.kuniumi), code)
    if refused:
        faults["(refusals)"] = refused
    assert not faults, "English on a page:\n" + report(faults)
