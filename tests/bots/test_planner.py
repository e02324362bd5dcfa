"""Greedy, the generic evaluation and the solo planner (on toy Coins, solved exactly here)."""

from __future__ import annotations

from functools import cache

import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.evaluation import MARGIN, evaluate, generic, squash
from ludoteca.core import CHANCE, get

COIN_PROBS = {1: 0.5, 2: 0.3, 3: 0.2}


@cache
def _best(rounds: int, tired: bool) -> float:
    """Expected future score of toy Coins before the coin of a round is shown (exact DP)."""
    if rounds == 0:
        return 0.0
    return sum(p * max(_options(rounds, tired, c).values()) for c, p in COIN_PROBS.items())


def _options(rounds: int, tired: bool, coin: int) -> dict[str, float]:
    out = {"skip": _best(rounds - 1, False)}
    if not tired:
        out["take"] = coin + _best(rounds - 1, True)
    return out


def coins_optimal_values(state) -> dict[str, float]:
    """Expected final score of each move at a decision of toy Coins, with best play after."""
    rounds, score, coin, tired = map(int, state.position().split())
    return {m: score + v for m, v in _options(rounds, bool(tired), coin).items()}


def expected_score(bot, state) -> float:
    """The exact expected final score of ``bot``'s play from ``state`` (over all coins)."""
    if state.is_over:
        return state.result.scores[0]
    if state.to_move == CHANCE:
        total = 0.0
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.play(outcome)
            total += p * expected_score(bot, child)
        return total
    child = state.clone()
    child.play(bot.choose(state))
    return expected_score(bot, child)


def test_planner_beats_greedy_in_expectation():
    start = get("toy-coins", rounds=4).new_state()
    planner = expected_score(make_bot("planner:iterations=4000", seed=1), start)
    greedy = expected_score(make_bot("greedy", seed=1), start)
    optimal = _best(4, False)
    assert greedy < planner <= optimal + 1e-9
    assert planner > greedy + 0.1


def test_planner_depth_one_is_greedy():
    state = get("toy-coins").from_position("2 0 1 0")
    assert make_bot("planner:depth=1", seed=1).choose(state) == "take"
    assert make_bot("planner", seed=1).choose(state, iterations=4000) == "skip"


def test_greedy_takes_an_immediate_win():
    for pile in (1, 2, 3):
        state = get("toy-nim", pile=pile).new_state()
        assert make_bot("greedy", seed=pile).choose(state) == pile


def test_greedy_avoids_an_immediate_loss_in_three_player_nim():
    # no win at pile 3; but nothing is lost either way, so any legal move will do
    state = get("toy-nim3", pile=3).new_state()
    assert make_bot("greedy", seed=1).choose(state) in (1, 2)


def test_generic_evaluation():
    nim = get("toy-nim", pile=1).new_state()
    assert generic(nim) == pytest.approx((0.5, 0.5))
    nim.play(1)
    assert generic(nim) == (1.0, 0.0)
    coins = get("toy-coins").from_position("3 7 0 0")
    assert generic(coins) == (7.0,)
    assert evaluate(coins) == (7.0,)


def test_squash_keeps_heuristics_off_proven_values():
    shares = squash([10.0, 0.0])
    assert sum(shares) == pytest.approx(1.0)
    assert min(shares) >= MARGIN and max(shares) <= 1 - MARGIN
    assert shares[0] > shares[1]
    assert squash([0.0, 0.0, 0.0]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_planner_leaves_the_base_move_only_on_evidence():
    from ludoteca.bots.planner import PlannerBot

    pick = PlannerBot._pick
    assert pick([], 3) == 0 and pick([[1.0, 5.0, 0.0]], 3) == 0  # one round is no evidence
    steady = [[1.0, 2.0, 0.0], [3.0, 4.5, 1.0], [0.0, 1.0, 0.0]]
    assert pick(steady, 3) == 1
    noisy = [[0.0, 9.0, 0.0], [9.0, 0.0, 0.0], [5.0, 6.0, 0.0]]  # better mean, within noise
    assert pick(noisy, 3) == 0


def test_hexagone_potential_counts_same_colour_pairs():
    from ludoteca.games.hexagone.ai import pairs as hexagone_pairs

    game = get("hexagone")
    state = game.new_state(seed=3)
    cells = state.cells
    from ludoteca.games.hexagone.geometry import NEIGHBOURS

    pairs = sum(1 for c, k in cells.items() for d in NEIGHBOURS if cells.get(c + d) == k)
    assert hexagone_pairs(state) == pairs / 2  # every pair seen from both ends


def test_planner_beats_greedy_in_hexagone_solo():
    """Over a few seeded solo games the planner's base policy alone (step 1, no rollouts)
    out-captures greedy: the potential tells apart what scores alone cannot."""
    import random

    from ludoteca.core.table import sample_chance

    game = get("hexagone")
    totals = {}
    for spec in ("greedy", "planner:depth=1,seconds=100"):
        total = 0
        for seed in range(6):
            state, dice = game.new_state(seed=seed), random.Random(seed)
            bot = make_bot(spec, seed=seed)
            while not state.is_over:
                move = sample_chance(state, dice) if state.to_move == CHANCE else bot.choose(state)
                state.play(move)
            total += state.result.scores[0]
        totals[spec] = total
    assert totals["planner:depth=1,seconds=100"] > totals["greedy"] + 6, totals
