"""A computer turn left behind by a dead server process is found and started again by any
other process: the query that finds stalled turns, and the watch that starts them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import update

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, MoveRow, Store, utcnow
from ludoteca.web.round.bots import take_over_stalled_bots
from ludoteca.web.round.service import GameService, SeatSpec


def bot_to_move(service: GameService, user) -> int:
    """A toy game against the computer in which the computer is to move."""
    pk = service.create(user, "toy", {}, [SeatSpec("me"), SeatSpec("bot", bot="random")])
    row, state = service.state(pk)
    if row.seats[state.to_move].kind != "bot":
        service.submit(pk, user, state.move_to_str(state.legal_moves()[0]))
    row, state = service.state(pk)
    assert row.status == "active" and row.seats[state.to_move].kind == "bot"
    return pk


def age(store: Store, pk: int, seconds: float) -> None:
    """Make every stored moment of game ``pk`` ``seconds`` older, as if time had passed."""
    past = utcnow() - timedelta(seconds=seconds)
    with store.session() as db:
        db.execute(update(MoveRow).where(MoveRow.game_id == pk).values(created=past))
        db.execute(update(GameRow).where(GameRow.id == pk).values(started=past, created=past))
        db.commit()


def test_only_computer_turns_idle_for_long_are_stalled(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    accounts = Accounts(store, b"k" * 32)
    alice = accounts.register("alice", "a fine password")
    accounts.register("bob", "another one!")
    service = GameService(store)
    fresh, stalled = bot_to_move(service, alice), bot_to_move(service, alice)
    people = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    age(store, stalled, 120)
    age(store, people, 120)

    assert set(service.games_waiting_for_bots()) == {fresh, stalled}
    assert service.games_waiting_for_bots(idle_seconds=60) == [stalled]
    assert service.games_waiting_for_bots(idle_seconds=600) == []
    store.dispose()


def test_the_watch_starts_each_stalled_turn(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    alice = Accounts(store, b"k" * 32).register("alice", "a fine password")
    service = GameService(store)
    fresh, stalled = bot_to_move(service, alice), bot_to_move(service, alice)
    age(store, stalled, 120)

    class RecordingHub:
        """Records the turns it is asked to start instead of running a bot."""

        def __init__(self) -> None:
            self.kicked: list[int] = []

        def kick_bots(self, pk: int) -> None:
            self.kicked.append(pk)

    hub = RecordingHub()

    async def watch_briefly() -> None:
        watch = take_over_stalled_bots(service, hub.kick_bots, idle=60, interval=0.05)
        task = asyncio.create_task(watch)
        for _ in range(200):
            if hub.kicked:
                break
            await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(watch_briefly())
    assert hub.kicked and set(hub.kicked) == {stalled}
    assert fresh not in hub.kicked
    store.dispose()
