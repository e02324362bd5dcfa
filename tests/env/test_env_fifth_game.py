"""The example fifth game, loaded as a plug-in, gets the research adapters through its
``Game`` hooks (``action_space``, ``observation``): PettingZoo's and OpenSpiel's own checks
pass, and its games end with the engine's result."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from ludoteca.core import registry
from ludoteca.env import openspiel
from ludoteca.env.observation import Observer
from ludoteca.env.pettingzoo import env

pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.fixture
def threerow(monkeypatch):
    monkeypatch.setenv(registry.PACKAGES_VARIABLE, "tests.support.threerow")
    return registry.get("threerow")


def test_its_hooks_give_the_adapters_its_space_and_observation(threerow):
    assert threerow.action_space().size == 9
    state = threerow.from_position("x.o/.x./... o")
    tensor = Observer(threerow).encode(state, 1)
    marks = tensor[:27].reshape(3, 3, 3)
    assert marks[0].sum() == 1 and marks[1].sum() == 2 and marks[2].sum() == 6
    assert tensor[27] == 1.0  # o, the observer, is to move


def test_pettingzoo_checks_it(threerow):
    api_test(env(threerow), num_cycles=50)


def test_open_spiel_checks_it_and_its_games_end_with_the_engine_result(threerow, monkeypatch):
    monkeypatch.setattr(openspiel, "GAMES", dict(openspiel.GAMES))  # the plug-in stays here
    game = pyspiel.load_game(openspiel.register("threerow"))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    rng = np.random.default_rng(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        result = state.engine.result
        winners = {p for p, v in enumerate(state.returns()) if v > 0}
        assert winners == (set(result.winners) if len(result.winners) == 1 else set())


def test_a_game_without_the_hooks_is_refused_clearly():
    with pytest.raises(ValueError, match="no action space"):
        env(registry.get("race"))
    with pytest.raises(ValueError, match="no action space"):
        openspiel.register("race")
