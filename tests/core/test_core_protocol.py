"""The protocol's shared pieces: errors, registry, results, table, perft, conformance."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ludoteca.core import (
    CHANCE,
    GameError,
    IllegalMoveError,
    IllegalPositionError,
    MalformedError,
    RecordError,
    Result,
    get,
    names,
)
from ludoteca.core.conformance import check_playout, check_state
from ludoteca.core.perft import divide, perft
from ludoteca.core.table import random_playout, resolve_chance, sample_chance
from tests.support.toygames.race import RaceState


def test_error_kinds_share_one_base_and_name_input_and_rule():
    for cls in (MalformedError, IllegalMoveError, IllegalPositionError, RecordError):
        err = cls("e9+", "because of rule 7")
        assert isinstance(err, GameError)
        assert "e9+" in str(err) and "rule 7" in str(err)
    assert "move 4" in str(RecordError("x", "bad", move_number=4))
    assert RecordError("x", "bad", move_number=4).move_number == 4


def test_registry_finds_games_and_refuses_unknown_names():
    assert "race" in names()
    assert get("race", target=7).target == 7
    with pytest.raises(MalformedError, match="no such game.*race"):
        get("chess")


def test_result_payoffs_split_one_point():
    assert Result((0,), 2).payoffs() == (1.0, 0.0)
    assert Result((), 2).payoffs() == (0.5, 0.5)
    assert Result((0, 2), 4).payoffs() == (0.5, 0.0, 0.5, 0.0)
    assert Result((), 3).draw and not Result((1,), 3).draw


def _brute_perft(count: int, player: int, depth: int, target: int) -> int:
    """Independent count for the deterministic race, straight from its definition."""
    if depth == 0:
        return 1
    if count >= target:
        return 0
    return sum(
        _brute_perft(count + m, 1 - player, depth - 1, target)
        for m in (1, 2)
        if count + m <= target
    )


@pytest.mark.parametrize("depth", range(0, 7))
def test_perft_matches_brute_force(depth):
    state = get("race", target=6).new_state()
    assert perft(state, depth) == _brute_perft(0, 0, depth, 6)
    assert state.position() == "0 0"  # perft leaves the state as it was


def test_perft_counts_chance_outcomes_once_each():
    state = get("race", dice=1).new_state()
    assert perft(state, 1) == 2  # coin 0, coin 1
    assert perft(state, 2) == 4  # each coin, then +1/+2
    assert sum(c for _, c in divide(state, 3)) == perft(state, 3)


def test_table_draws_chance_by_probability_and_reproducibly():
    state = get("race", dice=1).new_state()
    draws = Counter(sample_chance(state, random.Random(i)) for i in range(2000))
    assert 900 < draws["coin 0"] < 1100
    a, b = get("race", dice=1).new_state(), get("race", dice=1).new_state()
    resolve_chance(a, random.Random(5))
    resolve_chance(b, random.Random(5))
    assert a.position() == b.position() and a.to_move != CHANCE


def test_random_playout_ends_and_guards_against_endless_games():
    state = get("race", target=9).new_state()
    assert random_playout(state, random.Random(1)) <= 9 and state.is_over

    class Endless(RaceState):
        def play(self, move):  # never advances: a broken engine
            pass

    with pytest.raises(AssertionError, match="not over"):
        random_playout(Endless(get("race")), random.Random(1), max_moves=50)


@pytest.mark.parametrize("dice", [0, 1])
def test_conformance_passes_on_a_correct_game(dice):
    for seed in range(30):
        final = check_playout(get("race", dice=dice, target=8), seed)
        assert final.is_over


def test_conformance_catches_a_clone_that_shares_state():
    class Leaky(RaceState):
        def clone(self):
            return self  # not independent

    with pytest.raises(AssertionError, match="clone"):
        check_state(Leaky(get("race")), random.Random(0))


def test_conformance_catches_a_half_applied_illegal_move():
    class HalfApplied(RaceState):
        def play(self, move):
            move = self.coerce_move(move)
            if isinstance(move, int) and self.count + move > self.target:
                self.count += move  # changes first ...
                raise IllegalMoveError(str(move), "too far")  # ... then refuses
            super().play(move)

    state = HalfApplied(get("race", target=3), count=2)
    with pytest.raises(AssertionError):
        check_state(state, random.Random(0), seen_moves={"+2"})


def test_conformance_catches_bad_chance_probabilities():
    class Loaded(RaceState):
        def chance_outcomes(self):
            return [("coin 0", 0.5), ("coin 1", 0.6)]

    with pytest.raises(AssertionError, match="sum"):
        check_state(Loaded(get("race", dice=1), coin_due=True), random.Random(0))
