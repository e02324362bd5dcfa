"""The adapters' fast paths give what the slow ones gave.

The OpenSpiel state answers ``legal_actions``, ``is_chance_node`` and ``observation_tensor``
in Python instead of through pyspiel's C++ ``State`` (which calls back into Python): every
answer is held to pyspiel's own, called on the same state through the base class.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import ludoteca.env.openspiel  # noqa: F401  (registers the games)
from ludoteca.core import get
from ludoteca.core.errors import IllegalMoveError
from ludoteca.env.observation import Observer
from ludoteca.env.pettingzoo import draw, env
from ludoteca.games.comune.flat import SUPPLY, TO_MOVE

from .common import random_positions

GAMES = [
    ("ludoteca_kuniumi", {}),
    ("ludoteca_comune", {}),
    ("ludoteca_comino", {}),
    ("ludoteca_hexagone", {"players": 3, "seed": 4}),
]


def assert_same_as_pyspiel(state: pyspiel.State, n: int) -> None:
    base = pyspiel.State
    assert state.is_chance_node() == base.is_chance_node(state)
    assert state.is_player_node() == base.is_player_node(state)
    assert state.legal_actions() == base.legal_actions(state)
    for player in range(n):
        assert state.legal_actions(player) == base.legal_actions(state, player)
        ours = state.observation_tensor(player)
        theirs = base.observation_tensor(state, player)
        assert type(ours) is list and ours == theirs
    # pyspiel's Rewards: the returns once over, zeros before (it would call ours: no base)
    assert state.rewards() == (state.returns() if state.is_terminal() else [0.0] * n)
    if state.current_player() >= 0:
        assert state.observation_tensor() == base.observation_tensor(state)
    else:  # pyspiel's error for a pseudo-player, as before
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor()


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[n[9:] for n, _ in GAMES])
def test_python_answers_equal_pyspiels(name, params):
    game = pyspiel.load_game(name, params)
    assert game.observation_tensor_shape() == pyspiel.Game.observation_tensor_shape(game)
    assert game.observation_tensor_size() == pyspiel.Game.observation_tensor_size(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if step % 7 == 0 or state.is_chance_node():
            assert_same_as_pyspiel(state, game.num_players())
        legal = state.legal_actions()
        legal.append(-5)  # the caller's copy: the state's own list is untouched
        assert state.legal_actions() == legal[:-1]
        state.apply_action(rng.choice(legal[:-1]))
        step += 1
    assert_same_as_pyspiel(state, game.num_players())


def test_an_illegal_id_is_refused_by_a_one_step_game():
    """A one-id game tells an illegal id by the decision's look-up alone: refused, and the
    state unchanged."""
    game = pyspiel.load_game("ludoteca_kuniumi")
    state = game.new_initial_state()
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(IllegalMoveError, match="not a legal action"):
        state.apply_action(illegal)
    assert state.legal_actions() == legal and state.history() == []


def test_kuniumi_planes_are_each_squares_bit():
    """The planes unpacked from the boards' bytes are the boards' bits, square by square."""
    game = get("kuniumi")
    observer = Observer(game)
    for play in random_positions("kuniumi", {}, seed=5, every=4):
        s = play.state
        boards = [s.earth_god, s.sea_god, s.land & ~s.earth_god, s.sea & ~s.sea_god]
        boards.append(((1 << 36) - 1) & ~(s.land | s.sea))
        expected = [[board >> sq & 1 for sq in range(36)] for board in boards]
        pieces = observer.views(observer.encode(s, 0))["pieces"].reshape(5, 36)
        assert (pieces == np.array(expected)).all()


def test_pettingzoos_chance_draw_is_the_generators_choice():
    """The environment draws chance outcomes as ``Generator.choice`` with ``p`` would, from
    the same state of the generator: the same seeds give the same games as before."""
    maker = np.random.default_rng(0)
    for n in (2, 3, 21, 36):
        for _ in range(50):
            probs = list(maker.random(n) + 0.01)
            seed = int(maker.integers(2**31))
            mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
            for _ in range(5):
                p = np.array(probs)
                assert draw(mine, probs) == theirs.choice(n, p=p / p.sum())


@pytest.mark.parametrize("illegal", ["raise", "terminate"])
def test_pettingzoos_order_is_still_enforced(illegal):
    """``last()``, ``step()`` and the agent loop read the environment directly once it
    is reset; before, and out of order, they fail as PettingZoo's wrapper makes them."""
    environment = env("kuniumi", illegal=illegal)
    with pytest.raises(AttributeError, match="before reset"):
        environment.last()
    with pytest.raises(AssertionError, match="before step"):
        environment.step(0)
    with pytest.raises(AssertionError, match="before agent_iter"):
        environment.agent_iter()
    environment.reset(seed=1)
    loop = iter(environment.agent_iter())
    assert next(loop) == "player_0"
    with pytest.raises(AssertionError, match="need to call step"):
        next(loop)  # no step since the last agent
    observation, reward, done, cut, _ = environment.last()
    assert (reward, done, cut) == (0.0, False, False)
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert next(loop) == "player_0"  # the first player places the whole set-up
    assert (
        environment.unwrapped.play.state.position()
        != env("kuniumi").unwrapped.game.new_state().position()
    )


def test_comunes_second_codes_are_those_after_placing_the_first():
    """``second_codes`` (a copy of the slots, no checks) gives what placing the first piece
    and listing the placements gives, for every first piece of positions of random games
    (the opening included), and of the same positions with one piece left to place."""
    game = get("comune")
    rng = random.Random(2)
    ends = 0
    for _ in range(3):
        state = game.new_state()
        while not state.is_over:
            last_piece = state.clone()
            last_piece._s[SUPPLY + last_piece._s[TO_MOVE]] = 1
            for position in (state, last_piece):
                for first in position.placement_codes():
                    probe = position.clone()
                    probe.place(*divmod(first, 3))
                    expected = probe.placement_codes() if probe.mid_turn else None
                    assert position.second_codes(first) == expected
                    ends += expected is None
            state.play(rng.choice(list(state.legal_moves())))
    assert ends > 100  # the first piece ended the turn in many positions


def test_every_adapter_starts_hexagone_from_the_kernels_block_for_its_seed():
    """Hexagone's start blocks come from its compiled kernel (the space's ``new_state``),
    some ten times faster than the engine's generator, in the driver, OpenSpiel and
    PettingZoo alike: one seed, one start in all three."""
    from ludoteca.env.actions import Play
    from ludoteca.games.hexagone.jit import start_state

    game = get("hexagone", players=2)
    assert Play.new(game, seed=4).state.position() == start_state(game, 4).position()
    spiel = pyspiel.load_game("ludoteca_hexagone", {"players": 2, "seed": 5})
    assert spiel.new_initial_state()._play.state.position() == start_state(game, 5).position()
    environment = env("hexagone", players=2)
    environment.reset(seed=6)
    setup_seed = int(np.random.default_rng(6).integers(2**31))  # what reset draws first
    expected = start_state(environment.unwrapped.game, setup_seed)
    assert environment.unwrapped.play.state.cells == expected.cells  # its first roll made
