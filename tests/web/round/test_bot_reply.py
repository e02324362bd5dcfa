"""A computer's reply is stored and told in one trip, and where its time went is logged.

The computer's move used to be stored in one trip to play's threads and its watchers told
in a second, which read the game again: on the busy 2-core machine that second trip took up
to 30 ms at the p99, all of it inside the level's time (``bench/club_budgets.py``). Each
reply's steps are logged (``computer reply``), which is how that was found.
"""

from __future__ import annotations

import asyncio
import logging

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import Store
from ludoteca.web.round.bots import REPLY_STAGES, BotRunner, PlayThreads
from ludoteca.web.round.seats import make_pool
from ludoteca.web.round.service import GameService
from tests.web.round.test_bot_takeover import bot_to_move


def test_the_computers_move_is_stored_and_told_in_one_trip(tmp_path, caplog):
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    alice = Accounts(store, b"k" * 32).register("alice", "a fine password")
    service = GameService(store)
    pk = bot_to_move(service, alice)
    ply = service.state(pk)[0].ply
    threads = PlayThreads()
    runner = BotRunner(service, threads)
    runner.pool = make_pool("thread", 1)
    trips: list[tuple[int, int, int]] = []

    async def change_and_deliver(game: int, change) -> None:
        """The hub's: the change, then the views read after it, in one trip to the threads."""

        def change_then_view() -> tuple[int, int]:
            before = service.state(game)[0].ply
            change()
            return before, service.state(game)[0].ply

        trips.append((game, *await threads.play(change_then_view)))

    async def play() -> None:
        runner.kick(pk, change_and_deliver)
        await asyncio.wait_for(runner.tasks[pk], 10)

    caplog.set_level(logging.INFO, "ludoteca.web")
    try:
        asyncio.run(play())
    finally:
        runner.pool.shutdown()
        threads.stop()
        store.dispose()
    assert trips == [(pk, ply, ply + 1)]  # stored, and the views read after it, in one trip
    (line,) = [r for r in caplog.records if r.getMessage() == "computer reply"]
    stages = [getattr(line, f"{name}_ms") for name in REPLY_STAGES]
    assert all(ms >= 0 for ms in stages), stages
    assert abs(sum(stages) - line.reply_ms) < 1  # type: ignore[attr-defined]
    assert line.game == pk  # type: ignore[attr-defined]
