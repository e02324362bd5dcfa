"""Alembic environment: the connection comes from :func:`ludoteca.web.infra.store.migrate`, or
from ``sqlalchemy.url`` when Alembic is run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ludoteca.web.infra.store import Base, normalise_url

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(normalise_url(config.get_main_option("sqlalchemy.url") or ""))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
