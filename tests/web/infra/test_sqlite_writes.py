"""SQLite writers of one process queue on a lock instead of polling SQLite's busy handler:
the lock is held from a transaction's first write until it commits or rolls back, and a
second writer waits for the first instead of failing or sleeping past its end."""

from __future__ import annotations

import threading
import time

from ludoteca.web.infra.store import Setting, Store


def write_lock(store: Store) -> threading.Lock:
    raw = store.engine.raw_connection()
    try:
        return type(raw.driver_connection).write_lock
    finally:
        raw.close()


def test_the_lock_spans_a_write_transaction(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    lock = write_lock(store)
    with store.session() as db:
        db.get(Setting, "x")
        assert not lock.locked(), "a read does not take the write lock"
        db.add(Setting(key="x", value="1"))
        db.flush()
        assert lock.locked()
        db.commit()
        assert not lock.locked()
        db.add(Setting(key="y", value="2"))
        db.flush()
        assert lock.locked()
        db.rollback()
        assert not lock.locked()
    with store.session() as db:
        assert db.get(Setting, "x").value == "1" and db.get(Setting, "y") is None
    store.dispose()


def test_a_second_writer_waits_for_the_first_commit(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    order: list[str] = []
    first_wrote = threading.Event()

    def first() -> None:
        with store.session() as db:
            db.add(Setting(key="a", value="1"))
            db.flush()
            first_wrote.set()
            time.sleep(0.3)
            order.append("first commits")
            db.commit()

    def second() -> None:
        first_wrote.wait(10)
        with store.session() as db:
            db.add(Setting(key="b", value="2"))
            db.flush()
            order.append("second wrote")
            db.commit()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert order == ["first commits", "second wrote"]
    with store.session() as db:
        assert {s.key for s in db.query(Setting).filter(Setting.key.in_(["a", "b"]))} == {"a", "b"}
    store.dispose()
