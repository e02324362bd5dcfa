"""A throw-away PostgreSQL server for the storage tests (see
:mod:`ludoteca.web.infra.throwaway_postgres`, which the load benchmark uses too).

Without PostgreSQL installed the fixture skips, except under ``CI``, where a missing server
is a failure.
"""

from __future__ import annotations

import os

import pytest

from ludoteca.web.infra.throwaway_postgres import PostgresUnavailable, ThrowawayPostgres, pg_bin

__all__ = ["Postgres", "pg_bin", "postgres"]


class Postgres(ThrowawayPostgres):
    def __init__(self) -> None:
        try:
            super().__init__()
        except PostgresUnavailable as exc:
            if os.environ.get("CI"):
                pytest.fail(f"{exc} and CI is set: the storage tests need it")
            pytest.skip(str(exc))


@pytest.fixture(scope="session")
def postgres():
    server = Postgres().start()
    yield server
    server.stop()
