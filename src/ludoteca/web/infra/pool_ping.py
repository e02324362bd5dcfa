"""Checking a pooled PostgreSQL connection before use only when it may have gone stale.

SQLAlchemy's ``pool_pre_ping`` sends a round trip to the server at every checkout. A move
checks out a connection two or three times (whose session it is, the move, and in every
other process the read of what changed), so under load the pings were the club's most
frequent statement: 5.4 of them for every move in a run of ``bench/load.py --servers 2``
with statement logging, more than any statement that did work.

A connection that went back to the pool a moment ago is alive as far as anyone can know
without using it: if the server restarted meanwhile, its first statement fails as a
disconnect, SQLAlchemy then discards every connection opened before that moment, and the
request is answered "try again in a moment" (503), as any request during a restart is.
So only a connection that has rested for :data:`IDLE_SECONDS` is pinged when it is taken;
one that fails the ping is replaced there and then, unseen by the request (the pool's own
way: raising :class:`~sqlalchemy.exc.DisconnectionError` in ``checkout``). A club that
was idle through a restart or a server's idle timeout therefore sees no error at all.
"""

from __future__ import annotations

import time

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

IDLE_SECONDS = 2.0
"""A connection back in the pool for longer than this is pinged when it is next taken."""
_RETURNED = "ludoteca_returned_at"


def ping_when_idle(engine: Engine, idle_seconds: float | None = None) -> None:
    """Make ``engine``'s pool ping a connection at checkout only after it has rested for
    ``idle_seconds`` (:data:`IDLE_SECONDS` by default; in place of ``pool_pre_ping``, which
    pings every time)."""
    rest = IDLE_SECONDS if idle_seconds is None else idle_seconds

    @event.listens_for(engine, "checkin")
    def _returned(dbapi_connection, record) -> None:
        if record is not None:
            record.info[_RETURNED] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _taken(dbapi_connection, record, _proxy) -> None:
        returned = record.info.get(_RETURNED)
        if returned is None or time.monotonic() - returned < rest:
            return  # new, or back a moment ago
        try:
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute("SELECT 1")
            finally:
                cursor.close()
            if not dbapi_connection.autocommit:
                dbapi_connection.rollback()  # the ping's own transaction, nothing else in it
        except Exception as exc:  # noqa: BLE001 - any failure: not usable, replace it
            raise DisconnectionError(f"a pooled connection failed its ping: {exc}") from exc
