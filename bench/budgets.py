"""Time budgets on a busy machine, and MCTS's pace before and after a delayed playout.

    python bench/budgets.py [--load N] [--games comune,kuniumi,comino,hexagone]
                            [--levels medium,hard] [--moves 20] [--seed 1]
                            [--latch-seconds 1] [--json]

A move may overrun its time budget by 5% at most, on a machine that other processes keep
busy too (a shared server, the arena's workers, a test run with -n 2). This starts ``--load``
processes that burn processor time for the whole run (default: one per core, so the
machine has no idle core) and measures two things.

Budgets: for each game and level it plays ``--moves`` moves, the level's bot in every seat
with its tree kept from move to move as in a real game (new games from the next seed when
one ends), and reports the level's budget, the slowest move as a share of it by the bot's
own clock (``last_seconds``: from entering ``choose`` to leaving it) and by a clock around
the call, how many moves took more than 5% over by the bot's clock, the median simulations
per move and the share of them played out by the game's fast playout. Levels that do not
search in a game (greedy, instant) are listed with their slowest move in seconds.

Pace: on a Comune position, the simulations a fresh ``mcts`` bot runs in ``--latch-seconds``
(default 1, the level hard), three searches; then one search whose first two playouts the
bench delays by 60 ms each (a busy moment); then three more searches. Each search is a new
bot, as in the arena's next game. The searches after the delay should run as many
simulations as those before it.

Exit status 1 when a move overran its budget by more than 5% by the bot's own clock.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import time

from ludoteca.bots import make_bot
from ludoteca.bots.levels import LevelBot
from ludoteca.bots.mcts import MCTSBot, warm_up
from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.core.table import resolve_chance

MARGIN = 0.05
"""The share of its budget a move may overrun."""

DELAY = 0.06
"""How long the pace measurement delays each of two playouts: more than 5% of hard's 1 s."""


def start_load(n: int) -> list[subprocess.Popen]:
    """``n`` processes that burn processor time until stopped."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(max(0, n))]


def stop_load(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait()


def searcher(bot, state) -> MCTSBot | None:
    """The MCTS bot behind ``bot`` for ``state`` (a level delegates), or ``None``."""
    inner = bot.bot_for(state) if isinstance(bot, LevelBot) else bot
    return inner if isinstance(inner, MCTSBot) else None


def measure_level(game_id: str, level: str, moves: int, seed: int) -> dict:
    """Play ``moves`` moves of ``level`` in ``game_id`` and time each."""
    game = get(game_id)
    rows: list[dict] = []
    budget = None
    while len(rows) < moves:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        resolve_chance(state, rng)
        warm_up(state)
        bots = [make_bot(level, seed=seed * 10 + i) for i in range(state.num_players)]
        while not state.is_over and len(rows) < moves:
            if state.to_move == CHANCE:
                resolve_chance(state, rng)
                continue
            bot = bots[state.to_move]
            inner = searcher(bot, state)
            started = time.perf_counter()
            move = bot.choose(state)
            wall = time.perf_counter() - started
            row = {"wall": wall}
            if inner is not None:
                budget = (
                    (inner.budget.seconds or inner.default_budget.seconds)
                    if budget is None
                    else budget
                )
                row["own"] = getattr(inner, "last_seconds", wall)
                row["simulations"] = inner.last_iterations
                row["fast"] = getattr(inner, "last_fast", None)
            rows.append(row)
            state.play(move)
        seed += 1
    result: dict = {"game": game_id, "level": level, "moves": len(rows)}
    if budget is None:
        result["slowest_seconds"] = round(max(r["wall"] for r in rows), 4)
        return result
    own = [r["own"] for r in rows]
    simulations = [r["simulations"] for r in rows]
    fast = [r["fast"] for r in rows if r["fast"] is not None]
    result.update(
        budget=budget,
        slowest_own=round(max(own) / budget, 4),
        slowest_wall=round(max(r["wall"] for r in rows) / budget, 4),
        median_own=round(statistics.median(own) / budget, 4),
        over_margin=sum(t > budget * (1 + MARGIN) for t in own),
        simulations_median=statistics.median(simulations),
        fast_share=round(sum(fast) / max(1, sum(simulations)), 4) if fast else None,
    )
    return result


def measure_pace(seconds: float, seed: int) -> dict:
    """Simulations per search on a Comune position before and after two delayed playouts."""
    state = get("comune").new_state(seed=seed)
    resolve_chance(state, random.Random(seed))
    warm_up(state)
    game = state.game
    knowledge = game.search_knowledge()
    delays = [0]

    def delayed(probe, rng, **kwargs):
        if delays[0]:
            delays[0] -= 1
            time.sleep(DELAY)
        return knowledge.playout(probe, rng, **kwargs)

    def search() -> int:
        bot = MCTSBot(seed=seed)
        bot.choose(state, seconds=seconds)
        return bot.last_iterations

    before = [search() for _ in range(3)]
    game.search_knowledge = lambda: dataclasses.replace(knowledge, playout=delayed)
    try:
        delays[0] = 2
        during = search()
    finally:
        del game.search_knowledge
    after = [search() for _ in range(3)]
    return {"seconds": seconds, "before": before, "delayed": during, "after": after}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[2].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--load",
        type=int,
        default=os.cpu_count() or 2,
        help="processes burning CPU for the whole run (default: one per core)",
    )
    parser.add_argument(
        "--games",
        default="comune,kuniumi,comino,hexagone",
        help="games measured, comma-separated (default comune,kuniumi,comino,hexagone)",
    )
    parser.add_argument(
        "--levels",
        default="medium,hard",
        help="levels measured in each game, comma-separated (default medium,hard)",
    )
    parser.add_argument(
        "--moves", type=int, default=20, help="moves timed for each game and level (default 20)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the first game and the bots (default 1)"
    )
    parser.add_argument(
        "--latch-seconds",
        type=float,
        default=1.0,
        help="seconds of each search in the pace measurement, 0 to skip it (default 1)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    load = start_load(args.load)
    try:
        levels = [
            measure_level(game, level, args.moves, args.seed)
            for game in args.games.split(",")
            for level in args.levels.split(",")
        ]
        pace = measure_pace(args.latch_seconds, args.seed) if args.latch_seconds > 0 else None
    finally:
        stop_load(load)
    failed = any(row.get("over_margin") for row in levels)
    if args.json:
        print(json.dumps({"load": args.load, "levels": levels, "pace": pace}, indent=2))
        return int(failed)
    print(f"{args.load} processes burning processor time alongside")
    header = (
        "game",
        "level",
        "budget",
        "moves",
        "slowest",
        "(wall)",
        "median",
        ">5%",
        "sims",
        "fast",
    )
    print("{:9} {:7} {:>6} {:>5} {:>8} {:>8} {:>7} {:>4} {:>7} {:>6}".format(*header))
    for r in levels:
        if "budget" not in r:
            print(
                f"{r['game']:9} {r['level']:7} {'-':>6} {r['moves']:>5} "
                f"{r['slowest_seconds']:>7.3f}s"
            )
            continue
        fast = "-" if r["fast_share"] is None else f"{r['fast_share']:.0%}"
        print(
            f"{r['game']:9} {r['level']:7} {r['budget']:>6} {r['moves']:>5} "
            f"{r['slowest_own']:>8.3f} {r['slowest_wall']:>8.3f} {r['median_own']:>7.3f} "
            f"{r['over_margin']:>4} {r['simulations_median']:>7.0f} {fast:>6}"
        )
    if pace is not None:
        print(
            f"Comune, {pace['seconds']} s a search: simulations {pace['before']} before, "
            f"{pace['delayed']} in the search with two playouts delayed {DELAY * 1000:.0f} ms, "
            f"{pace['after']} after"
        )
    print("FAILED: a move overran its budget by more than 5%" if failed else "every move within 5%")
    return int(failed)


if __name__ == "__main__":
    sys.exit(main())
