"""The games as OpenSpiel games: OpenSpiel's own checks, random games and its MCTSBot."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from ludoteca.bots.registry import make_bot
from ludoteca.env.openspiel import GAMES as REGISTERED
from ludoteca.env.openspiel import PlayoutEvaluator

OPEN_SPIEL_GAMES = [
    ("ludoteca_kuniumi", {}),
    ("ludoteca_comune", {}),
    ("ludoteca_comino", {}),
    ("ludoteca_hexagone", {"players": 2, "seed": 5}),
    ("ludoteca_hexagone", {"players": 4, "seed": 1}),
    ("ludoteca_hexagone", {"players": 1}),
]
IDS = [
    name[len("ludoteca_") :] + "".join(f"-{k}{v}" for k, v in p.items())
    for name, p in OPEN_SPIEL_GAMES
]


def test_all_four_games_are_registered():
    assert set(REGISTERED) == {
        "ludoteca_comune",
        "ludoteca_comino",
        "ludoteca_kuniumi",
        "ludoteca_hexagone",
    }
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert set(REGISTERED) <= registered


@pytest.mark.parametrize(("name", "params"), OPEN_SPIEL_GAMES, ids=IDS)
def test_open_spiel_random_simulation_checks(name, params):
    """OpenSpiel's own battery: legal actions, clones, observations, serialisation."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def play(game, choose, rng) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(choose(state))
    return state


@pytest.mark.parametrize(("name", "params"), OPEN_SPIEL_GAMES, ids=IDS)
def test_random_games_end_with_the_engine_result(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(7)
    for _ in range(2):
        state = play(game, lambda s: int(rng.choice(s.legal_actions())), rng)
        engine = state.engine
        assert engine.is_over
        returns = state.returns()
        if game.num_players() > 1:
            assert abs(sum(returns)) < 1e-9
            assert {p for p, v in enumerate(returns) if v > 0} <= set(engine.result.winners)
        assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()
        assert len(state.history()) <= game.max_game_length()


def observed_tensor_matches(state, game) -> None:
    for player in range(game.num_players()):
        tensor = np.asarray(state.observation_tensor(player))
        assert tensor.shape == tuple(game.observation_tensor_shape())


MCTS_GAMES = [
    # (game, params, simulations, evaluator): rollouts through the adapter where a game is
    # short; the engine's playouts for two-player Hexagone, whose games are ~700 actions
    ("ludoteca_kuniumi", {}, 20, "rollout"),
    ("ludoteca_comune", {}, 8, "rollout"),
    ("ludoteca_comino", {}, 20, "rollout"),
    ("ludoteca_hexagone", {"players": 1}, 10, "rollout"),
    ("ludoteca_hexagone", {"players": 2, "seed": 3}, 4, "engine"),
]


@pytest.mark.parametrize(
    ("name", "params", "simulations", "evaluator"),
    MCTS_GAMES,
    ids=[f"{n[len('ludoteca_') :]}-{e}" for n, _, _, e in MCTS_GAMES],
)
def test_open_spiel_mcts_bot_finishes_games(name, params, simulations, evaluator):
    """OpenSpiel's MCTSBot plays seat 0 of a whole game through the adapter."""
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(11)
    if evaluator == "rollout":
        judge = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        judge = PlayoutEvaluator(n_rollouts=1, seed=11)
    bot = mcts.MCTSBot(game, 2.0, simulations, judge, random_state=rng)

    def choose(state):
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            observed_tensor_matches(state, game)
            return action
        return int(rng.choice(state.legal_actions()))

    end = play(game, choose, rng)
    assert end.is_terminal() and end.engine.is_over


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("ludoteca_kuniumi", {}),
        ("ludoteca_comune", {}),
        ("ludoteca_comino", {}),
        ("ludoteca_hexagone", {"players": 2, "seed": 2}),
    ],
    ids=["kuniumi", "comune", "comino", "hexagone"],
)
def test_a_bot_of_this_project_plays_through_the_adapter(name, params):
    """The way a benchmark seats this project's bots against OpenSpiel's: whole moves,
    chosen on the engine's state, played as their action ids."""
    game = pyspiel.load_game(name, params)
    ours = make_bot("greedy", seed=1)
    rng = np.random.default_rng(1)
    plan: list[int] = []

    def choose(state):
        if state.current_player() == 0:
            if not plan:
                plan.extend(state.actions_of(ours.choose(state.engine)))
            return plan.pop(0)
        return int(rng.choice(state.legal_actions()))

    end = play(game, choose, rng)
    assert end.engine.is_over and not plan


def test_hexagone_gaps_is_a_parameter():
    plain = pyspiel.load_game("ludoteca_hexagone", {"players": 2, "seed": 5})
    gaps = pyspiel.load_game("ludoteca_hexagone", {"players": 2, "seed": 5, "gaps": True})
    assert plain.get_parameters()["gaps"] is False and gaps.get_parameters()["gaps"] is True
    assert gaps.engine.gaps and not plain.engine.gaps


@pytest.mark.parametrize("name", ["ludoteca_kuniumi", "ludoteca_hexagone"])
def test_information_state_tensor_raises_as_built_in_games_do(name):
    state = pyspiel.load_game(name).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        state.information_state_tensor()
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("tic_tac_toe").new_initial_state().information_state_tensor()


@pytest.mark.parametrize(("name", "params"), OPEN_SPIEL_GAMES, ids=IDS)
def test_openspiels_rl_environment_plays_each_game_to_its_end(name, params):
    """OpenSpiel's RL environment, the way a learning agent steps a game: every player's
    observation and legal actions at each step (only the player to act has any), chance
    drawn inside, and the returns of the game at its last step."""
    import random

    from open_spiel.python import rl_environment

    game = pyspiel.load_game(name, params)
    environment = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3)
    )
    rng = random.Random(3)
    time_step = environment.reset()
    steps = 0
    while not time_step.last():
        observations = time_step.observations
        player = observations["current_player"]
        legal = observations["legal_actions"]
        assert legal[player] and all(not legal[p] for p in range(game.num_players()) if p != player)
        assert all(len(o) == game.observation_tensor_size() for o in observations["info_state"])
        time_step = environment.step([rng.choice(legal[player])])
        steps += 1
    assert steps > 10
    assert time_step.rewards == environment.get_state.returns()
