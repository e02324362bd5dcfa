"""SQLite's log is copied into the database by a background thread, never by a commit."""

from __future__ import annotations

import os
import sqlite3
import time

from sqlalchemy import text

from ludoteca.web.infra.sqlite_checkpoints import Checkpointer
from ludoteca.web.infra.store import Store


def _write_rows(store: Store, n: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, t TEXT)"))
    for i in range(n):
        with store.engine.begin() as conn:
            conn.execute(text("INSERT INTO filler (t) VALUES (:t)"), {"t": "x" * 500 + str(i)})


def test_commits_leave_the_log_to_the_checkpointer(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        assert store.checkpointer is not None
        store.checkpointer.stop()  # nothing copies the log now
        _write_rows(store, 1500)  # past SQLite's own mark of 1,000 pages
        probe = sqlite3.connect(tmp_path / "club.sqlite3")
        busy, frames, copied = probe.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        probe.close()
        assert busy == 0 and frames >= 1000  # no commit had copied it
    finally:
        store.dispose()


def test_the_checkpointer_keeps_the_log_short(tmp_path):
    path = tmp_path / "club.sqlite3"
    store = Store(f"sqlite:///{path}")
    assert store.checkpointer is not None
    store.checkpointer.stop()
    store.checkpointer = Checkpointer(str(path), interval=0.05).start()
    try:
        for _ in range(6):
            _write_rows(store, 300)
            time.sleep(0.2)  # room for a checkpoint; the log is then reused from its start
        assert store.checkpointer.checkpoints >= 6
        # 1,800 commits of at least a page each: without checkpoints the log holds them all.
        # With them, it is reused from its start after each round.
        with store.engine.connect() as conn:
            page = conn.exec_driver_sql("PRAGMA page_size").scalar()
        assert os.path.getsize(f"{path}-wal") < 1800 * page / 2
    finally:
        store.dispose()


def test_stop_ends_the_thread(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    checkpointer = store.checkpointer
    assert checkpointer is not None and checkpointer._thread.is_alive()
    store.dispose()
    assert not checkpointer._thread.is_alive()
