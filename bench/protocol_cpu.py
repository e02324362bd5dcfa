"""CPU time a move through the game protocol, steady on a busy machine.

    python bench/protocol_cpu.py [--game kuniumi] [--games 300] [--compiled] [--json]

Uniform random games are recorded first; then the same games are played again through the
protocol as ``ludoteca bench`` plays them (``new_state``, ``legal_moves``, ``rng.choice``,
``play``), timed in CPU time (``time.process_time``), best of five. On a shared machine the
wall-clock figures of ``ludoteca bench`` move by half from run to run while these move by a
tenth, so compare revisions with them (``bench/compare.py OLD NEW -- PY bench/protocol_cpu.py
--json``) and quote ratios to the C limit from ``ludoteca bench``. ``--compiled`` compiles the
game's kernel first, as ``ludoteca bench`` does (Kuniumi's states then step with it).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from ludoteca.core.playout import CHANCE, sample_chance
from ludoteca.core.registry import get, names


def record(game, count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` random games, each as its (game seed, seed of its draws) pair: replayed
    with the same seeds, the same moves are drawn."""
    rng = random.Random(seed)
    return [(rng.randrange(2**31), rng.randrange(2**31)) for _ in range(count)]


def play_all(game, games: list[tuple[int, int]]) -> int:
    moves = 0
    for game_seed, seed in games:
        rng = random.Random(seed)
        state = game.new_state(seed=game_seed)
        while not state.is_over:
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
            else:
                state.play(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def measure(name: str, count: int, compiled: bool) -> dict:
    game = get(name, **({"players": 2} if name == "hexagone" else {}))
    if compiled and game.playout_kernel() is not None:
        game.playout_kernel()(1, 0.01)
    games = record(game, count, seed=1)
    moves = play_all(game, games)  # once untimed: imports and caches
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        play_all(game, games)
        best = min(best, time.process_time() - start)
    return {
        "game": name,
        "games": count,
        "moves": moves,
        "cpu_us_per_move": round(best / moves * 1e6, 3),
        "cpu_us_per_game": round(best / count * 1e6, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=names(), help="one game (default: Kuniumi and Comune)")
    parser.add_argument("--games", type=int, default=300, help="random games played (300)")
    parser.add_argument("--compiled", action="store_true", help="compile the kernel first")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args()
    rows = [
        measure(name, args.games, args.compiled)
        for name in ([args.game] if args.game else ["kuniumi", "comune"])
    ]
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print(f"{r['game']:10} {r['cpu_us_per_move']:8.2f} µs a move, {r['moves']:,} moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
