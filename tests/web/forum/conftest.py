"""Fixtures for the forum tests: one in-process club per module on a SQLite file, and
helpers that write threads and replies as a browser's forms would."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from tests.web.helpers import register
from tests.web.inprocess import TestClient, new_client

from .forum_helpers import age

_names = itertools.count(1)


@pytest.fixture(scope="module")
def forum_url(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('forum') / 'club.sqlite3'}"


@pytest.fixture(scope="module")
def club(forum_url):
    """The club with room for the many accounts these tests register from one address."""
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.throttle import Limit, Limits

    limits = Limits(register_per_address=Limit(10_000, 60))
    app = create_app(forum_url, bot_pool="thread", limits=limits)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def person(club, forum_url):
    """A fresh account in its own browser; ``established=True`` ages it past the new-account
    limits."""

    def make(prefix: str = "fo", established: bool = True):
        client = new_client(club)
        name = f"{prefix}{next(_names)}"
        assert register(client, name).status_code == 303
        if established:
            age(forum_url, name, timedelta(days=2))
        client.name = name  # type: ignore[attr-defined]
        return client

    return make
