"""The club in this test process: ``create_app`` served through Starlette's test client, on
a real database (a SQLite file or the throw-away PostgreSQL), with the toy game installed.

Quicker than a server in a subprocess, so that property-based tests can send it hundreds of
requests; everything from the routing to the database is the real thing.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import StaticPool

from ludoteca.web.infra.store import normalise_url
from tests.web.helpers import create_game, join, register

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which is not needed here
    from starlette.testclient import TestClient

STATE_TABLES = ("users", "games", "seats", "moves", "ratings", "rating_history", "settings")
"""What a refused request must leave as it was (failed log-ins are counted elsewhere, in
``login_attempts``, on purpose)."""


@contextmanager
def club_in_process(url: str) -> Iterator[TestClient]:
    from ludoteca.web.app import create_app

    app = create_app(url, bot_pool="thread")
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def new_client(first: TestClient) -> TestClient:
    """Another browser on the same app (its own cookies), sharing the app's lifespan."""
    return TestClient(first.app, raise_server_exceptions=False)


def table_game(client: TestClient, other: TestClient, a: str, b: str) -> int:
    """Register ``a`` (in ``client``) and ``b`` (in ``other``) and seat them at a toy game."""
    assert register(client, a).status_code == 303
    assert register(other, b).status_code == 303
    pk = create_game(client, "toy", [("me", ""), ("open", "")])
    assert join(other, pk).status_code == 303
    return pk


@cache
def _engine(url: str) -> Engine:
    """One connection pool per database for the snapshots (a test takes hundreds)."""
    return create_engine(normalise_url(url), poolclass=StaticPool)


def snapshot(url: str) -> dict[str, list[tuple]]:
    """Every row of the tables that hold the club's state, in a fixed order."""
    with _engine(url).connect() as conn:
        out = {
            table: sorted(
                tuple(map(repr, row)) for row in conn.execute(text(f"SELECT * FROM {table}"))
            )
            for table in STATE_TABLES
        }
        conn.rollback()
        return out


def to_move(pk: int, *clients: TestClient) -> TestClient:
    """Which of the players' clients is to move (the toss decides who starts)."""
    for client in clients:
        if client.get(f"/api/games/{pk}").json()["your_turn"]:
            return client
    raise AssertionError(f"none of these players is to move in game {pk}")
