"""SQLite connections of one process that take turns to write, in order, without sleeping.

SQLite lets one connection write at a time. A connection that finds the database locked
waits in SQLite's busy handler, which sleeps and polls with growing pauses (1, 2, 5, 10, …
100 ms): with many moves a second, a move that loses the race a few times waits hundreds of
milliseconds while the writer it waits for finished long ago. The club's writes come from
threads of one process, so they queue instead on a lock of this process, taken by the first
statement that writes (as SQLite's own write lock is) and released once the transaction
commits or rolls back. A writer is then woken the moment the previous one is done.

Writers in other processes still meet SQLite's busy handler; and should the lock not come
within the connection's busy timeout (which would mean a thread holding a write open while
waiting for another write), the statement goes ahead and SQLite decides as before.
"""

from __future__ import annotations

import sqlite3
import threading

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class _Cursor(sqlite3.Cursor):
    def execute(self, sql, parameters=(), /):
        self.connection._claim(sql)
        return super().execute(sql, parameters)

    def executemany(self, sql, parameters, /):
        self.connection._claim(sql)
        return super().executemany(sql, parameters)


class SerialWritesConnection(sqlite3.Connection):
    """A ``sqlite3`` connection whose write transactions hold ``write_lock`` (a class
    attribute: :func:`connection_factory` makes one class, and so one lock, per database)."""

    write_lock: threading.Lock
    wait_seconds: float = 30.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._writing = False
        self.wait_seconds = float(kwargs.get("timeout", self.wait_seconds))

    def cursor(self, factory=_Cursor):
        return super().cursor(factory)

    def execute(self, sql, parameters=(), /):
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql, parameters, /):
        return self.cursor().executemany(sql, parameters)

    def _claim(self, sql: str) -> None:
        if self._writing or not sql.lstrip()[:7].upper().startswith(WRITES):
            return
        self._writing = self.write_lock.acquire(timeout=self.wait_seconds)

    def _release(self) -> None:
        if self._writing:
            self._writing = False
            self.write_lock.release()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._release()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._release()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release()


def connection_factory() -> type[SerialWritesConnection]:
    """A connection class with its own write lock, for one database (one engine)."""
    return type("SerialWrites", (SerialWritesConnection,), {"write_lock": threading.Lock()})
