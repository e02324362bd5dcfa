"""MCTS: solver, chance by probability, n players, solo scores, tree reuse, fast playouts."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.base import Budget, Deadline
from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from tests.bots.helpers import nim_winning_takes, playing_out_by_its_states
from tests.bots.test_planner import coins_optimal_values
from tests.support.toygames.small import NimState


@pytest.mark.parametrize("pile", [p for p in range(1, 15) if p % 4])
def test_finds_the_nim_win(pile):
    state = get("toy-nim", pile=pile).new_state()
    move = make_bot("mcts:iterations=3000", seed=pile).choose(state)
    assert move in nim_winning_takes(pile)


@pytest.mark.parametrize("pile", [1, 2, 3, 5, 6, 7])
def test_solver_proves_small_nim(pile):
    bot = MCTSBot(seed=1)
    root = bot.search(get("toy-nim", pile=pile).new_state(), Budget(iterations=5000))
    assert root.proven == (1.0, 0.0)
    assert root.proof.move in nim_winning_takes(pile)


def test_solver_proves_a_loss():
    bot = MCTSBot(seed=1)
    root = bot.search(get("toy-nim", pile=4).new_state(), Budget(iterations=5000))
    assert root.proven == (0.0, 1.0)


def test_proven_win_is_played_at_once():
    bot = MCTSBot(seed=1)
    bot.choose(get("toy-nim", pile=3).new_state(), iterations=100000)
    assert bot.last_iterations < 100


def test_chance_values_are_weighted_by_probability():
    bot = MCTSBot(seed=2)
    root = bot.search(get("toy-gamble").new_state(), Budget(iterations=200))
    assert root.proven == pytest.approx((0.7, 0.3))
    assert root.proof.move == "risky"
    values = {child.move: child.proven for child in root.children}
    assert values["safe"] == pytest.approx((0.3, 0.7))


def test_chance_outcomes_are_sampled_by_probability():
    state = get("toy-coins").from_position("60 0 1 1")  # tired: skipping is the only move
    bot = MCTSBot(seed=3)
    root = bot.search(state, Budget(iterations=3000))
    skip = next(ch for ch in root.children if ch.move == "skip")
    counts = Counter({ch.move: ch.visits for ch in skip.children})
    total = sum(counts.values())
    for outcome, p in (("coin1", 0.5), ("coin2", 0.3), ("coin3", 0.2)):
        assert counts[outcome] / total == pytest.approx(p, abs=0.03)


def test_three_players_each_take_their_own_win():
    for pile in (1, 2):
        state = get("toy-nim3", pile=pile).new_state()
        assert make_bot("mcts:iterations=200", seed=1).choose(state) == pile


def test_three_player_proven_value_names_the_winner():
    # at pile 3 the mover (player 0) leaves 1 or 2, and the next player takes the rest
    root = MCTSBot(seed=1).search(get("toy-nim3", pile=3).new_state(), Budget(iterations=500))
    assert root.proven == (0.0, 1.0, 0.0)


def test_three_player_mover_maximises_its_own_payoff():
    # player 1 to move at pile 2 wins by taking both; taking one hands the win to player 2
    state = get("toy-nim3").from_position("2 1 -")
    bot = MCTSBot(seed=1)
    assert bot.choose(state, iterations=50) == 2


@pytest.mark.parametrize(
    "position", ["2 0 1 0", "4 0 1 0", "3 0 1 0", "5 2 1 0", "6 0 3 0", "2 4 2 0"]
)
def test_solo_maximises_expected_score(position):
    state = get("toy-coins").from_position(position)
    values = coins_optimal_values(state)
    best = max(values, key=values.get)
    if abs(values["take"] - values["skip"]) < 0.2:
        pytest.fail(f"test position {position} does not separate the moves: {values}")
    assert make_bot("mcts:iterations=4000", seed=1).choose(state) == best


def test_tree_is_reused_between_moves():
    state = get("toy-nim", pile=60).new_state()
    bot = make_bot("mcts:iterations=2000", seed=1)
    mine = bot.choose(state)
    state.play(mine)
    reply = max(bot._root.children, key=lambda ch: ch.visits).children
    theirs = max(reply, key=lambda ch: ch.visits).move if reply else 1
    state.play(theirs)
    bot.choose(state)
    assert bot.last_reused > 0
    fresh = make_bot("mcts:iterations=2000,reuse=0", seed=1)
    fresh.choose(state)
    assert fresh.last_reused == 0


def test_tree_reuse_ignores_unrelated_positions():
    bot = make_bot("mcts:iterations=500", seed=1)
    bot.choose(get("toy-nim", pile=60).new_state())
    bot.choose(get("toy-nim", pile=30).new_state())
    assert bot.last_reused == 0
    bot.choose(get("toy-nim3", pile=30).new_state())  # another game entirely
    assert bot.last_reused == 0


def test_reused_tree_gives_a_legal_move_after_undo():
    state = get("toy-nim", pile=40).new_state()
    bot = make_bot("mcts:iterations=300", seed=1)
    state.play(bot.choose(state))
    state.undo()
    assert bot.choose(state) in state.legal_moves()


class CountingNimState(NimState):
    calls = 0

    def playout(self, rng):
        CountingNimState.calls += 1
        return (0.5, 0.5)


def test_playouts_go_through_the_games_playout():
    game = get("toy-nim", pile=200)
    state = CountingNimState(playing_out_by_its_states(game), 200)
    bot = MCTSBot(seed=1)
    bot.choose(state, iterations=100)
    assert CountingNimState.calls == 100


class StallingNimState(NimState):
    """Nim with instant playouts, except the next ``stalls`` ones, which the machine delays."""

    stalls: list[float] = []
    calls = 0

    def playout(self, rng):
        StallingNimState.calls += 1
        if StallingNimState.stalls:
            time.sleep(StallingNimState.stalls.pop())
        return (0.5, 0.5)


def _fast_share(state, seconds: float) -> tuple[float, int]:
    """Share of a fresh bot's simulations played out by the game's playout, and how many."""
    StallingNimState.calls = 0
    bot = MCTSBot(seed=1)
    bot.choose(state, seconds=seconds)
    assert bot.last_fast == StallingNimState.calls
    return StallingNimState.calls / bot.last_iterations, bot.last_iterations


def test_delayed_playouts_do_not_slow_later_searches():
    """Two playouts delayed past 5% of the move budget, then fast ones again.

    The search used to remember the slowest playout for the whole process and switch every
    later search to move-by-move playouts, which never ran a fast playout to lower it again.
    """
    state = StallingNimState(playing_out_by_its_states(get("toy-nim")), 400)
    assert _fast_share(state, 0.2)[0] > 0.8
    StallingNimState.stalls = [0.015, 0.015]  # past the 10 ms a 0.2 s move may overrun
    share, simulations = _fast_share(state, 0.2)
    assert not StallingNimState.stalls
    assert share > 0.8 and simulations > 50  # the same search went back to fast playouts
    for _ in range(3):  # and every later one (a new bot, as in the arena's next game) too
        share, simulations = _fast_share(state, 0.2)
        assert share > 0.8 and simulations > 50


# --- moves in parts -------------------------------------------------------------------------
def _pick_value(state) -> float:
    """Exact minimax value of toy Pick for player 0 (1 win, 0.5 draw, 0 loss)."""
    if state.is_over:
        return state.result.payoffs()[0]
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        values.append(_pick_value(child))
    return max(values) if state.to_move == 0 else min(values)


def test_moves_in_parts_grow_a_trie():
    state = get("toy-pick", items=10).new_state()
    root = MCTSBot(seed=1).search(state, Budget(iterations=400))
    assert root.children and all(child.is_step for child in root.children)
    second = [g for child in root.children for g in child.children]
    assert second and all(not g.is_step for g in second)
    assert all(g.move in state.legal_moves() for g in second)
    flat = MCTSBot(seed=1, step=0).search(state, Budget(iterations=400))
    assert all(not child.is_step for child in flat.children)


def test_solver_proves_through_parts():
    state = get("toy-pick").from_position("1,2,4,5 0 0 0")
    bot = MCTSBot(seed=1)
    root = bot.search(state, Budget(iterations=20000))
    assert root.proven is not None
    assert root.proven[0] == _pick_value(state)
    move = bot.choose(state, iterations=20000)
    child = state.clone()
    child.play(move)
    assert _pick_value(child) == _pick_value(state)


def test_parts_find_the_best_pair():
    # the two largest items are worth more than anything else the mover can take
    state = get("toy-pick").from_position("0,1,2,3,4,5,6,7,8,30,40 0 0 0")
    assert make_bot("mcts:iterations=3000", seed=1).choose(state) == (30, 40)


def test_tree_reuse_across_parts():
    state = get("toy-pick", items=12).new_state()
    # a generous time budget, so the iterations decide even on a busy machine
    bot = make_bot("mcts:iterations=1500,seconds=60", seed=2)
    mine = bot.choose(state)
    state.play(mine)
    state.play(state.legal_moves()[0])
    bot.choose(state)
    assert bot.last_reused > 0


def test_cutoff_playouts_stop_early_and_use_the_evaluation():
    game = get("toy-nim", pile=200)
    state = CountingNimState(playing_out_by_its_states(game), 200)
    CountingNimState.calls = 0
    bot = MCTSBot(seed=1, cutoff=3)
    assert bot.choose(state, iterations=100) in (1, 2, 3)
    assert CountingNimState.calls == 0  # never a whole playout
    # near the end a cutoff playout still sees the win: three stones are taken at once
    assert MCTSBot(seed=1, cutoff=1).choose(get("toy-nim", pile=3).new_state(), iterations=200) == 3


def test_games_can_have_a_default_cutoff(monkeypatch):
    from ludoteca.core.ai import SearchKnowledge

    game = get("toy-nim", pile=200)
    monkeypatch.setattr(type(game), "search_knowledge", lambda self: SearchKnowledge(cutoff=4))
    state = CountingNimState(playing_out_by_its_states(game), 200)
    CountingNimState.calls = 0
    MCTSBot(seed=1).choose(state, iterations=50)
    assert CountingNimState.calls == 0
    MCTSBot(seed=1, cutoff=0).choose(state, iterations=50)  # whole playouts when asked
    assert CountingNimState.calls == 50


def test_a_solo_game_can_have_its_own_default_cutoff():
    from ludoteca.bots.mcts import default_cutoff
    from ludoteca.games.hexagone.ai import CUTOFF, SOLO_CUTOFF

    solo = get("hexagone", players=1).new_state(seed=1)
    duel = get("hexagone", players=2).new_state(seed=1)
    assert default_cutoff(solo) == SOLO_CUTOFF
    assert default_cutoff(duel) == CUTOFF
    assert SOLO_CUTOFF != CUTOFF
    assert default_cutoff(get("toy-nim", pile=5).new_state()) == 0


def test_tree_reuse_looks_below_the_move_played():
    """The next position is looked for below the bot's own move, not among the others."""
    game = get("toy-nim", pile=200)
    game.takes = 10  # ten moves a position: the old root's others would be ten probes
    assert get("toy-nim", pile=200).takes == 3  # a fresh game object, changed alone
    state = game.new_state()
    bot = MCTSBot(seed=1, iterations=3000)
    move = bot.choose(state)
    chosen = bot._chosen
    assert chosen is not None and chosen.move == move
    state.play(move)
    reply = max(chosen.children, key=lambda ch: ch.visits)
    state.play(reply.move)
    clones = 0
    real_clone = NimState.clone

    def counting_clone(self):
        nonlocal clones
        clones += 1
        return real_clone(self)

    NimState.clone = counting_clone
    try:
        found = bot._reuse(state, Deadline(None))
    finally:
        NimState.clone = real_clone
    assert found is reply
    assert clones <= 2  # the position after its move, then the reply


def test_an_iteration_budget_alone_has_no_time_limit():
    """The default time limit applies only when no budget is given at all: filled in beside
    an iteration budget, it cut a search short whenever one step ran slow (a busy machine,
    a kernel compiling), and the same seed played different moves."""
    from ludoteca.bots.base import Budget
    from ludoteca.bots.registry import make_bot

    bot = make_bot("mcts:iterations=20", seed=1)
    assert bot._budget(None, None, None) == Budget(iterations=20)
    assert make_bot("mcts", seed=1)._budget(None, None, None) == bot.default_budget
    assert bot._budget(0.5, None, None) == Budget(seconds=0.5, iterations=20)


def test_a_reused_root_the_exact_solver_valued_is_still_searched():
    """Kuniumi's solver values the nodes a tree adds near the end; such a leaf of the last
    tree, reused as the root, is known won but has no winning child yet. It used to stop the
    search before it began and a random move was played: here one in three loses at once."""
    from ludoteca.bots.mcts import Node
    from ludoteca.games.kuniumi import ai

    state = get("kuniumi").from_position("s3ll/E1sS1l/s1ss1s/2s3/sl2sl/l1slll play land sea")
    me = state.to_move
    assert ai.exact_value(state)[me] == 1.0  # a win for the side to move
    for seed in range(6):
        bot = MCTSBot(seed=seed)
        leaf = Node(None, state, state.num_players, bot)
        leaf.proven, leaf.visits = ai.exact_value(state), 1
        bot._root, bot._root_state = leaf, state.clone()
        move = bot.choose(state, iterations=200)
        assert bot.last_reused == 1 and bot.last_iterations > 0
        after = state.clone()
        after.play(move)
        assert not after.is_over, state.move_to_str(move)
        assert ai.solved(after) == -1, state.move_to_str(move)  # the opponent is lost
