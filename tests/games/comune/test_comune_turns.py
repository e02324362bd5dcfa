"""The lazy sequence of whole turns: every index gives the turn a full listing has there.

``legal_moves()`` at the start of a turn counts and indexes pairs by arithmetic (see
``ludoteca.games.comune.turns``); these tests hold that arithmetic to the plain listing on
positions from random games, where turns run into the thousands.
"""

from __future__ import annotations

import random

import pytest

from ludoteca.core import get
from ludoteca.games.comune.turns import Turns

GAME = get("comune")


def positions(seed: int, count: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = GAME.new_state()
        while not state.is_over:
            moves = state.legal_moves()
            if isinstance(moves, Turns):
                found += 1
                yield state.clone(), moves
            state.play(rng.choice(moves))


@pytest.mark.parametrize("seed", [1, 2])
def test_every_index_gives_the_turn_the_listing_has_there(seed):
    biggest = 0
    for state, turns in positions(seed, 60):
        listed = turns.as_list()
        assert len(turns) == len(listed) == len(set(listed))
        assert [turns[i] for i in range(len(turns))] == listed
        assert turns[-1] == listed[-1] and turns[-len(listed)] == listed[0]
        assert turns[3:9] == listed[3:9]
        assert turns == listed and list(turns) == listed
        biggest = max(biggest, len(turns))
        for move in listed[:: max(1, len(listed) // 7)]:
            assert move in turns
            copy = state.clone()
            copy.play(move)  # each indexed turn is legal
    assert biggest > 1000, "the positions should include the thousands of two-piece turns"


def test_out_of_range_indices_and_strangers_are_refused():
    state, turns = next(iter(positions(3, 5)))
    with pytest.raises(IndexError):
        turns[len(turns)]
    with pytest.raises(IndexError):
        turns[-len(turns) - 1]
    with pytest.raises(TypeError):
        turns["1"]  # type: ignore[call-overload]
    assert -5 not in turns and "pass" not in turns
    assert turns != [0] and turns != "pass"


def test_a_random_choice_needs_no_listing():
    rng = random.Random(5)
    for _, turns in positions(4, 20):
        rng.choice(turns)
        assert turns._list is None  # counted and indexed, never listed
