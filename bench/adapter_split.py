"""Where a research adapter's step goes: the engine, its listings, and the rest.

    python bench/adapter_split.py [--game comino] [--games 200] [--json] [--in-loop]

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

With ``--in-loop``, also what one position's decision (its legal ids, :func:`decider`) costs
where the loop makes it (``decision_in_loop_us``: each call timed inside OpenSpiel's loop,
``perf_counter``, wall time) against positions' decisions made one after another
(``decision_repeated_us``: 400 positions of other games, fifty copies of each, listed one
after another, the mean over positions). A listing costs more inside a game's loop than
repeated on its own, and only the first is what the loop pays: a saving measured the second
way promises more than the loop gives.
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


def decision_costs(name: str, count: int, repeat: int = 50) -> dict:
    """Each position's decision timed where OpenSpiel's loop makes it, and the same kind of
    positions' decisions made one after another (see the module's notes), in µs."""
    import ludoteca.env.actions as actions

    durations: list[float] = []  # each decision's, timed in the loop
    listed = [0]  # decisions made while positions are kept
    states: list = []
    clock = time.perf_counter
    plain = actions.decider

    def timed_decider(space):
        decide = plain(space)

        def timed(state):
            start = clock()
            decision = decide(state)
            durations.append(clock() - start)
            return decision

        return timed

    def kept_decider(space):
        decide = plain(space)

        def keep(state):
            if len(states) < 400 and len(states) * 7 <= listed[0]:
                states.append(state.clone())  # as it was before listed (engines keep lists)
            listed[0] += 1
            return decide(state)

        return keep

    game = pyspiel.load_game(f"ludoteca_{name}", GAMES.get(name, {}))
    rng = random.Random(1)
    for _ in range(max(20, count // 10)):  # warm: tables met, code compiled
        random_game(game.new_initial_state(), rng)
    try:
        actions.decider = timed_decider
        for _ in range(count):
            random_game(game.new_initial_state(), rng)
        actions.decider = kept_decider  # positions of other games, kept untimed
        while len(states) < 400 and listed[0] < 100 * count:
            random_game(game.new_initial_state(), rng)
    finally:
        actions.decider = plain
    decide = plain(space_for(get(name, **GAMES.get(name, {}))))
    repeated = []
    for state in states:
        copies = [state.clone() for _ in range(repeat)]  # each listed once, as in the loop
        start = clock()
        for copy in copies:
            decide(copy)
        repeated.append((clock() - start) / repeat)
    return {
        "decisions_per_game": round(len(durations) / count, 1),
        "decision_in_loop_us": round(sum(durations) / len(durations) * 1e6, 2),
        "decision_repeated_us": round(sum(repeated) / len(repeated) * 1e6, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="comino", help="a game id (default comino)")
    parser.add_argument("--games", type=int, default=200, help="random games (default 200)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--in-loop",
        action="store_true",
        help="also a decision's cost inside OpenSpiel's loop and repeated on its own",
    )
    args = parser.parse_args()
    row = measure(args.game, args.games)
    if args.in_loop:
        row.update(decision_costs(args.game, args.games))
    if args.json:
        print(json.dumps(row))
    else:
        for key, value in row.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
