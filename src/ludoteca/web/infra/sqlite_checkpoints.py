"""Copying SQLite's write-ahead log into the database from a thread of its own.

By default SQLite checkpoints inside a commit: every thousand pages, the writer whose commit
crossed the mark copies the log into the database and flushes it to the disk before its
commit returns. Measured on the development machine's disk, such a commit took 16 to 19 ms
against 0.03 ms for the others, and since the club's writers take turns
(:mod:`ludoteca.web.infra.sqlite_writes`), every move in flight waited behind it. Here the
commits never checkpoint (``PRAGMA wal_autocheckpoint=0``); a background thread does, every
:data:`INTERVAL_SECONDS`, in SQLite's passive mode, which waits for no reader and no writer.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 1.0
"""How often the log is copied. A second of moves is a few hundred pages at most: the log
stays small, and each checkpoint short."""


class Checkpointer:
    """A daemon thread checkpointing one SQLite database file until :meth:`stop`."""

    def __init__(self, path: str, interval: float = INTERVAL_SECONDS) -> None:
        self.path = path
        self.interval = interval
        self.checkpoints = 0
        """How many checkpoints have run (for tests and diagnostics)."""
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoints", daemon=True)

    def start(self) -> Checkpointer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop, after a last checkpoint, so that a club shutting down leaves a short log."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def checkpoint(self, conn: sqlite3.Connection) -> tuple[int, int, int]:
        """One passive checkpoint: (1 if it could not finish, frames in the log, frames
        copied), as ``PRAGMA wal_checkpoint`` reports them."""
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.checkpoints += 1
        return busy, frames, copied

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        except sqlite3.Error:
            log.exception("cannot open %s to checkpoint it", self.path)
            return
        try:
            while not self._stopping.wait(self.interval):
                self._checkpoint_logged(conn)
            self._checkpoint_logged(conn)
        finally:
            conn.close()

    def _checkpoint_logged(self, conn: sqlite3.Connection) -> None:
        try:
            self.checkpoint(conn)
        except sqlite3.Error:  # a locked or vanished file: try again next time
            log.warning("checkpointing %s failed", self.path, exc_info=True)
