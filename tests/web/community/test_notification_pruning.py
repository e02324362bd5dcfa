"""Read notifications beyond the newest KEPT of a user are deleted when the user reads."""

from __future__ import annotations

from sqlalchemy import func, select

from ludoteca.core.messages import Text
from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import Store
from ludoteca.web.notify.models import Notification
from ludoteca.web.notify.service import KEPT, latest, mark_read, notify, unread


def _count(db, user_id: int) -> int:
    query = select(func.count()).select_from(Notification)
    return db.scalar(query.where(Notification.user_id == user_id)) or 0


def test_reading_keeps_the_newest_and_every_unread_one(url):
    store = Store(url)
    accounts = Accounts(store, b"k" * 32)
    alice = accounts.register("alice", "a fine password")
    bob = accounts.register("bob", "another one!")
    with store.session() as db:
        for i in range(KEPT + 30):
            notify(db, alice.id, "turn", Text("turn {n}", {"n": i}), f"/games/{i}")
        notify(db, bob.id, "turn", Text("bob's"), "/games/1")
        db.commit()
        first_unread_later = KEPT + 30
        newest_before = latest(db, alice.id, 1)[0].id
        mark_read(db, alice.id, up_to=newest_before - 10)  # the 10 newest stay unread
        db.commit()
        assert _count(db, alice.id) == KEPT
        assert unread(db, alice.id) == 10
        kept = latest(db, alice.id, KEPT)
        assert kept[0].id == newest_before and len(kept) == KEPT
        assert _count(db, bob.id) == 1  # another user's are not touched
        for i in range(5):
            notify(db, alice.id, "turn", Text("turn {n}", {"n": first_unread_later + i}), "/")
        db.commit()
        mark_read(db, alice.id)
        db.commit()
        assert _count(db, alice.id) == KEPT and unread(db, alice.id) == 0
    store.dispose()


def test_fewer_than_kept_are_all_kept(url):
    store = Store(url)
    alice = Accounts(store, b"k" * 32).register("alice", "a fine password")
    with store.session() as db:
        for i in range(12):
            notify(db, alice.id, "turn", Text("turn {n}", {"n": i}), "/")
        db.commit()
        mark_read(db, alice.id)
        db.commit()
        assert _count(db, alice.id) == 12 and unread(db, alice.id) == 0
    store.dispose()
