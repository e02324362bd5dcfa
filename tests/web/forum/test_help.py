"""Help and about answer on a fresh club and are linked from every page; the forum's
tables in migration 0004 are the ones the code maps."""

from __future__ import annotations

import pytest

from tests.web.inprocess import club_in_process

PAGES = ["/", "/login", "/register", "/rules", "/rules/kuniumi", "/leaderboard", "/forum", "/stats",
         "/forum/general", "/forum/search?q=x", "/help", "/about", "/no-such-page"]  # fmt: skip


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('help') / 'club.sqlite3'}"
    with club_in_process(url) as client:
        yield client, url


def test_help_and_about_on_a_fresh_club(fresh):
    client, _ = fresh
    help_page = client.get("/help")
    assert help_page.status_code == 200
    for section in ("register", "games", "clocks", "ratings", "computer", "replays", "forum"):
        assert f'id="{section}"' in help_page.text
    assert help_page.text.count("<svg") >= 4  # the engines' boards as pictures
    assert "master" in help_page.text  # the computer levels are listed
    about = client.get("/about")
    assert about.status_code == 200
    for designer in ("Kanare Kato", "Corné van Moorsel", "Ignazio Panades", "Professor Puzzle"):
        assert designer in about.text
    for game in ("Comune", "Comino", "Kuniumi", "Hexagone"):
        assert game in about.text


def test_every_page_links_help_about_and_forum(fresh):
    client, _ = fresh
    for path in PAGES:
        page = client.get(path).text
        for link in ('href="/help"', 'href="/about"', 'href="/forum"'):
            assert link in page, (path, link)


def test_migration_matches_the_models(fresh):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    from ludoteca.web.challenges import models as _challenges  # noqa: F401
    from ludoteca.web.chat import models as _chat  # noqa: F401
    from ludoteca.web.forum import models as _forum  # noqa: F401 - registers the tables
    from ludoteca.web.infra.store import Base
    from ludoteca.web.moderation import models as _moderation  # noqa: F401
    from ludoteca.web.notify import models as _notify  # noqa: F401
    from ludoteca.web.stats import models as _stats  # noqa: F401

    _, url = fresh
    engine = create_engine(url)
    ours = {
        "forum_threads", "forum_posts", "forum_reads", "user_roles", "suspensions",
        "reports", "blocks", "moderation_log", "notifications", "notification_prefs",
        "mail_outbox", "challenges", "chat_lines", "chat_mutes", "chat_reports", "game_tallies",
    }  # fmt: skip
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()

    def table_of(change) -> str | None:
        item = change[0] if isinstance(change, list) else change
        for part in item[1:]:
            name = getattr(part, "name", None) if not isinstance(part, str) else part
            table = getattr(part, "table", None)
            if table is not None and getattr(table, "name", None) in ours:
                return table.name
            if name in ours:
                return name
        return None

    assert [c for c in diff if table_of(c)] == []
