"""The research adapters' speed: steps and observations per second of each game.

    python bench/adapters.py [--seconds 2] [--game kuniumi] [--cpu] [--json]

For each game (Hexagone with 2 players) these figures, each measured for ``--seconds``:

- ``openspiel_steps_per_s``: actions of uniform random games through OpenSpiel's API
  (``legal_actions``, ``apply_action``, chance drawn from ``chance_outcomes``), as an
  OpenSpiel algorithm steps a game;
- ``openspiel_rl_steps_per_s``: steps of OpenSpiel's own RL environment
  (``open_spiel.python.rl_environment.Environment``) by a uniform random agent: the way a
  learning agent steps an OpenSpiel game, each step with every player's observation tensor
  and legal actions, chance drawn inside;
- ``pettingzoo_steps_per_s``: the loop of PettingZoo's documentation (``agent_iter``,
  ``last()`` which observes, a random action of the mask, ``step``): a step with its
  observation and mask;
- ``pettingzoo_env_steps_per_s``: the same loop with the actions of games it played first
  replayed (same seeds, so the same games), the agent's own draw from the mask left out:
  what the environment's step and ``last()`` cost, which the documented loop's
  ``np.flatnonzero`` and ``Generator.choice`` (5-7 us a step, the same on any revision)
  dilute;
- ``observations_per_s``: the observation tensor of the player to move (``Observer.encode``,
  what PettingZoo's ``observe`` and OpenSpiel's observer hold) over the positions of random
  games; ``openspiel_observation_tensor_per_s`` the same through ``observation_tensor``, which
  pyspiel hands back as a Python list of floats.

``--cpu`` times in CPU time (``time.process_time``) instead of wall-clock time: steadier when
other work shares the machine. Needs the ``research`` extra (pettingzoo, open_spiel). Prints
one JSON list with ``--json``, which ``bench/compare.py`` reads (name this file and the Python
by absolute paths: an older revision has no ``bench/adapters.py``, and ``compare.py`` runs
the command in each revision's checkout)::

    python bench/compare.py OLD NEW -- $PWD/.venv/bin/python $PWD/bench/adapters.py --json --cpu
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
import pyspiel

import ludoteca.env.openspiel  # noqa: F401  (registers the games)
from ludoteca.env.observation import Observer
from ludoteca.env.pettingzoo import env

clock = time.perf_counter
"""What the figures are timed with (``--cpu``: ``time.process_time``)."""

GAMES = {
    "kuniumi": {},
    "comune": {},
    "comino": {},
    "hexagone": {"players": 2},
}


def openspiel_steps(name: str, options: dict, seconds: float, seed: int = 1) -> float:
    """Actions per second of random games through OpenSpiel's state API."""
    game = pyspiel.load_game(f"ludoteca_{name}", options)
    rng = random.Random(seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        steps += random_game(game.new_initial_state(), rng)
    return steps / (clock() - start)


def random_game(state, rng: random.Random) -> int:
    """Play ``state`` (an OpenSpiel state) to its end by uniform random actions, chance by
    its probabilities, as an OpenSpiel algorithm steps a game; returns the actions taken."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def openspiel_rl_steps(name: str, options: dict, seconds: float, seed: int = 1) -> float:
    """Steps per second of OpenSpiel's RL environment, a uniform random agent acting."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment(
        pyspiel.load_game(f"ludoteca_{name}", options),
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed),
    )
    rng = random.Random(seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        time_step = environment.reset()
        while not time_step.last():
            observations = time_step.observations
            legal = observations["legal_actions"][observations["current_player"]]
            time_step = environment.step([rng.choice(legal)])
            steps += 1
    return steps / (clock() - start)


def pettingzoo_steps(name: str, options: dict, seconds: float, seed: int = 1) -> float:
    """Steps per second of PettingZoo's documented loop, each with ``last()``'s observation."""
    aec = env(name, **options)
    rng = np.random.default_rng(seed)
    steps = 0
    start = clock()
    deadline = start + seconds
    episode = 0
    while clock() < deadline:
        aec.reset(seed=seed + episode)
        episode += 1
        for _agent in aec.agent_iter():
            observation, _reward, termination, truncation, _info = aec.last()
            if termination or truncation:
                aec.step(None)
                continue
            # a bool view: numpy finds the few ones of a bool array far faster than of int8
            legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
            aec.step(int(rng.choice(legal)))
            steps += 1
    return steps / (clock() - start)


def pettingzoo_env_steps(name: str, options: dict, seconds: float, seed: int = 1) -> float:
    """Steps per second of :func:`pettingzoo_steps`' loop replaying the actions of games it
    played first (untimed), without the agent's draw: the environment's own cost."""
    aec = env(name, **options)
    rng = np.random.default_rng(seed)
    games: list[list[int | None]] = []
    start = time.process_time()
    while time.process_time() - start < seconds / 2 or not games:
        aec.reset(seed=seed + len(games))
        actions: list[int | None] = []
        for _agent in aec.agent_iter():
            observation, _reward, termination, truncation, _info = aec.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"].view(np.bool_))))
            actions.append(action)
            aec.step(action)
        games.append(actions)
    steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for episode, actions in enumerate(games):
            aec.reset(seed=seed + episode)
            for _agent, action in zip(aec.agent_iter(), actions, strict=True):
                aec.last()
                aec.step(action)
            steps += len(actions) - actions.count(None)  # the dead steps at the end: no play
    return steps / (clock() - start)


def observations(name: str, options: dict, seconds: float, seed: int = 1) -> dict:
    """Observations per second on the positions of random games, each position observed
    once by the player to move: the adapters' tensor (``Observer.encode``, what PettingZoo's
    ``observe`` returns and OpenSpiel's observer ``tensor`` holds), and OpenSpiel's
    ``observation_tensor``, which pyspiel turns into a Python list of floats."""
    game = pyspiel.load_game(f"ludoteca_{name}", options)
    observer = Observer(game.engine)
    rng = random.Random(seed)
    count = 0
    encode = listed = 0.0
    while encode + listed < 2 * seconds:
        states = []
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
                continue
            states.append((state.clone(), state.current_player()))
            state.apply_action(rng.choice(state.legal_actions()))
        start = clock()
        for one, player in states:
            play = one.play_driver
            observer.encode(play.state, player, play.prefix)
        middle = clock()
        for one, player in states:
            one.observation_tensor(player)
        listed += clock() - middle
        encode += middle - start
        count += len(states)
    return {
        "observations_per_s": round(count / encode, 1),
        "openspiel_observation_tensor_per_s": round(count / listed, 1),
    }


def measure(name: str, options: dict, seconds: float) -> dict:
    return {
        "game": name,
        "options": options,
        "openspiel_steps_per_s": round(openspiel_steps(name, options, seconds), 1),
        "openspiel_rl_steps_per_s": round(openspiel_rl_steps(name, options, seconds), 1),
        "pettingzoo_steps_per_s": round(pettingzoo_steps(name, options, seconds), 1),
        "pettingzoo_env_steps_per_s": round(pettingzoo_env_steps(name, options, seconds), 1),
        **observations(name, options, seconds),
    }


def game_arguments(parser: argparse.ArgumentParser, seconds: float, per: str) -> None:
    """The options this script and its siblings (``adapter_floor.py``) share."""
    parser.add_argument(
        "--seconds", type=float, default=seconds, help=f"per {per} (default {seconds:g})"
    )
    parser.add_argument("--game", choices=sorted(GAMES), help="one game (default: all four)")
    parser.add_argument("--cpu", action="store_true", help="time in CPU time, not wall-clock")
    parser.add_argument("--json", action="store_true", help="print one JSON list")


def chosen_games(args: argparse.Namespace) -> list[str]:
    """The games ``args`` name; with ``--cpu``, :data:`clock` becomes CPU time."""
    if args.cpu:
        global clock
        clock = time.process_time
    return [args.game] if args.game else list(GAMES)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(parser, 2.0, "figure")
    args = parser.parse_args()
    rows = [measure(name, GAMES[name], args.seconds) for name in chosen_games(args)]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(
        f"{'game':10} {'OpenSpiel steps/s':>18} {'(RL environment)':>17} "
        f"{'PettingZoo steps/s':>19} "
        f"{'(env alone)':>12} {'observations/s':>15} {'observation_tensor/s':>21}"
    )
    for r in rows:
        print(
            f"{r['game']:10} {r['openspiel_steps_per_s']:>18,.0f} "
            f"{r['openspiel_rl_steps_per_s']:>17,.0f} "
            f"{r['pettingzoo_steps_per_s']:>19,.0f} {r['pettingzoo_env_steps_per_s']:>12,.0f} "
            f"{r['observations_per_s']:>15,.0f} "
            f"{r['openspiel_observation_tensor_per_s']:>21,.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
