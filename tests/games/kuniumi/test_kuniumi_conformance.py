"""The shared conformance harness on Kuniumi: random games from many seeds, every check on
every position (round trips, clones, undo, refusals, records)."""

from __future__ import annotations

import random

import pytest

from ludoteca.core import get
from ludoteca.core.conformance import check_playout, check_state

GAME = get("kuniumi")


@pytest.mark.parametrize("seed", range(100))
def test_random_playout_conforms(seed):
    final = check_playout(GAME, seed)
    assert final.is_over
    assert final.result is not None


@pytest.mark.parametrize(
    "position",
    [
        "6/6/6/6/6/6 setup",
        "6/6/2l3/2S3/2lEs1/6 setup",
        "6/6/2S3/2E3/6/ll2ss choose",
        "l4l/6/2S3/2Es2/6/s5 play land land",
        "l3ss/6/6/6/l5/SEl3 play sea land",
    ],
)
def test_fixed_positions_conform(position):
    check_state(GAME.from_position(position), random.Random(0))


def test_registry_finds_kuniumi():
    from ludoteca.core import names

    assert "kuniumi" in names()
    assert GAME.id == "kuniumi" and GAME.title == "Kuniumi"
    assert GAME.move_help and GAME.min_players == GAME.max_players == 2
    assert not GAME.has_chance
