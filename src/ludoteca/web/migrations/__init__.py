"""Alembic migrations of the web club's schema; run by :func:`ludoteca.web.infra.store.migrate`."""
