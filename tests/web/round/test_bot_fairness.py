"""Computer players are shared fairly: one account flooding the club with games against the
strongest level does not starve anyone else's computer opponent.

The real test starts a real server with its real worker processes; the queue that decides
who thinks next is also checked on its own, step by step.
"""

from __future__ import annotations

import asyncio
import itertools
import time

import httpx
import pytest

from ludoteca.web.round.bot_workers import turn_share
from ludoteca.web.round.botqueue import BOT_TURNS_PER_USER, BOT_WORKERS, FairQueue
from tests.web.helpers import Server, create_game, register, started_club, view

FLOOD = 12
"""Games against ``master`` (4 s a move) the flooder starts at once, as in the report."""
ANSWER_LIMIT = 8.0
"""Seconds the ``random`` bot may take to answer. Measured on the shared 2-core machine:
0.2 to 1.6 s (the first answer includes starting a worker process); behind the flood, first
come first served, it took 48 s and more than 90 s."""
_names = itertools.count(1)


@pytest.fixture(scope="module")
def real_server(tmp_path_factory):
    """A server with the real games only, thinking in worker processes as ``ludoteca serve``
    does (the toy-game server thinks in threads)."""
    srv = started_club(tmp_path_factory, "fair", toy=False)
    yield srv
    srv.kill()


def user(server: Server, prefix: str) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=30)
    client.name = f"{prefix}{next(_names)}"  # type: ignore[attr-defined]
    assert register(client, client.name).status_code == 303
    return client


def test_a_flood_of_master_games_does_not_starve_another_users_bot(real_server):
    flooder, other = user(real_server, "flood"), user(real_server, "calm")
    try:
        flood = [
            create_game(flooder, "kuniumi", [("bot", "master"), ("me", "")]) for _ in range(FLOOD)
        ]
        time.sleep(0.5)  # the flooder's turns are queued and the workers busy
        started = time.monotonic()
        pk = create_game(other, "kuniumi", [("bot", "random"), ("me", "")])
        while not view(other, pk)["your_turn"]:
            assert time.monotonic() - started < 60, "the random bot never answered"
            time.sleep(0.05)
        waited = time.monotonic() - started
        assert waited < ANSWER_LIMIT, f"the random bot answered after {waited:.1f} s"
        # The flood itself is still being served, one game at a time.
        moved = [view(flooder, g)["ply"] > 0 for g in flood]
        assert not all(moved), "every master game answered already: no flood to wait behind"
    finally:
        flooder.close()
        other.close()


# --- the queue on its own ----------------------------------------------------------------------
async def _served_order(queue: FairQueue, jobs: list[str], hold: float) -> list[str]:
    order: list[str] = []

    async def job(owner: str) -> None:
        async with queue.turn(owner):
            order.append(owner)
            assert queue.running[owner] <= queue.per_owner
            assert queue.busy <= queue.workers
            await asyncio.sleep(hold)

    tasks = []
    for owner in jobs:
        tasks.append(asyncio.create_task(job(owner)))
        await asyncio.sleep(0)  # arrive in this order
    await asyncio.gather(*tasks)
    return order


def test_the_queue_serves_owners_in_turn_and_caps_each():
    assert BOT_TURNS_PER_USER < BOT_WORKERS  # one worker stays free for someone else
    queue = FairQueue(workers=2, per_owner=1)
    order = asyncio.run(_served_order(queue, ["a"] * 5 + ["b", "c"], hold=0.01))
    # a's first turn runs at once; b and c come before a's second, not after all of a's.
    assert order[:3] == ["a", "b", "c"] and order.count("a") == 5
    assert queue.busy == 0 and queue.waiting() == 0


def test_a_lone_owner_uses_no_more_than_its_share():
    queue = FairQueue(workers=3, per_owner=2)

    async def run() -> int:
        most = 0

        async def job() -> None:
            nonlocal most
            async with queue.turn("a"):
                most = max(most, queue.running["a"])
                await asyncio.sleep(0.01)

        await asyncio.gather(*(job() for _ in range(6)))
        return most

    assert asyncio.run(run()) == 2


def test_a_cancelled_turn_leaves_the_line_and_frees_its_slot():
    async def run() -> None:
        queue = FairQueue(workers=1, per_owner=1)
        release = asyncio.Event()

        async def holder() -> None:
            async with queue.turn("a"):
                await release.wait()

        first = asyncio.create_task(holder())
        await asyncio.sleep(0)
        waiting = asyncio.create_task(holder())
        await asyncio.sleep(0)
        assert queue.busy == 1 and queue.waiting("a") == 1
        waiting.cancel()
        await asyncio.sleep(0)
        assert queue.waiting() == 0
        first.cancel()  # cancelled while holding its slot: the slot comes back
        await asyncio.sleep(0)
        assert queue.busy == 0
        async with queue.turn("b"):
            assert queue.running["b"] == 1

    asyncio.run(run())


def test_a_queue_needs_workers():
    with pytest.raises(ValueError, match="at least one worker"):
        FairQueue(workers=0)


def _most_at_once(queue: FairQueue, shares: list[float]) -> int:
    """The most turns thinking at once when turns of these shares are asked together, each
    by its own owner."""

    async def run() -> int:
        most = 0

        async def job(owner: int, share: float) -> None:
            nonlocal most
            async with queue.turn(owner, share):
                most = max(most, queue.busy)
                await asyncio.sleep(0.01)

        await asyncio.gather(*(job(k, s) for k, s in enumerate(shares)))
        assert queue.busy == 0 and queue.shares == 0.0
        return most

    return asyncio.run(run())


def test_as_many_turns_think_at_once_as_their_levels_times_allow():
    """Fifty members playing ``hard`` (1 s) waited for one of eight workers, the cap sized
    for ``medium`` (0.25 s), and their replies took 1.2-1.6 s at the p99: sixteen 1 s turns
    a core get as much of it each as four 0.25 s ones."""
    medium, hard, master = (turn_share(s) for s in (0.25, 1.0, 4.0))
    assert _most_at_once(FairQueue(workers=50, cores=2), [medium] * 40) == 8
    assert _most_at_once(FairQueue(workers=50, cores=2), [hard] * 40) == 32
    assert _most_at_once(FairQueue(workers=20, cores=2), [master] * 40) == 20  # the cap
    assert turn_share(0.01) == 1.0  # a whole core at most


def test_a_short_turn_is_not_overtaken_while_it_waits_for_its_room():
    """A ``medium`` turn behind thirty-one ``hard`` ones waits for a quarter of a core; the
    ``hard`` turns asked after it, which would fit in what is left, do not go first."""
    medium, hard = turn_share(0.25), turn_share(1.0)

    async def run() -> list[str]:
        queue = FairQueue(workers=64, cores=2)
        release = asyncio.Event()
        order: list[str] = []

        async def job(owner: str, share: float, hold: bool) -> None:
            async with queue.turn(owner, share):
                order.append(owner)
                if hold:
                    await release.wait()

        holders = [asyncio.create_task(job(f"h{k}", hard, True)) for k in range(31)]
        await asyncio.sleep(0)
        assert queue.busy == 31  # 31/16 of a core: 1/16 left
        short = asyncio.create_task(job("m", medium, False))
        await asyncio.sleep(0)
        late = asyncio.create_task(job("late", hard, False))
        await asyncio.sleep(0)
        assert queue.waiting() == 2 and queue.busy == 31  # the late one fits, yet waits
        release.set()
        await asyncio.gather(*holders, short, late)
        return order

    order = asyncio.run(run())
    assert order.index("m") < order.index("late")


def test_a_turn_that_leaves_the_line_lets_the_next_one_in():
    async def run() -> None:
        queue = FairQueue(workers=8, cores=1)
        release = asyncio.Event()

        async def job(owner: str, share: float) -> None:
            async with queue.turn(owner, share):
                await release.wait()

        holder = asyncio.create_task(job("a", 0.5))
        await asyncio.sleep(0)
        big = asyncio.create_task(job("b", 1.0))  # no room beside a
        await asyncio.sleep(0)
        small = asyncio.create_task(job("c", 0.5))  # room, but behind b
        await asyncio.sleep(0)
        assert queue.busy == 1 and queue.waiting() == 2
        big.cancel()
        await asyncio.sleep(0)
        assert queue.running["c"] == 1  # b's leaving let c in
        release.set()
        await asyncio.gather(holder, small)

    asyncio.run(run())
