"""A burst of computer turns asked at once is answered, each with a legal move.

Twelve members move against ``medium`` in the same instant: more turns than the cap of bot
workers on a 2-core machine. The turns go through the computer players' own queue and a pool
of the size the club makes (threads here: the club's processes would add their start-up to a
cheap test, not change the queueing). How soon they are answered is a speed target, measured
by ``bench/bot_burst.py`` (``make bench``), not here.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import time
from typing import Any, cast

import pytest

from ludoteca.bots.mcts import warm_up
from ludoteca.core.errors import RecordError
from ludoteca.core.registry import get
from ludoteca.core.table import Table
from ludoteca.record import from_table
from ludoteca.web.round.bot_workers import ENV, MAX_PER_CORE, default_bot_workers
from ludoteca.web.round.bots import BotRunner, PlayThreads
from ludoteca.web.round.seats import (
    MIN_THINK_SHARE,
    BotJob,
    level_seconds,
    make_pool,
    think_seconds,
    think_turn,
    turn_seconds,
)

BURST = 12
"""Turns asked at once."""
CAP = 8
"""The most turns thinking at once in this test: fewer than the burst, so four wait their
turn in the computer players' queue."""


def _record():
    table = Table.new(get("kuniumi"), seed=3, players=["ann", "computer:medium"])
    for text in ("E@c3", "S@d4", "l@a1"):
        table.play(text)
    warm_up(table.state)  # compiling the search's playout is not thinking
    return from_table(table), table.state


async def _burst(runner: BotRunner, record) -> list[str]:
    asked_at = time.time()

    async def turn(owner: int) -> str:
        job = BotJob(record=record, level="medium", bot_seed=owner, owner=owner, asked_at=asked_at)
        # the runner's own turn: a slot in its owner's line, then the search in the pool
        return (await runner.think(job)).text

    return await asyncio.gather(*(turn(owner) for owner in range(BURST)))


def test_a_burst_of_turns_beyond_the_cap_is_answered_with_legal_moves():
    record, state = _record()
    runner = BotRunner(cast(Any, None), PlayThreads(), workers=CAP)
    runner.pool = make_pool("thread", runner.queue.workers)
    try:
        replies = asyncio.run(_burst(runner, record))
    finally:
        runner.pool.shutdown()
    legal = {state.move_to_str(m) for m in state.legal_moves()}
    assert len(replies) == BURST
    assert all(text in legal for text in replies), replies


def test_the_cap_is_sized_from_the_cores_and_the_memory():
    assert default_bot_workers(cores=2, memory=24_000) == 2 * MAX_PER_CORE
    assert default_bot_workers(cores=2, memory=6_000) == 12  # a quarter of 6 GB
    assert default_bot_workers(cores=2, memory=2_000) == 4  # a quarter of 2 GB: four workers
    assert default_bot_workers(cores=2, memory=256) == 2  # never fewer than the cores
    assert default_bot_workers() >= (os.cpu_count() or 1)


@pytest.mark.parametrize("game", ["comune", "comino", "kuniumi", "hexagone"])
def test_the_server_knows_each_levels_time_before_a_worker_replays_the_game(game):
    """The share of the processors a turn is let in with comes from its level's time, read in
    the server: the same time the worker's search is then given."""
    from ludoteca.bots import make_bot

    state = Table.new(get(game), seed=1, players=["ann", "computer:hard"]).state
    for level in ("random", "easy", "medium", "hard", "master"):
        assert turn_seconds(state, level) == level_seconds(state, make_bot(level, seed=5))
    assert turn_seconds(state, "hard") == 1.0 and turn_seconds(state, "master") >= 4.0
    assert turn_seconds(state, "no such bot") == 0.25


def test_a_search_leaves_the_reserve_for_telling_its_move():
    assert think_seconds(1.0, 100.0, 100.25, reserve=0.1) == 0.65
    assert think_seconds(1.0, 100.0, 100.0, reserve=5.0) == MIN_THINK_SHARE  # still searches


def test_the_reserve_is_learnt_from_the_tail_of_the_replies_told():
    """The target is the replies' p99, so the search leaves what telling took at the p99:
    the 90th percentile left the slowest replies' searches running to their deadline."""
    runner = BotRunner(cast(Any, None), PlayThreads())
    assert runner.reserve() == 0.0  # nothing known yet
    runner.telling.extend([0.01] * 19 + [0.05])
    assert runner.reserve() == 0.05  # too few to tell a tail from: the longest yet
    runner.telling.extend([0.01] * 175 + [0.2] * 5)
    assert runner.reserve() == 0.2  # 2.5% of the replies took 0.2 s to tell
    runner.telling.extend([0.01] * 256)
    assert runner.reserve() == 0.01  # the slow ones are forgotten


def test_a_cap_from_the_environment_must_be_a_count(monkeypatch, capsys):
    from ludoteca.cli.commands.serve import _bot_workers

    monkeypatch.setenv(ENV, "12")
    assert _bot_workers(None) == 12
    assert _bot_workers(3) == 3  # the option wins
    monkeypatch.setenv(ENV, "many")
    assert _bot_workers(None) is None
    assert ENV in capsys.readouterr().err


def test_a_refusal_in_a_worker_comes_back_to_the_server_whole():
    """A record that does not replay is refused in the worker; the refusal crosses back to
    the server pickled. It did not unpickle, and the process pool, taking that for a worker
    that died, refused every later computer turn of the club."""
    record, _ = _record()
    record.moves[1] = "S@c3"  # on the Earth God's square
    with pytest.raises(RecordError) as refused:
        think_turn(BotJob(record=record, level="random", bot_seed=1))
    back = pickle.loads(pickle.dumps(refused.value))
    assert type(back) is RecordError and str(back) == str(refused.value)
    assert (back.input, back.reason, back.move_number) == (
        refused.value.input,
        refused.value.reason,
        refused.value.move_number,
    )
    assert back.text.template == refused.value.text.template
