"""Alpha-beta with iterative deepening: exact play in Nim, expectimax over chance."""

from __future__ import annotations

import pytest

from ludoteca.bots.alphabeta import PROVEN, WIN, AlphaBetaBot
from ludoteca.core import get
from tests.bots.helpers import nim_winning_takes


@pytest.mark.parametrize("pile", range(1, 21))
def test_exact_nim(pile):
    state = get("toy-nim", pile=pile).new_state()
    bot = AlphaBetaBot(seed=pile)
    move = bot.choose(state, depth=pile, seconds=10)
    winning = nim_winning_takes(pile)
    if winning:
        assert move in winning
        assert bot.last_value >= PROVEN
    else:
        assert bot.last_value <= -PROVEN


def test_stops_deepening_once_proven():
    bot = AlphaBetaBot(seed=1)
    bot.choose(get("toy-nim", pile=5).new_state(), depth=50)
    assert bot.last_depth < 50


def test_prefers_the_fastest_win():
    # from 3 the win is taking all three now; any other move lets the opponent take the rest
    bot = AlphaBetaBot(seed=1)
    assert bot.choose(get("toy-nim", pile=3).new_state(), depth=6) == 3
    assert bot.last_value == pytest.approx(WIN - 1)


def test_expectimax_over_chance():
    bot = AlphaBetaBot(seed=1)
    assert bot.choose(get("toy-gamble").new_state(), depth=2) == "risky"
    assert bot.last_value == pytest.approx((0.7 - 0.3) * (WIN - 2))


def test_deterministic_node_count():
    a, b = AlphaBetaBot(seed=7), AlphaBetaBot(seed=7)
    state = get("toy-nim", pile=50).new_state()
    assert a.choose(state, depth=6) == b.choose(state, depth=6)
    assert a.last_nodes == b.last_nodes > 0
