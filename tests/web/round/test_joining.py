"""Joining a game: the last seat and the start are one transaction, and a repeated join (its
answer lost to a dying server, or a double click) is harmless."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, Store
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.service import GameService, SeatSpec


def _club(url):
    store = Store(url)
    accounts = Accounts(store, b"k" * 32)
    alice = accounts.register("alice", "a fine password")
    bob = accounts.register("bob", "another one!")
    return store, GameService(store), alice, bob


def _stored(store: Store, pk: int) -> tuple[str, list[int | None]]:
    with store.session() as db:
        row = db.scalars(select(GameRow).where(GameRow.id == pk)).one()
        return row.status, [s.user_id for s in sorted(row.seats, key=lambda s: s.index)]


def test_joining_twice_changes_nothing(url):
    store, service, alice, bob = _club(url)
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("open")])
    service.join(pk, bob)
    service.join(pk, bob)  # the answer to the first was lost: sent again
    service.join(pk, alice)  # the creator pressing "join" on her own game
    assert _stored(store, pk) == ("active", [alice.id, bob.id])
    row, state = service.state(pk)
    assert [s.user.name for s in row.seats] == ["alice", "bob"]
    store.dispose()


def test_a_start_that_fails_leaves_the_seat_free(url, monkeypatch):
    store, service, alice, bob = _club(url)
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("open")])

    def broken(*args, **kwargs):
        raise RuntimeError("the process dies while starting the game")

    monkeypatch.setattr(service.playing, "resolve_chance", broken)
    with pytest.raises(RuntimeError):
        service.join(pk, bob)
    # Not a full game that never starts: the seat was not taken either.
    assert _stored(store, pk) == ("open", [alice.id, None])
    monkeypatch.undo()
    service.join(pk, bob)
    assert _stored(store, pk) == ("active", [alice.id, bob.id])
    store.dispose()


def test_joining_a_started_game_without_a_seat_is_refused(url):
    store, service, alice, bob = _club(url)
    carol = Accounts(store, b"k" * 32).register("carol", "a third password")
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("open")])
    service.join(pk, bob)
    with pytest.raises(ClubError) as refused:
        service.join(pk, carol)
    assert refused.value.status == 409 and "not waiting" in str(refused.value)
    store.dispose()
