"""MCTS with a game's exact solver: nodes it adds are proven at once, and a position proven
lost or drawn is played by the game's own pick among the moves that keep its value."""

from __future__ import annotations

from ludoteca.bots.base import Budget
from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.core.ai import SearchKnowledge
from tests.bots.helpers import nim_winning_takes


def nim_exact(state):
    """Nim's value by rule: the mover wins unless the pile is a multiple of four."""
    if state.is_over:
        return None
    mover_wins = state.pile % 4 != 0
    shares = [0.0, 0.0]
    shares[state.to_move] = 1.0 if mover_wins else 0.0
    shares[1 - state.to_move] = 1.0 - shares[state.to_move]
    return tuple(shares)


def with_knowledge(monkeypatch, game, knowledge):
    monkeypatch.setattr(type(game), "search_knowledge", lambda self: knowledge)


def test_exact_values_prove_the_root_once_every_move_is_added(monkeypatch):
    game = get("toy-nim", pile=14)
    with_knowledge(monkeypatch, game, SearchKnowledge(exact_value=nim_exact))
    bot = MCTSBot(seed=1)
    root = bot.search(game.new_state(), Budget(iterations=1000))
    assert root.proven == (1.0, 0.0)
    assert bot.last_iterations <= 3  # one simulation a move: each child is proven when added
    assert root.proof.move in nim_winning_takes(14)


def test_exact_values_can_be_switched_off(monkeypatch):
    game = get("toy-nim", pile=14)
    calls = []
    with_knowledge(
        monkeypatch, game, SearchKnowledge(exact_value=lambda s: calls.append(s) or None)
    )
    MCTSBot(seed=1, exact=0).search(game.new_state(), Budget(iterations=50))
    assert calls == []
    MCTSBot(seed=1).search(game.new_state(), Budget(iterations=50))
    assert calls  # asked, answered "not known": the search goes on as usual


def test_a_lost_position_is_played_by_the_games_pick(monkeypatch):
    game = get("toy-nim", pile=8)  # lost for the mover whatever it takes
    offered = []

    def pick(state, moves, seconds):
        offered.append(sorted(moves))
        assert seconds is None  # a budget of simulations: no time to keep to
        return max(moves)

    with_knowledge(monkeypatch, game, SearchKnowledge(exact_value=nim_exact, proven_choice=pick))
    move = MCTSBot(seed=3, iterations=1000).choose(game.new_state())
    assert offered == [[1, 2, 3]]
    assert move == 3


def test_a_won_position_is_won_without_asking(monkeypatch):
    game = get("toy-nim", pile=9)
    offered = []
    knowledge = SearchKnowledge(
        exact_value=nim_exact, proven_choice=lambda s, m, t: offered.append(m) or m[0]
    )
    with_knowledge(monkeypatch, game, knowledge)
    move = MCTSBot(seed=3, iterations=1000).choose(game.new_state())
    assert move in nim_winning_takes(9)
    assert offered == []


def test_a_timed_search_tells_the_games_pick_the_time_left(monkeypatch):
    """The pick comes after the search, inside the move's time: it is told what is left."""
    game = get("toy-nim", pile=8)
    told = []

    def pick(state, moves, seconds):
        told.append(seconds)
        return max(moves)

    with_knowledge(monkeypatch, game, SearchKnowledge(exact_value=nim_exact, proven_choice=pick))
    MCTSBot(seed=3, seconds=0.5).choose(game.new_state())
    assert len(told) == 1 and told[0] is not None and 0.0 < told[0] < 0.5
