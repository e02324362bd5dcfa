"""A burst of computer turns asked at once, answered within the level's time + 10%.

    python bench/bot_burst.py [--burst 12] [--rounds 5] [--workers N] [--load 0] [--json]

``--burst`` members move against Kuniumi's ``medium`` (0.25 s) in the same instant: more
than the club's cap of bot workers on a 2-core machine once was (eight), as 50 members playing
``medium`` ask at their busiest (``bench/club_budgets.py``: 3.8 searches at once on average,
up to eight). The turns go through the computer players' own queue and a pool of the size
the club makes (``--workers``, by default the club's cap on this machine). The pool runs
threads here: the club's processes would add their start-up, not change the queueing;
``bench/club_budgets.py`` measures the whole club with its processes.

With as many workers as cores, ten of the twelve turns waited for a worker and the last
replies came 0.37 s after the move. The turns now think side by side, each stopping at its
level's time however the processors are shared (:mod:`ludoteca.web.round.bot_workers`).

Each round reports its slowest reply, from the instant the turns were asked. The target is
every round's slowest within the level's time + 10% (issue 46), plus ``SLACK`` for the
threads taking turns at the interpreter past their deadline. ``--load`` starts that many
processes burning processor time for the whole run. Exit status 1 when a reply is not a
legal move; a missed target is reported, not an error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from budgets import start_load, stop_load  # noqa: E402
from ludoteca.bots.mcts import warm_up  # noqa: E402
from ludoteca.core.registry import get  # noqa: E402
from ludoteca.core.table import Table  # noqa: E402
from ludoteca.record import from_table  # noqa: E402
from ludoteca.web.round.botqueue import BOT_WORKERS  # noqa: E402
from ludoteca.web.round.bots import BotRunner, PlayThreads  # noqa: E402
from ludoteca.web.round.seats import BotJob, make_pool  # noqa: E402

LEVEL = "medium"
LEVEL_SECONDS = 0.25
"""``medium``'s time in Kuniumi."""
MARGIN = 0.10
"""The share of its time a reply may take beyond it (issue 46)."""
SLACK = 0.03
"""Seconds for the threads taking turns at the interpreter past their deadline."""
BOUND = LEVEL_SECONDS * (1 + MARGIN) + SLACK


def position():
    """A Kuniumi game three moves in, its record and its state; the search compiled."""
    table = Table.new(get("kuniumi"), seed=3, players=["ann", f"computer:{LEVEL}"])
    for text in ("E@c3", "S@d4", "l@a1"):
        table.play(text)
    warm_up(table.state)  # compiling the search's playout is not thinking
    return from_table(table), table.state


async def burst(runner: BotRunner, record, size: int, seed: int) -> list[tuple[float, str]]:
    """``size`` turns asked in one instant: each reply's seconds from then, and its move."""
    asked_at = time.time()

    async def turn(owner: int) -> tuple[float, str]:
        job = BotJob(
            record=record, level=LEVEL, bot_seed=seed + owner, owner=owner, asked_at=asked_at
        )
        # the runner's own turn: a slot in its owner's line, then the search in the pool
        text = (await runner.think(job)).text
        return time.time() - asked_at, text

    return await asyncio.gather(*(turn(owner) for owner in range(size)))


def measure(size: int, rounds: int, workers: int = BOT_WORKERS) -> dict[str, Any]:
    """``rounds`` bursts of ``size`` turns through one runner and its pool of ``workers``."""
    record, state = position()
    legal = {state.move_to_str(m) for m in state.legal_moves()}
    runner = BotRunner(cast(Any, None), PlayThreads(), workers=workers)
    runner.pool = make_pool("thread", runner.queue.workers)
    switching = sys.getswitchinterval()
    sys.setswitchinterval(0.001)  # threads past their deadline get the interpreter soon
    slowest: list[float] = []
    replies: list[float] = []
    illegal: list[str] = []
    try:
        for number in range(rounds):
            found = asyncio.run(burst(runner, record, size, seed=number * size))
            seconds = [s for s, _ in found]
            slowest.append(max(seconds))
            replies.extend(seconds)
            illegal.extend(text for _, text in found if text not in legal)
    finally:
        sys.setswitchinterval(switching)
        runner.pool.shutdown()
    return {
        "game": "kuniumi",
        "level": LEVEL,
        "level_seconds": LEVEL_SECONDS,
        "burst": size,
        "rounds": rounds,
        "workers": runner.queue.workers,
        "reply_p50_s": statistics.median(replies),
        "slowest_s": slowest,
        "worst_s": max(slowest),
        "bound_s": BOUND,
        "met": max(slowest) <= BOUND,
        "illegal": illegal,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burst", type=int, default=12, help="turns asked at once (12)")
    parser.add_argument("--rounds", type=int, default=5, help="bursts, one after another (5)")
    parser.add_argument(
        "--workers",
        type=int,
        default=BOT_WORKERS,
        help=f"the most turns thinking at once (the club's cap here: {BOT_WORKERS})",
    )
    parser.add_argument(
        "--load", type=int, default=0, help="processes burning processor time meanwhile (0)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if min(args.burst, args.rounds, args.workers) < 1:
        parser.error("--burst, --rounds and --workers must be at least 1")
    burners = start_load(args.load)
    try:
        result = measure(args.burst, args.rounds, args.workers)
    finally:
        stop_load(burners)
    result["load"] = args.load
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['burst']} {LEVEL} turns at once, {result['workers']} workers, "
            f"{result['rounds']} rounds: reply p50 {result['reply_p50_s']:.3f} s, slowest "
            + ", ".join(f"{s:.3f}" for s in result["slowest_s"])
            + f" s (bound {BOUND:.3f} s: {'met' if result['met'] else 'NOT met'})"
        )
    if result["illegal"]:
        print(f"illegal replies: {result['illegal']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
