"""The bot protocol for every bot: legal moves, state untouched, seeded determinism, budgets."""

from __future__ import annotations

import random
import time

import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.base import BotError, Budget
from ludoteca.core import CHANCE, get
from ludoteca.core.errors import MalformedError
from tests.bots.helpers import playing_out_by_its_states, random_positions
from tests.support.toygames.small import NimState

# (spec, games it plays) with budgets small enough for a fast suite
BOTS = {
    "random": ["toy-nim", "toy-nim3", "toy-gamble", "toy-pick", "toy-coins"],
    "greedy": ["toy-nim", "toy-nim3", "toy-gamble", "toy-pick", "toy-coins"],
    "greedy:noise=0.5": ["toy-nim", "toy-nim3", "toy-gamble", "toy-pick", "toy-coins"],
    "mcts:iterations=60": ["toy-nim", "toy-nim3", "toy-gamble", "toy-pick", "toy-coins"],
    "mcts:iterations=60,step=0": ["toy-pick"],
    "alphabeta:depth=3": ["toy-nim", "toy-gamble"],
    "alphabeta:depth=2": ["toy-pick"],
    "planner:iterations=200": ["toy-coins"],
    "easy": ["toy-nim", "toy-nim3", "toy-gamble", "toy-coins"],
    "medium:iterations=60": ["toy-nim", "toy-nim3", "toy-gamble", "toy-coins"],
}
OPTIONS = {"toy-nim": {"pile": 23}, "toy-nim3": {"pile": 17}}
CASES = [(spec, g) for spec, games in BOTS.items() for g in games]


def _game(game_id):
    return get(game_id, **OPTIONS.get(game_id, {}))


@pytest.mark.parametrize(("spec", "game_id"), CASES)
def test_legal_and_state_untouched(spec, game_id):
    bot = make_bot(spec, seed=3)
    for state in random_positions(_game(game_id), 120, seed=11):
        before = state.position()
        history = list(state.history)
        move = bot.choose(state)
        assert move in state.legal_moves(), f"{spec} chose illegal {move!r} at {before}"
        assert state.position() == before and state.history == history


@pytest.mark.parametrize(("spec", "game_id"), CASES)
def test_deterministic_under_seed(spec, game_id):
    positions = random_positions(_game(game_id), 25, seed=5)
    first = [make_bot(spec, seed=9).choose(s) for s in positions]
    again = [make_bot(spec, seed=9).choose(s) for s in positions]
    assert first == again
    # the same bot object over a sequence of moves (tree reuse included) repeats too
    a, b = make_bot(spec, seed=4), make_bot(spec, seed=4)
    assert [a.choose(s) for s in positions] == [b.choose(s) for s in positions]


def test_different_seeds_can_differ():
    state = get("toy-nim", pile=40).new_state()
    moves = {make_bot("random", seed=s).choose(state) for s in range(30)}
    assert len(moves) == 3


class SlowNimState(NimState):
    """Nim whose playouts take a sizeable slice of the budget (like a slow game's)."""

    def playout(self, rng):
        time.sleep(0.006)
        return (0.5, 0.5)


@pytest.mark.parametrize(
    "spec", ["mcts", "alphabeta", "greedy", "easy", "medium", "hard", "master"]
)
@pytest.mark.parametrize("seconds", [0.05, 0.2])
def test_time_budget_never_overrun_by_5_percent(spec, seconds):
    """Measured around the call; the best of three tries excludes the scheduler's hiccups."""
    state = get("toy-nim", pile=400).new_state()
    best = float("inf")
    for attempt in range(3):
        bot = make_bot(spec, seed=attempt)
        start = time.perf_counter()
        bot.choose(state, seconds=seconds)
        best = min(best, time.perf_counter() - start)
    assert best <= seconds * 1.05


def test_mcts_time_budget_with_slow_playouts():
    state = SlowNimState(playing_out_by_its_states(get("toy-nim")), 400)
    best = float("inf")
    for attempt in range(3):
        bot = make_bot("mcts", seed=attempt)
        start = time.perf_counter()
        bot.choose(state, seconds=0.1)
        best = min(best, time.perf_counter() - start)
        assert bot.last_iterations >= 5
    assert best <= 0.105


def test_planner_time_budget():
    state = get("toy-coins", rounds=400).new_state()
    state.play("coin2")
    best = float("inf")
    for attempt in range(3):
        bot = make_bot("planner", seed=attempt)
        start = time.perf_counter()
        bot.choose(state, seconds=0.05)
        best = min(best, time.perf_counter() - start)
    assert best <= 0.05 * 1.05


def test_time_budget_is_used_not_ignored():
    """A time budget is a budget, not a cap on doing nothing: the search uses most of it."""
    state = get("toy-nim", pile=400).new_state()
    bot = make_bot("mcts", seed=1)
    start = time.perf_counter()
    bot.choose(state, seconds=0.1)
    assert time.perf_counter() - start >= 0.08


def test_iteration_budget_counts_simulations():
    state = get("toy-nim", pile=400).new_state()
    bot = make_bot("mcts:iterations=37", seed=1)
    bot.choose(state)
    assert bot.last_iterations == 37
    bot.choose(state, iterations=5)  # the call's budget overrides the spec's
    assert bot.last_iterations == 5


def test_alphabeta_depth_budget():
    state = get("toy-nim", pile=400).new_state()
    bot = make_bot("alphabeta:depth=4", seed=1)
    bot.choose(state)
    assert bot.last_depth == 4
    bot.choose(state, depth=2)
    assert bot.last_depth == 2


def test_alphabeta_node_budget():
    state = get("toy-nim", pile=400).new_state()
    bot = make_bot("alphabeta:iterations=50", seed=1)
    bot.choose(state)
    assert bot.last_nodes <= 51


def test_mcts_depth_budget_limits_the_tree():
    state = get("toy-nim", pile=400).new_state()
    bot = make_bot("mcts:iterations=300,depth=1", seed=1)
    root = bot.search(state, Budget(iterations=300, depth=1))
    assert root.children and all(not child.children for child in root.children)
    assert bot.choose(state) in state.legal_moves()


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts", "alphabeta", "planner", "hard"])
def test_no_move_at_the_end_or_at_chance(spec):
    over = get("toy-nim", pile=1).new_state()
    over.play(1)
    with pytest.raises(BotError):
        make_bot(spec).choose(over)
    chance = get("toy-gamble").new_state()
    chance.play("risky")
    with pytest.raises(BotError):
        make_bot(spec).choose(chance)


def test_bots_refuse_games_they_do_not_play():
    with pytest.raises(BotError):
        make_bot("alphabeta").choose(get("toy-nim3", pile=5).new_state())
    with pytest.raises(BotError):
        make_bot("planner").choose(get("toy-nim", pile=5).new_state())


@pytest.mark.parametrize(
    "spec",
    [
        "nosuchbot",
        "mcts:seconds",
        "mcts:seconds=-1",
        "mcts:seconds=abc",
        "mcts:colour=red",
        "greedy:iterations=0",
        "greedy:noise=1.5",
        "greedy:noise=-0.1",
        "greedy:noise=some",
        "mcts:max_nodes=0",
        "mcts:best_of=0",
        "mcts:best_of=x",
        "mcts:cutoff=x",
        "mcts:c=x",
        "mcts:reuse=x",
        "mcts:step=2",
        ":",
        "hard:depth=0",
    ],
)
def test_bad_specs_are_malformed(spec):
    with pytest.raises(MalformedError):
        make_bot(spec)


def test_specs_with_budgets_and_levels():
    bot = make_bot(" MCTS : seconds = 0.5 , iterations=10 ", seed=1)
    assert bot.budget == Budget(seconds=0.5, iterations=10)
    assert make_bot("hard").name == "hard"
    assert make_bot("master:seconds=0.1").budget.seconds == 0.1


class VerySlowNimState(NimState):
    """Playouts of 40 ms: a fifth of a 0.2 s move, far beyond the 5% a move may overrun."""

    def playout(self, rng):
        time.sleep(0.04)
        return (0.5, 0.5)


def test_mcts_stops_playouts_at_the_deadline_in_slow_games():
    """Whole playouts while one fits, then playouts that give up at the deadline."""
    state = VerySlowNimState(playing_out_by_its_states(get("toy-nim")), 400)
    bot = make_bot("mcts", seed=1)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        bot.choose(state, seconds=0.2)
        best = min(best, time.perf_counter() - start)
        # abandoned simulations leave no trace: every visit is a finished simulation
        root = bot._root
        assert root.visits == bot.last_iterations + bot.last_reused
        assert root.visits == sum(child.visits for child in root.children)
        assert 1 <= bot.last_fast < bot.last_iterations
    assert best <= 0.2 * 1.05
    assert best >= 0.2 * 0.8  # the end of the budget is used, not given away


def test_search_pauses_the_collector_and_restores_it():
    import gc

    state = get("toy-nim", pile=50).new_state()
    assert gc.isenabled()
    make_bot("mcts", seed=1).choose(state, iterations=50)
    assert gc.isenabled()
    gc.disable()
    try:
        make_bot("mcts", seed=1).choose(state, iterations=50)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_random_move_helpers():
    from ludoteca.bots.policies import random_move_for

    state = get("toy-nim", pile=5).new_state()
    draw = random_move_for(state)
    assert {draw(state, random.Random(s)) for s in range(40)} == {1, 2, 3}


def test_simulation_rate_reports_a_rate():
    from ludoteca.bots.mcts import simulation_rate

    rate = simulation_rate(get("toy-nim", pile=300), seconds=0.05)
    assert rate["mcts_simulations"] > 0
    assert rate["mcts_simulations_per_s"] == pytest.approx(
        rate["mcts_simulations"] / rate["mcts_seconds"], rel=0.01
    )


@pytest.mark.parametrize("name", ["hexagone", "kuniumi", "toy-nim"])
def test_unchecked_play_plays_the_same_game(name):
    """Playouts on throw-away clones may skip the legality check: every move they draw is
    legal, and leads where the checked ``play`` of the same move leads."""
    from ludoteca.bots.policies import random_move_for, unchecked_play_for

    game = get(name, players=2) if name == "hexagone" else get(name)
    for seed in range(3):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        draw, play = random_move_for(state), unchecked_play_for(state)
        while not state.is_over:
            move = draw(state, rng)
            checked = state.clone()
            if state.to_move != CHANCE:
                assert move in state.legal_moves()
            checked.play(move)
            play(move)
            assert state.position() == checked.position()
        assert state.result == checked.result
