"""Random playouts through the conformance harness (deal included), scoring against the
reference, and the fast kernel against the engine."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from comino_reference import legal as reference_legal
from comino_reference import placement_score

from ludoteca.core import CHANCE, get
from ludoteca.core.conformance import check_playout, check_state
from ludoteca.core.table import resolve_chance
from ludoteca.games.comino import Place
from ludoteca.games.comino.ai import playout
from ludoteca.games.comino.kernel import playout_from_state, random_game

GAME = get("comino")


@pytest.mark.parametrize("seed", range(100))
def test_conformance_playouts_including_the_deal(seed):
    final = check_playout(GAME, seed)
    assert final.is_over
    assert len(final.history) == 43


def test_conformance_on_a_forced_removal_position():
    s = GAME.from_position(
        "BBBY@0,0 BRBR,BRRR,BRYR,RRRY,RRYY,RYRY,YYYY BBBR,BBRR,BBRY,BBYR,BBYY,BRBY,RRRR 0 0 1"
    )
    check_state(s, random.Random(1), {"YYYY@0,1", "remove BBRR"})


@pytest.mark.parametrize("seed", range(12))
def test_every_placement_scores_what_the_reference_says(seed):
    rng = random.Random(seed)
    s = GAME.new_state(seed=seed)
    resolve_chance(s, rng)
    while not s.is_over:
        move = rng.choice(s.legal_moves())
        player = s.to_move
        before = s.score[player]
        expected = 0
        if isinstance(move, Place):
            expected = placement_score(s.board, move.x, move.y, move.tile)
        s.play(move)
        assert s.score[player] - before == expected, (s.position(), str(move))


@pytest.mark.parametrize("seed", range(30))
def test_kernel_games_replay_through_the_engine(seed):
    log: list[str] = []
    scores = random_game(random.Random(seed), log)
    assert len(log) == 43
    s = GAME.new_state()
    for text in log:
        s.play(text)  # raises if the kernel played anything illegal
    assert s.is_over
    assert tuple(s.score) == scores


def test_kernel_from_a_state_agrees_and_leaves_it_unchanged():
    s = GAME.new_state(seed=3)
    resolve_chance(s, random.Random(3))
    for _ in range(6):
        s.play(random.Random(len(s.history)).choice(s.legal_moves()))
    before = s.position()
    for seed in range(10):
        log: list[str] = []
        scores = playout_from_state(s, random.Random(seed), log)
        assert s.position() == before
        probe = s.clone()
        for text in log:
            probe.play(text)
        assert probe.is_over and tuple(probe.score) == scores


def test_kernel_from_a_mid_deal_state_finishes_the_deal():
    s = GAME.new_state()
    for t in ("deal BRYY", "deal BBBR", "deal RYRY"):
        s.play(t)
    s1, s2 = playout_from_state(s, random.Random(2))
    assert s1 >= 0 and s2 >= 0
    assert s.draws == 3


def test_kernel_chooses_uniformly_among_the_engines_legal_moves():
    s = GAME.from_position(
        "BBRR@0,0;BBBR@1,0;YRBB@1,1 BBBY,BRYY,BYBY,RYRY,YYYY BRRR,BYYR,RRRR,RRYY,RYYY 4 6 1"
    )
    legal = sorted(str(m) for m in s.legal_moves())
    assert legal == reference_legal(s.board, s.hands[0])
    rng = random.Random(9)
    first = Counter()
    runs = 150 * len(legal)
    for _ in range(runs):
        log: list[str] = []
        playout_from_state(s, rng, log)
        first[log[0]] += 1
    assert sorted(first) == legal
    expected = runs / len(legal)
    # each count is binomial(runs, 1/n): 5 standard deviations of slack
    sd = (runs * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(c - expected) < 5 * sd for c in first.values())


def test_fast_playout_gives_payoffs_and_keeps_the_state():
    s = GAME.new_state(seed=1)
    resolve_chance(s, random.Random(1))
    before = s.position()
    payoffs = playout(s, random.Random(5))
    assert sum(payoffs) == pytest.approx(1.0)
    assert payoffs in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    assert s.position() == before


def test_playout_kernel_reports_games_and_moves():
    kernel = GAME.playout_kernel()
    games, moves = kernel(1, 0.05)
    assert games >= 1 and moves == 43 * games


def test_the_deal_of_a_random_game_draws_every_tile():
    s = GAME.new_state(seed=8)
    assert s.to_move == CHANCE
    resolve_chance(s, random.Random(8))
    dealt = set(s.board.values()) | s.hands[0] | s.hands[1]
    assert len(dealt) == 23
