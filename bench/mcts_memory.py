"""Memory of the computer opponents over a run of games in one process.

    python bench/mcts_memory.py [--game comune] [--games 4] [--seed 1] [--json]
                                [BOT BOT]   (default: mcts:seconds=1 mcts:seconds=4)

A server or an arena worker plays game after game in one process, and MCTS keeps its tree
from move to move; what a search leaves behind adds up. This plays ``--games`` games between
the two bots (seats alternating) in this one process and reports, per game, the plies, the
largest tree a bot held after a move (nodes), and the resident memory at its peak during the
game and after it. It fails (exit 1) when the memory after the last game exceeds that after
the first by more than ``--tolerance`` (default 15%): memory that grows from game to game is
held by something that should have been freed. The default pair is the levels hard and
master, whose games are the longest searches people play.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

from ludoteca.bots import make_bot
from ludoteca.bots.mcts import MCTSBot, warm_up
from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.core.table import resolve_chance


def resident_mb() -> float:
    """The process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play_one(game, specs: list[str], seed: int) -> dict:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    resolve_chance(state, rng)
    warm_up(state)
    bots = [make_bot(spec, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    plies, peak, largest = 0, resident_mb(), 0
    started = time.perf_counter()
    while not state.is_over:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        bot = bots[state.to_move]
        state.play(bot.choose(state))
        plies += 1
        peak = max(peak, resident_mb())
        if isinstance(bot, MCTSBot):
            largest = max(largest, bot.tree_size())
    del bots
    return {
        "plies": plies,
        "seconds": round(time.perf_counter() - started, 1),
        "largest_tree_nodes": largest,
        "peak_mb": round(peak, 1),
        "after_mb": round(resident_mb(), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[2].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "bots",
        nargs="*",
        default=["mcts:seconds=1", "mcts:seconds=4"],
        help="two bot specs, seats alternating from game to game "
        "(default mcts:seconds=1 mcts:seconds=4: the levels hard and master)",
    )
    parser.add_argument("--game", default="comune", help="the game played (default comune)")
    parser.add_argument(
        "--games",
        type=int,
        default=4,
        help="games played one after another, at least 2 (default 4)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of the first game, one more for each next game (default 1)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.15,
        help="growth of memory allowed from the first game to the last, "
        "a fraction (default 0.15: 15%%)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if len(args.bots) != 2:
        parser.error("give two bots (or none for hard against master)")
    if args.games < 2:
        parser.error("--games must be at least 2 (growth is measured from the first game)")
    game = get(args.game)
    for spec in args.bots:
        make_bot(spec)  # a bad spec fails here, before any game
    start_mb = resident_mb()
    rows = []
    for i in range(args.games):
        specs = args.bots if i % 2 == 0 else args.bots[::-1]
        row = play_one(game, specs, args.seed + i)
        row["game"] = i + 1
        rows.append(row)
        if not args.json:
            print(
                f"game {i + 1}/{args.games}: {row['plies']} plies in {row['seconds']} s, "
                f"largest tree {row['largest_tree_nodes']:,} nodes, "
                f"peak {row['peak_mb']:,.0f} MB, after {row['after_mb']:,.0f} MB",
                flush=True,
            )
    growth = rows[-1]["after_mb"] / rows[0]["after_mb"] - 1
    ok = growth <= args.tolerance
    summary = {
        "game": game.id,
        "bots": args.bots,
        "start_mb": round(start_mb, 1),
        "games": rows,
        "growth_after_first_game": round(growth, 4),
        "peak_mb": max(r["peak_mb"] for r in rows),
        "ok": ok,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"memory after game 1: {rows[0]['after_mb']:,.0f} MB; after game {len(rows)}: "
            f"{rows[-1]['after_mb']:,.0f} MB ({growth:+.1%}, tolerance {args.tolerance:.0%}); "
            f"highest peak {summary['peak_mb']:,.0f} MB: {'ok' if ok else 'GROWING'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
