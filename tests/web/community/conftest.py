"""Fixtures for the community tests: one in-process club per module on a SQLite file, with
accounts registered as a browser does."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from tests.web.forum.forum_helpers import age
from tests.web.helpers import register
from tests.web.inprocess import TestClient, new_client

_names = itertools.count(1)


@pytest.fixture(scope="module")
def club_url(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('community') / 'club.sqlite3'}"


@pytest.fixture(scope="module")
def club(club_url):
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.throttle import Limit, Limits

    limits = Limits(register_per_address=Limit(10_000, 60))
    app = create_app(club_url, bot_pool="thread", limits=limits)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def person(club, club_url):
    """A fresh account in its own browser, past the new-account limits unless asked."""

    def make(prefix: str = "cm", established: bool = True):
        client = new_client(club)
        name = f"{prefix}{next(_names)}"
        assert register(client, name).status_code == 303
        if established:
            age(club_url, name, timedelta(days=2))
        client.name = name  # type: ignore[attr-defined]
        return client

    return make
