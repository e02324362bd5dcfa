"""Move lists and perft counts against the independent brute-force reference.

Chance nodes count each distinct roll once. The reference (hexagone_support.Ref) tries every
pair of cells for a swap and every order of every placement for a reform, sharing no code
with the engine.
"""

from __future__ import annotations

import json

import pytest
from hexagone_support import Ref, line, load, position, ref_perft

import ludoteca.core as core
from ludoteca.core.perft import perft


def engine_moves(state) -> list[str]:
    return sorted(state.move_to_str(m) for m in state.legal_moves())


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (1, 4)])
def test_start_positions_list_the_same_moves_as_the_reference(players, seed):
    start = core.get("hexagone", players=players).new_state(seed=seed)
    ref = Ref(start.position())
    assert engine_moves(start) == sorted(ref.moves())
    assert len(start.legal_moves()) == 21  # every colour is in the block
    for roll in ("roll RR", "roll RO", "roll GB", "roll PP", "roll YP"):
        state = start.clone()
        state.play(roll)
        assert engine_moves(state) == sorted(ref.play(roll).moves()), roll


def test_perft_of_a_start_position_matches_the_reference():
    start = core.get("hexagone", players=2).new_state(seed=5)
    ref = Ref(start.position())
    assert perft(start, 1) == ref_perft(ref, 1) == 21
    assert perft(start, 2) == ref_perft(ref, 2)
    assert perft(start, 3) == ref_perft(ref, 3)


SMALL = [
    # a line with captures, splits and reforms within reach
    position(line("RROROOYGBPWGYBPWYG")),
    position(line("ROYBPGGYRWOYBPWRG")),
    position(line("RGGYORORORORG")),  # an impossible reform two moves away (roll GG)
    position(line("RORGGYGGYYGYYORB"), phase="swap", dice="GG"),  # a tie for the main block
    position(line("ROYBPWGGYRWOYBG"), phase="swap", dice="GG"),  # an equal split
    position(line("ORORORORY"), phase="reform", pool="RG", rolled=1),  # a pool piece to strand
    position(line("ROYBPWROYB"), phase="reform", pool="RGW", rolled=1),
    position(line("ROYGBPWROYGBR"), phase="second", since=39),  # the 40-turn limit
    position(line("ROYGBPWROYGBR"), players=1, rolls_left=1),  # the last solo roll
    position(line("RROROOYGBPWGYBPWYGW"), players=3, to_move=2),
]


@pytest.mark.parametrize("text", SMALL)
def test_perft_of_small_positions_matches_the_reference(text):
    state = load(text)
    ref = Ref(text)
    for depth in range(1, 4):
        assert perft(state, depth) == ref_perft(ref, depth), depth
    assert state.position() == load(text).position()  # perft leaves the state as it was


@pytest.mark.parametrize("text", SMALL[5:7])
def test_perft_through_a_whole_reform_matches_the_reference(text):
    state = load(text)
    ref = Ref(text)
    pool = len(json.loads(text)["pool"])
    assert perft(state, pool + 1) == ref_perft(ref, pool + 1)


def view(ref: Ref) -> dict:
    """The reference's position in the binding JSON shape, for comparison."""
    order = "ROYGBPW"
    return {
        "captured": [sorted(p, key=order.index) for p in ref.captured],
        "cells": {f"{q},{r}": k for (q, r), k in ref.cells.items()},
        "dice": ref.dice if ref.phase == "swap" else None,
        "phase": ref.phase,
        "pool": sorted(ref.pool, key=order.index),
        "rolled_this_turn": 0 if ref.phase == "over" else ref.rolled,
        "rolls_left": ref.rolls_left,
        "since_capture": ref.since,
        "to_move": ref.player,
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_follow_the_reference_move_by_move(players):
    """Whole random games: the engine and the reference list the same moves (reforms with
    small pools; the reference searches every order) and reach the same positions."""
    import random

    rng = random.Random(players)
    for seed in range(2):
        state = core.get("hexagone", players=players).new_state(seed=seed)
        ref = Ref(state.position())
        while not state.is_over:
            if ref.phase != "reform" or len(ref.pool) <= 4:
                assert engine_moves(state) == sorted(ref.moves()), state.position()
            if state.to_move == core.CHANCE:
                moves, weights = zip(*state.chance_outcomes(), strict=True)
                move = rng.choices(moves, weights)[0]
            else:
                move = rng.choice(state.legal_moves())
            text = state.move_to_str(move)
            state.play(text)
            ref = ref.play(text)
            assert json.loads(state.position()) == view(ref), text


def test_reform_shortcut_agrees_with_a_search_per_placement():
    """Legal placements found by replaying one completion equal those found by searching
    afresh after every allowed placement, on the reforms of many random games."""
    import random

    from ludoteca.games.hexagone.kernel import random_move
    from ludoteca.games.hexagone.reform import ReformSearch

    rng = random.Random(11)
    checked = 0
    for seed in range(20):
        state = core.get("hexagone", players=2).new_state(seed=seed)
        while not state.is_over:
            if json.loads(state.position())["phase"] == "reform":
                expected = []
                for k, c in ReformSearch(state.cells, state.pool).options():
                    fresh = ReformSearch(state.cells, state.pool)
                    fresh.place(k, c)
                    if fresh.feasible():
                        expected.append((k, c))
                got = ReformSearch(state.cells, state.pool).legal_placements()
                assert sorted(got) == sorted(expected)
                checked += 1
            state.apply(random_move(state, rng))
    assert checked > 25
