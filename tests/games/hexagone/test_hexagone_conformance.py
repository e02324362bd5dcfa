"""The conformance harness with 1 to 4 players, and the fast random-playout paths."""

from __future__ import annotations

import random

import pytest
from hexagone_support import line, load, position

import ludoteca.core as core
from ludoteca.core.conformance import check_playout
from ludoteca.games.hexagone.ai import playout
from ludoteca.games.hexagone.kernel import random_move


@pytest.mark.parametrize(
    ("players", "seed"),
    [(1, s) for s in range(16)]
    + [(2, s) for s in range(10)]
    + [(3, s) for s in range(6)]
    + [(4, s) for s in range(6)],
)
def test_conformance_playouts(players, seed):
    state = check_playout(core.get("hexagone", players=players), seed, every=2)
    assert state.is_over and state.result.num_players == players


@pytest.mark.parametrize("seed", range(2))
def test_conformance_with_gaps(seed):
    check_playout(core.get("hexagone", players=2, gaps=True), seed, every=3)


def test_random_games_end_for_every_reason_and_within_the_bound():
    game = core.get("hexagone", players=2)
    reasons = set()
    rng = random.Random(4)
    for seed in range(60):
        state = game.new_state(seed=seed)
        count = 0
        while not state.is_over:
            state.apply(random_move(state, rng))
            count += 1
        assert count <= game.max_game_length
        reasons.add(state.result.reason)
    assert "the block has 10 or fewer pieces" in reasons
    assert "40 turns in a row without a capture" in reasons


def test_the_random_policy_only_draws_legal_moves():
    rng = random.Random(2)
    for seed in range(6):
        state = core.get("hexagone", players=1 + seed % 4).new_state(seed=seed)
        while not state.is_over:
            move = random_move(state, rng)
            if state.to_move == core.CHANCE:
                assert move in [m for m, _ in state.chance_outcomes()]
            else:
                assert move in state.legal_moves()
            state.play(move)


def test_the_random_policy_is_uniform_over_legal_placements():
    # pool R G next to O R O R O R O R Y: four legal placements among sixteen allowed ones
    state = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1))
    legal = state.legal_moves()
    rng = random.Random(1)
    counts = {m: 0 for m in legal}
    for _ in range(2000):
        counts[random_move(state, rng)] += 1
    assert set(counts) == set(legal)
    assert all(400 <= c <= 600 for c in counts.values()), counts


def test_rolls_drawn_by_the_dice_follow_the_chance_outcomes():
    state = load(position(line("YGBPWYGBPWYG")))  # no R, no O
    probabilities = dict(state.chance_outcomes())
    rng = random.Random(3)
    n = 32000
    seen = {m: 0 for m in probabilities}
    for _ in range(n):
        seen[random_move(state, rng)] += 1
    for m, p in probabilities.items():
        assert abs(seen[m] / n - p) < 0.01, (m, seen[m] / n, p)


def test_playout_kernel_and_fast_playout():
    for players in (1, 2):
        game = core.get("hexagone", players=players)
        games, moves = game.playout_kernel()(1, 0.05)
        assert games >= 1 and moves > games
        state = game.new_state(seed=3)
        before = state.position()
        payoffs = playout(state, random.Random(1))
        assert len(payoffs) == players and abs(sum(payoffs) - 1) < 1e-9
        assert state.position() == before


@pytest.mark.parametrize("dice", ["RG", "RO", "BB"])
def test_the_random_policy_is_uniform_over_legal_swaps(dice):
    cells = {**line("ROYGBPWROYGBR"), **line("GRBOYWP", r=1, q0=-1)}
    state = load(position(cells, phase="swap", dice=dice))
    legal = state.legal_moves()
    rng = random.Random(5)
    draws = 600 * len(legal)
    counts = {m: 0 for m in legal}
    for _ in range(draws):
        counts[random_move(state, rng)] += 1
    assert set(counts) == set(legal)
    # each swap expects 600 draws; 4.5 standard deviations either side
    assert all(490 <= c <= 710 for c in counts.values()), sorted(counts.values())


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_fast_path_agrees_with_play_through_the_protocol(players):
    """Moves applied unchecked (the playout path) and played through notation with every
    check give the same positions, move by move."""
    rng = random.Random(players)
    for seed in range(3):
        fast = core.get("hexagone", players=players).new_state(seed=seed)
        slow = fast.clone()
        while not fast.is_over:
            move = random_move(fast, rng)
            fast.apply(move)
            slow.play(slow.move_to_str(move))
            assert fast.position() == slow.position()
        assert fast.result == slow.result
