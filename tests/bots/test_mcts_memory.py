"""A search tree is freed as soon as it is dropped.

The search pauses the cycle collector and freezes what is alive after each move (see
:func:`ludoteca.bots.base.gc_paused`), so anything in a tree that refers back to itself
would never be collected in a process that goes on searching: a long arena once grew a
worker to 11 GB that way. These tests fail if a tree of any game holds a reference cycle.
"""

from __future__ import annotations

import gc
import random

import pytest

from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.core.table import resolve_chance
from tests.bots.test_real_games import engines


def _midgame(game_id: str, seed: int, plies: int):
    state = get(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        resolve_chance(state, rng)
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    resolve_chance(state, rng)
    assert not state.is_over and state.to_move != CHANCE
    return state


def _ludoteca_garbage(make_garbage) -> list:
    """The ludoteca objects that only the cycle collector could free after
    ``make_garbage()`` dropped its last reference to them."""
    gc.unfreeze()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        make_garbage()
        gc.unfreeze()
        gc.collect()
        return [o for o in gc.garbage if type(o).__module__.startswith("ludoteca")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


@pytest.mark.parametrize("game_id", [cls.id for cls in engines()])
def test_a_dropped_tree_leaves_no_cycles(game_id):
    state = _midgame(game_id, seed=5, plies=4)
    bots = [MCTSBot(seed=1, iterations=400, seconds=60)]

    def search_twice_and_drop():
        bot = bots.pop()
        bot.choose(state)
        follow = state.clone()
        follow.play(bot.choose(state))  # a second move reuses and replaces the tree
        resolve_chance(follow, random.Random(2))
        if not follow.is_over:
            bot.choose(follow)
        assert bot._root is not None and bot._root.visits > 0
        del bot

    assert _ludoteca_garbage(search_twice_and_drop) == []


def test_the_check_sees_a_cycle():
    """The check above can fail: a Comune trie that points back at itself is caught."""
    from ludoteca.games.comune.ai import TurnParts as ComuneTrie

    def make_cycle():
        trie = ComuneTrie(get("comune").new_state(seed=1))
        trie.next_steps.fill = trie  # a reference back to the trie, as a bound method was

    assert any(isinstance(o, ComuneTrie) for o in _ludoteca_garbage(make_cycle))


@pytest.mark.parametrize("game_id", [cls.id for cls in engines()])
def test_a_tree_stops_growing_at_its_cap(game_id):
    state = _midgame(game_id, seed=6, plies=3)
    bot = MCTSBot(seed=1, iterations=1500, seconds=60, max_nodes=200)
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert bot.last_iterations == 1500  # the search goes on at the cap
    assert bot.tree_size() <= 200
    # the simulations past the cap went through the nodes held, refining their values
    assert sum(child.visits for child in bot._root.children) == 1500
    uncapped = MCTSBot(seed=1, iterations=1500, seconds=60)
    uncapped.choose(state)
    assert uncapped.tree_size() > 400  # so the cap above was what held the tree


@pytest.mark.parametrize("spec", ["mcts:max_nodes=0", "mcts:max_nodes=-5"])
def test_a_cap_below_one_node_is_refused(spec):
    from ludoteca.bots import make_bot
    from ludoteca.core.errors import MalformedError

    with pytest.raises(MalformedError, match="max_nodes"):
        make_bot(spec)
