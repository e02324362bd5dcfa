"""Per-game search knowledge is declared by each game (its ``ai.py``) and handed to the bots
as an object: the bots name no game, and a game that declares nothing gets the generic
search."""

from __future__ import annotations

import pytest

from ludoteca.bots import evaluation, policies, steps
from ludoteca.bots.levels import LEVELS
from ludoteca.bots.mcts import default_cutoff
from ludoteca.core.ai import GENERIC, SearchKnowledge
from ludoteca.core.registry import get, names


def test_a_game_that_declares_nothing_gets_the_generic_search():
    state = get("toy-nim", pile=7).new_state()
    assert state.game.search_knowledge() is GENERIC
    assert evaluation.evaluation_for(state.game) is evaluation.generic
    assert default_cutoff(state) == 0
    assert steps.stepper_for(state) is None and steps.lazy_steps_for(state) is None
    assert policies.unchecked_play_for(state) == state.play
    assert all(level.spec_for(state) == level.spec for level in LEVELS.values())


@pytest.mark.parametrize("name", [n for n in names() if not n.startswith("toy")])
def test_every_game_declares_its_knowledge_as_one_object(name):
    game = get(name)
    knowledge = game.search_knowledge()
    assert isinstance(knowledge, SearchKnowledge)
    assert game.search_knowledge() is knowledge  # built once, read by every bot


def test_a_declared_level_spec_replaces_the_standard_one_for_its_player_count(monkeypatch):
    game = get("toy-nim", pile=7)
    knowledge = SearchKnowledge(level_specs={"hard": "greedy"}, solo_level_specs={"hard": "x"})
    monkeypatch.setattr(type(game), "search_knowledge", lambda self: knowledge)
    state = game.new_state()
    assert LEVELS["hard"].spec_for(state) == "greedy"
    assert LEVELS["easy"].spec_for(state) == LEVELS["easy"].spec
