"""The shared conformance harness on Comune: random games, every check on every position."""

from __future__ import annotations

import random

import pytest

from ludoteca.core import get
from ludoteca.core.conformance import check_playout, check_state
from ludoteca.core.table import random_playout

GAME = get("comune")


@pytest.mark.parametrize("seed", range(24))
def test_check_playout(seed):
    # every 4th position gets the full checks (each lists up to ~10,000 turns)
    final = check_playout(GAME, seed, every=4)
    assert final.is_over


@pytest.mark.parametrize("seed", range(2))
def test_check_playout_every_position(seed):
    assert check_playout(GAME, 1000 + seed).is_over


@pytest.mark.parametrize(
    "text",
    [
        "5/6/7/8/9/8/7/6/5 L 0",
        "5/6/7/8/9/8/7/6/5 D 1",
        "5/6/7/8/9/8/7/6/5 L 2",
        "fr3/3h2/R1f1r1R/FRr2h2/F2R3F1/1f1H1f1R/1r1H1h1/f1hh2/F2HF L 0",
        "fffff/rrrrrr/3f3/hhhhhhh1/9/HHHHHHHH/3F3/RRRRRR/FFFFF L 2",
    ],
)
def test_check_state_on_fixed_positions(text):
    check_state(GAME.from_position(text), random.Random(0))


def test_games_stay_within_max_game_length():
    rng = random.Random(3)
    for _ in range(30):
        s = GAME.new_state()
        assert random_playout(s, rng, max_moves=GAME.max_game_length) <= GAME.max_game_length


def test_slow_games_of_single_pieces_and_passes_fit_max_game_length():
    """Games that place one piece a turn and pass often are the longest; they still end
    within ``max_game_length`` (at most 61 placing turns, a pass before each, two at the end)."""
    rng = random.Random(5)
    for _ in range(10):
        s = GAME.new_state()
        turns = 0
        passed = False
        while not s.is_over:
            placements = s.legal_placements()
            if placements and (passed or rng.random() < 0.6):
                s.place(*rng.choice(placements))
                if s.mid_turn:
                    s.end_turn()
                passed = False
            else:
                s.play("pass")
                passed = True
            turns += 1
        assert 61 <= turns <= GAME.max_game_length == 124
