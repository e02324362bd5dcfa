"""Fixtures for the web tests: a real server (uvicorn in a subprocess, toy game registered)
on a fresh SQLite file, and logged-in clients with unique user names."""

from __future__ import annotations

import itertools

import httpx
import pytest

from tests.support.toygames.toss import install  # noqa: E402
from tests.web.browser import browser  # noqa: E402, F401 - fixture for the browser tests
from tests.web.helpers import Server, register  # noqa: E402
from tests.web.postgres import postgres  # noqa: E402, F401 - fixture for the storage tests

install()
_names = itertools.count(1)
_databases = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("club")
    srv = Server(f"sqlite:///{tmp / 'club.sqlite3'}", log=tmp / "server.log").start()
    yield srv
    srv.kill()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A fresh, empty database of each kind the club runs on: a SQLite file, and a new
    database on the throw-away PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'club.sqlite3'}"
    return request.getfixturevalue("postgres").fresh_database(f"club{next(_databases)}")


@pytest.fixture
def make_user(server, request):
    clients: list[httpx.Client] = []

    def make(prefix: str = "user") -> httpx.Client:
        client = httpx.Client(base_url=server.base, timeout=20)
        clients.append(client)
        name = f"{prefix}{next(_names)}"
        r = register(client, name)
        assert r.status_code == 303, r.text
        client.name = name  # type: ignore[attr-defined]
        return client

    yield make
    for c in clients:
        c.close()


@pytest.fixture
def anon(server):
    with httpx.Client(base_url=server.base, timeout=20) as client:
        yield client


def pytest_terminal_summary(terminalreporter):
    """Say where the pictures the whole-game harness took are, for a person to look at."""
    from tests.web.look import TAKEN, looks_dir

    if TAKEN:
        terminalreporter.write_line(f"{len(TAKEN)} screenshots of the games played: {looks_dir()}")
