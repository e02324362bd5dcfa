"""The PettingZoo environments pass PettingZoo's own API and seed tests, and play true games."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ludoteca.env.pettingzoo import env

from .common import GAMES, IDS

# PettingZoo's checker suggests flat observations; the classic games' dict of observation
# and action mask is the documented convention for board games
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_pettingzoo_api(name, options):
    api_test(env(name, **options), num_cycles=300)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_pettingzoo_seed(name, options):
    seed_test(lambda: env(name, **options), num_cycles=100)


def play_out(environment, seed: int) -> tuple[dict, list[str]]:
    """A whole game with masked random actions; the total rewards and the acting order."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    order = []
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            order.append(agent)
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    return totals, order


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_a_whole_game_rewards_the_engine_result(name, options):
    environment = env(name, **options)
    totals, order = play_out(environment, seed=3)
    result = environment.unwrapped.play.state.result
    assert result is not None
    assert tuple(totals.values()) == environment.unwrapped.play.returns()
    if result.num_players > 1:
        assert abs(sum(totals.values())) < 1e-9
        for p in result.winners:
            assert totals[f"player_{p}"] >= 0
    assert environment.agents == []
    # the same seed and the same actions: the same game
    assert play_out(env(name, **options), seed=3) == (totals, order)


def test_masks_only_for_the_agent_to_act():
    environment = env("hexagone", players=3)
    environment.reset(seed=1)
    environment.render()  # no render mode: nothing
    acting = environment.agent_selection
    for agent in environment.agents:
        mask = environment.observe(agent)["action_mask"]
        assert mask.any() == (agent == acting)


def test_render_text():
    environment = env("comune", render_mode="ansi")
    environment.reset(seed=0)
    environment.step(90)  # e5-, a turn under way
    assert "e5-" in environment.render()


def test_an_illegal_action_is_refused():
    from ludoteca.core import IllegalMoveError

    environment = env("kuniumi")
    environment.reset(seed=0)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    with pytest.raises(IllegalMoveError):
        environment.step(int(np.flatnonzero(mask == 0)[0]))


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_observations_are_within_the_spaces_bounds(name, options):
    environment = env(name, **options)
    environment.reset(seed=3)
    space = environment.observation_space(environment.possible_agents[0])["observation"]
    assert (space.low == 0).all() and (space.high == 1).all()
    rng = np.random.default_rng(3)
    for steps, agent in enumerate(environment.agent_iter()):
        observation, _, done, cut, _ = environment.last()
        assert environment.observation_space(agent).contains(observation)
        if done or cut or steps > 400:
            break
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_an_illegal_action_can_end_the_game_as_pettingzoo_classic_games_do():
    environment = env("kuniumi", illegal="terminate")
    environment.reset(seed=0)
    offender = environment.agent_selection
    mask = environment.observe(offender)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(environment.terminations.values())
    assert environment.rewards == {a: (-1.0 if a == offender else 0) for a in environment.agents}
    with pytest.raises(ValueError, match="illegal must be one of raise, terminate"):
        env("kuniumi", illegal="ignore")


def test_two_and_three_player_hexagone_share_a_trajectory_by_the_rules():
    """Same seed: same block, same dice, and no turn rule depends on the number of players,
    so a policy of the mask plays the same actions; who moves and who wins differ. Four
    players set a white piece aside first: another block, another game."""

    def trajectory(players: int):
        environment = env("hexagone", players=players)
        environment.reset(seed=11)
        rng = np.random.default_rng(11)
        actions, movers = [], []
        for agent in environment.agent_iter():
            observation, _, done, cut, _ = environment.last()
            action = None
            if not (done or cut):
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                actions.append(action)
                movers.append(agent)
            environment.step(action)
        return actions, movers

    two, three, four = trajectory(2), trajectory(3), trajectory(4)
    assert two[0] == three[0]
    assert two[1] != three[1] and "player_2" in three[1]
    assert four[0] != two[0]
