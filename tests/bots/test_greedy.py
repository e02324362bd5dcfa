"""The greedy bot and its ``noise``: the share of moves it plays at random instead."""

from __future__ import annotations

import pytest

from ludoteca.bots import make_bot
from ludoteca.core import get


def _missed_wins(spec: str, tries: int = 600) -> float:
    """Share of calls in which a bot fails to take the last stone from a pile of 3."""
    bot = make_bot(spec, seed=12)
    state = get("toy-nim", pile=3).new_state()
    return sum(bot.choose(state) != 3 for _ in range(tries)) / tries


def test_plain_greedy_always_takes_an_immediate_win():
    assert _missed_wins("greedy") == 0


@pytest.mark.parametrize("noise", [0.25, 0.6, 1])
def test_noise_is_the_share_of_random_moves(noise):
    # a random move among take-1, take-2 and take-3 misses the win two times in three
    expected = noise * 2 / 3
    assert abs(_missed_wins(f"greedy:noise={noise}") - expected) < 0.06


def test_noise_zero_is_plain_greedy_under_the_same_seed():
    positions = [get("toy-pick").new_state()]
    for pile in range(5, 40, 3):
        positions.append(get("toy-nim", pile=pile).new_state())
    plain, zero = make_bot("greedy", seed=5), make_bot("greedy:noise=0", seed=5)
    assert [plain.choose(s) for s in positions] == [zero.choose(s) for s in positions]
