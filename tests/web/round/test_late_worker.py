"""A reply within its level's time when the operating system holds its bot worker up: the
server plays the move the worker's search last led with (``ludoteca.web.round.leading``).

The worker is stopped with ``SIGSTOP`` in the middle of its search, as a busy machine's
scheduler holds a low-priority process, and let go again once the reply is made."""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
import signal
import time

import pytest

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import Store
from ludoteca.web.round.bots import BotRunner, PlayThreads
from ludoteca.web.round.leading import TEXT_BYTES, LeadingMoves
from ludoteca.web.round.seats import make_pool
from ludoteca.web.round.service import GameService, SeatSpec


@pytest.fixture
def hard_turn(tmp_path):
    """A Kuniumi game in which the computer at ``hard`` (1 s) is to move, its job, and a
    runner with a process pool of one worker."""
    store = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    alice = Accounts(store, b"k" * 32).register("alice", "a fine password")
    service = GameService(store)
    pk = service.create(alice, "kuniumi", {}, [SeatSpec("bot", bot="hard"), SeatSpec("me")])
    turn = service.bot_turn(pk)
    assert turn is not None
    threads = PlayThreads()
    runner = BotRunner(service, threads)
    runner.pool = make_pool("process", 1)
    try:
        yield service, pk, turn[0], runner
    finally:
        runner.pool.shutdown(wait=True, cancel_futures=True)
        threads.stop()
        store.dispose()


def _worker_pid(runner: BotRunner) -> int:
    processes = runner.pool._processes  # type: ignore[attr-defined]
    (pid,) = processes
    return pid


def _legal(service: GameService, pk: int, text: str) -> bool:
    state = service.state(pk)[1]
    return state.coerce_move(text) in state.legal_moves()


def test_a_held_up_worker_answers_with_the_move_its_search_led_with(hard_turn):
    service, pk, job, runner = hard_turn
    board = runner.pool.leading  # type: ignore[attr-defined]
    free = len(board._free)

    async def think():
        runner.pool.submit(time.sleep, 0).result()  # the worker forked and ready
        pid = _worker_pid(runner)
        asked = time.time()
        thinking = asyncio.ensure_future(
            runner.think(dataclasses.replace(job, asked_at=asked, reserve=0.1))
        )
        told = time.monotonic() + 5
        while board.read(0) is None and time.monotonic() < told:
            await asyncio.sleep(0.02)  # until the search has told a leading move
        assert board.read(0) is not None
        os.kill(pid, signal.SIGSTOP)
        try:
            thought = await asyncio.wait_for(thinking, 5)
            replied = time.time() - asked
            assert len(board._free) == free - 1  # its slot is held while it is stopped
        finally:
            os.kill(pid, signal.SIGCONT)
        # the worker's own answer comes after, and is let go: its slot is free again
        deadline = time.monotonic() + 10
        while len(board._free) < free and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return thought, replied

    thought, replied = asyncio.run(think())
    assert thought.late
    assert _legal(service, pk, thought.text), thought.text
    # the level's time less half the reserve, and a little for a busy event loop
    assert 0.9 <= replied < 1.3, replied
    assert len(board._free) == 1


def test_a_worker_on_time_gives_its_own_answer(hard_turn):
    service, pk, job, runner = hard_turn
    board = runner.pool.leading  # type: ignore[attr-defined]

    async def think():
        # a large reserve: the search stops at about 0.2 s and its answer is due at 0.6 s,
        # room for a busy machine to hold the worker up a while without making it late
        return await runner.think(dataclasses.replace(job, asked_at=time.time(), reserve=0.8))

    thought = asyncio.run(think())
    assert not thought.late
    assert _legal(service, pk, thought.text), thought.text
    assert len(board._free) == 1  # given back as the answer came


def test_a_slot_is_read_whole_or_not_at_all():
    board = LeadingMoves(2, multiprocessing.get_context("forkserver"))
    first = board.take()
    assert first is not None and board.read(first) is None  # nothing told yet
    board.tell(first, "a1-b2")
    assert board.read(first) == "a1-b2"
    board.tell(first, "c3")  # a shorter move leaves nothing of the longer one
    assert board.read(first) == "c3"
    board.tell(first, "x" * (TEXT_BYTES + 1))  # too long to tell: the last one stands
    assert board.read(first) == "c3"
    board.seqs[first] += 1  # a worker in the middle of writing
    assert board.read(first) is None
    board.seqs[first] += 1
    second = board.take()
    assert second is not None and board.take() is None  # every slot held
    board.give_back(first)
    again = board.take()
    assert again == first and board.read(again) is None  # emptied for its next turn
