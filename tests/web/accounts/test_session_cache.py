"""The sessions a process keeps for a few seconds (``accounts/session_cache.py``) never
outlive what ends them in that process: a log-out, a new password, expiry, a member's
changed row; and a read begun before one of those is not kept."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from ludoteca.web.accounts.service import Accounts, hash_token
from ludoteca.web.accounts.session_cache import SessionCache
from ludoteca.web.infra.store import Store, utcnow
from tests.web.infra.test_store import expire_session


@pytest.fixture
def accounts(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    yield Accounts(store, b"k" * 32)
    store.dispose()


def test_a_session_read_is_kept_until_it_is_closed_here(accounts):
    alice = accounts.register("alice", "a fine password")
    token, other = accounts.open_session(alice), accounts.open_session(alice)
    assert accounts.cached_session_user(token) is None  # never read yet
    assert accounts.session_user(token).id == alice.id
    kept = accounts.cached_session_user(token)
    assert kept is not None and kept.name == "alice"
    assert kept is not accounts.cached_session_user(token)  # each request its own User
    accounts.close_session(token)
    assert accounts.cached_session_user(token) is None
    assert accounts.session_user(token) is None
    accounts.session_user(other)
    accounts.set_password(alice.id, "another fine password", keep_token=other)
    assert accounts.cached_session_user(other) is None  # read afresh after a new password
    assert accounts.session_user(other) is not None


def test_a_changed_member_and_an_expired_session_are_read_afresh(accounts):
    bob = accounts.register("bob", "a fine password")
    token = accounts.open_session(bob)
    accounts.session_user(token)
    accounts.set_language(bob.id, "de")
    assert accounts.cached_session_user(token) is None
    assert accounts.session_user(token).language == "de"
    assert accounts.cached_session_user(token).language == "de"
    expire_session(accounts.store, token)
    accounts.sessions.clear()
    assert accounts.session_user(token) is None  # expired: removed, as before
    cache = SessionCache()
    cache.put("h", {"id": 1}, utcnow() - timedelta(seconds=1), time.monotonic())
    assert cache.get("h", utcnow()) is None  # past its expiry, whenever it was read


def test_a_kept_read_lasts_only_its_seconds_and_a_read_begun_before_a_close_is_not_kept():
    cache = SessionCache(seconds=0.05)
    later = utcnow() + timedelta(days=1)
    cache.put("h", {"id": 1}, later, time.monotonic())
    assert cache.get("h", utcnow()) == {"id": 1}
    time.sleep(0.06)
    assert cache.get("h", utcnow()) is None
    began = time.monotonic()
    cache.drop(hash_token("t"))
    cache.put(hash_token("t"), {"id": 2}, later, began)  # read before the log-out ended
    assert cache.get(hash_token("t"), utcnow()) is None
    began = time.monotonic()
    cache.drop_user(3)
    cache.put("k", {"id": 3}, later, began)
    assert cache.get("k", utcnow()) is None
    small = SessionCache(size=2)
    for key in "abc":
        small.put(key, {"id": 4}, later, time.monotonic())
    assert small.get("a", utcnow()) is None and small.get("c", utcnow()) == {"id": 4}
