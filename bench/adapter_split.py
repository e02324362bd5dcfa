"""Where a research adapter's step goes: the engine, its listings, and the rest.

    python bench/adapter_split.py [--game comino] [--games 200] [--json]

Random games (uniform over the legal moves, chance included; Hexagone with 2 players, as in
``bench/adapters.py``) are recorded first; then, in
CPU time (``time.process_time``), best of five, per game:

- ``engine_us``: the recorded moves replayed through ``state.play`` from a new state;
- ``engine_and_listing_us``: the same with each position's legal ids listed (the action
  layer's ``Play.legal_actions``) or, at a chance node, its outcomes;
- ``openspiel_loop_us``: as many random games through OpenSpiel's API as
  ``bench/adapters.py``'s ``openspiel_steps`` plays them (the same loop).

What ``openspiel_loop_us`` holds beyond ``engine_and_listing_us`` is the adapters' and
pyspiel's own work per step (and the loop's random draws): no engine makes it smaller. Runs
against any revision with ``PYTHONPATH`` at its ``src`` that has the action layer.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import pyspiel

import ludoteca.env.openspiel  # noqa: F401  (registers the games)
from ludoteca.core import get
from ludoteca.env.actions import Play, space_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adapters import GAMES, random_game  # noqa: E402  (this folder's script, OpenSpiel's loop)


def recorded(name: str, count: int, seed: int = 1) -> list[list]:
    """``count`` random games, game ``i`` from the engine's start ``new_state(i)`` (Hexagone
    draws a block from it)."""
    engine = get(name, **GAMES.get(name, {}))
    rng = random.Random(seed)
    games = []
    for i in range(count):
        state = engine.new_state(i)
        moves = []
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state.play(move)
        games.append(moves)
    return games


def best_per_game(run, games: list) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return round(best / len(games) * 1e6, 1)


def measure(name: str, count: int) -> dict:
    engine = get(name, **GAMES.get(name, {}))
    space = space_for(engine)
    games = recorded(name, count)

    def replay() -> None:
        for i, moves in enumerate(games):
            state = engine.new_state(i)
            for move in moves:
                state.play(move)

    def listing() -> None:
        for i, moves in enumerate(games):
            state = engine.new_state(i)
            for move in moves:
                if state.to_move >= 0:
                    Play(space, state).legal_actions()
                else:
                    state.chance_outcomes()
                state.play(move)

    game = pyspiel.load_game(f"ludoteca_{name}", GAMES.get(name, {}))

    def openspiel() -> None:
        rng = random.Random(1)
        for _ in games:
            random_game(game.new_initial_state(), rng)

    return {
        "game": name,
        "moves_per_game": round(sum(map(len, games)) / len(games), 1),
        "engine_us": best_per_game(replay, games),
        "engine_and_listing_us": best_per_game(listing, games),
        "openspiel_loop_us": best_per_game(openspiel, games),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="comino", help="a game id (default comino)")
    parser.add_argument("--games", type=int, default=200, help="random games (default 200)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    row = measure(args.game, args.games)
    if args.json:
        print(json.dumps(row))
    else:
        for key, value in row.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
