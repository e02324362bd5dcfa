"""A pooled PostgreSQL connection is pinged before use only after resting: a busy club sends
no pings, and a connection that died while idle is replaced before a request sees it."""

from __future__ import annotations

import time

import psycopg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from ludoteca.web.infra.pool_ping import ping_when_idle
from ludoteca.web.infra.store import make_engine


def _engine(url: str, idle: float):
    engine = create_engine(url, pool_size=1, max_overflow=0)
    ping_when_idle(engine, idle_seconds=idle)
    return engine


def _backend(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT pg_backend_pid()")).scalar_one()


def _terminate(url: str, pid: int) -> None:
    plain = url.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(plain, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.1)


def test_a_connection_that_died_while_resting_is_replaced_unseen(postgres):
    url = postgres.fresh_database("ping_rested")
    engine = _engine(url, idle=0.2)
    first = _backend(engine)
    _terminate(url, first)
    time.sleep(0.3)  # rested: pinged at checkout, found dead, replaced
    second = _backend(engine)
    assert second != first
    engine.dispose()


def test_a_connection_back_a_moment_ago_is_not_pinged(postgres):
    """The proof that no ping is sent: a connection killed behind the pool's back and taken
    again at once fails at its first statement (which a ping would have caught), and the
    pool then replaces it for the next request."""
    url = postgres.fresh_database("ping_busy")
    engine = _engine(url, idle=60)
    first = _backend(engine)
    _terminate(url, first)
    with pytest.raises(OperationalError):
        _backend(engine)
    assert _backend(engine) != first
    engine.dispose()


def test_the_clubs_engine_pings_only_rested_connections(postgres):
    url = postgres.fresh_database("ping_club")
    engine = make_engine(url)
    assert not engine.pool._pre_ping
    first = _backend(engine)
    _terminate(url, first)
    with pytest.raises(OperationalError):
        _backend(engine)
    engine.dispose()
