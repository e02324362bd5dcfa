"""Posts sent at once cannot pass a posting limit together, on SQLite and on PostgreSQL:
the author's row is held while the posts are counted (two stores stand for two server
processes)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func, select

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.forum.limits import NEW
from ludoteca.web.forum.models import ForumPost
from ludoteca.web.forum.service import Forum
from ludoteca.web.infra.store import Store
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.service import GameService

ATTEMPTS = 12


def test_simultaneous_posts_stay_within_the_limit(url):
    stores = [Store(url), Store(url, migrate_schema=False)]
    try:
        user = Accounts(stores[0], b"k").register("racer", "correct horse battery")
        forums = [Forum(s, GameService(s)) for s in stores]
        thread = forums[0].create_thread(user, "general", "Race", "first")

        def attempt(i: int) -> bool:
            try:
                forums[i % 2].reply(user, thread.id, f"reply {i}")
            except ClubError as exc:
                assert exc.status == 429, exc.message
                return False
            return True

        with ThreadPoolExecutor(ATTEMPTS) as pool:
            passed = sum(pool.map(attempt, range(ATTEMPTS)))
        assert passed == NEW.posts.count - 1  # the opening post counts too
        with stores[0].session() as db:
            stored = db.scalar(select(func.count()).select_from(ForumPost))
            assert stored == NEW.posts.count
    finally:
        for s in stores:
            s.dispose()
