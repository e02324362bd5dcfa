"""How fast OpenSpiel's loop could step a game if the game cost nothing: the floor under the
research adapters' ``openspiel_steps_per_s``.

    python bench/adapter_floor.py [--game comune] [--seconds 2] [--cpu] [--json]

For each game, random games are first played through the real adapter (as
``bench/adapters.py``'s ``openspiel_steps`` plays them) and each step written down: who moved
and the legal ids or chance outcomes listed there. A *tape* state then replays those steps
through the same OpenSpiel API and the same loop (``adapters.random_game``): a pyspiel
Python state like :class:`ludoteca.env.openspiel.LudotecaState`, answering the same calls
in Python (``current_player``, ``is_chance_node``, ``is_terminal``, ``legal_actions``,
``chance_outcomes``) and taking ``apply_action`` through pyspiel's C++ ``State``, whose
``_apply_action`` only moves to the next step written down. Nothing of a game runs: no
engine, no listing, no driver.

Printed per game: ``adapter_steps_per_s`` (the real adapter) and ``floor_steps_per_s`` (the
tape), each the median of ``--rounds`` alternating runs, and ``adapter_share``, how much of
a step's time is the adapter's and the engine's (1 - adapter rate / floor rate). A
revision's speed-up over another can be at most ``its time per step / the floor's``, so with
the old revision's ``openspiel_steps_per_s`` from ``bench/adapters.py`` in the same run::

    most = floor_steps_per_s / old openspiel_steps_per_s

is the speed-up an adapter whose game cost nothing would reach. ``--cpu`` times in CPU time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

import pyspiel

import ludoteca.env.openspiel  # noqa: F401  (registers the games)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import adapters  # noqa: E402  (this folder's script: the same loop, options and clock)
from adapters import GAMES, random_game  # noqa: E402

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def tapes(game: pyspiel.Game, count: int, seed: int = 1) -> list[list[tuple]]:
    """``count`` random games through the real adapter, each step as (player, legal ids or
    chance outcomes), the last step the terminal one (player only)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        tape: list[tuple] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                tape.append((_CHANCE, outcomes))
                actions = [a for a, _ in outcomes]
                state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
            else:
                legal = state.legal_actions()
                tape.append((state.current_player(), legal))
                state.apply_action(rng.choice(legal))
        tape.append((_TERMINAL, []))
        out.append(tape)
    return out


class TapeState(pyspiel.State):
    """A state that replays one tape: each call answered in Python from the step written
    down, ``apply_action`` through pyspiel's C++ ``State`` (history, move number), whose
    ``_apply_action`` moves to the next step whatever the action was."""

    def __init__(self, game: pyspiel.Game, tape: list[tuple]) -> None:
        super().__init__(game)
        self._tape = tape
        self._at = 0
        self._player, self._listed = tape[0]

    def current_player(self) -> int:
        return self._player

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(self._listed)  # a copy, as the adapter gives

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._listed)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._listed

    def _apply_action(self, action: int) -> None:
        self._at += 1
        self._player, self._listed = self._tape[self._at]


def rate(make_state, seconds: float) -> float:
    """Steps per second of ``random_game`` over the states ``make_state`` gives."""
    rng = random.Random(1)
    steps = 0
    clock = adapters.clock  # CPU time with --cpu
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        steps += random_game(make_state(), rng)
    return steps / (clock() - start)


def measure(name: str, options: dict, seconds: float, rounds: int, games: int) -> dict:
    game = pyspiel.load_game(f"ludoteca_{name}", options)
    recorded = tapes(game, games)
    turn = iter(range(10**12))

    def tape_state() -> TapeState:
        return TapeState(game, recorded[next(turn) % len(recorded)])

    real, floor = [], []
    for _ in range(rounds):  # alternating: the machine's load falls on both alike
        real.append(rate(game.new_initial_state, seconds))
        floor.append(rate(tape_state, seconds))
    adapter, bare = statistics.median(real), statistics.median(floor)
    return {
        "game": name,
        "adapter_steps_per_s": round(adapter, 1),
        "floor_steps_per_s": round(bare, 1),
        "adapter_share": round(1 - adapter / bare, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    adapters.game_arguments(parser, 1.0, "run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs (default 3)")
    parser.add_argument("--games", type=int, default=50, help="games on tape (default 50)")
    args = parser.parse_args()
    names = adapters.chosen_games(args)
    rows = [measure(n, GAMES[n], args.seconds, args.rounds, args.games) for n in names]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'game':10} {'adapter steps/s':>16} {'floor steps/s':>14} {'adapter share':>14}")
    for r in rows:
        print(
            f"{r['game']:10} {r['adapter_steps_per_s']:>16,.0f} "
            f"{r['floor_steps_per_s']:>14,.0f} {r['adapter_share']:>14.1%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
