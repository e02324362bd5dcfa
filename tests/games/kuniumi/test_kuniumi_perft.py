"""perft counts: the issue's figures from the start, and agreement with a naive reference
implementation (``kuniumi_reference``) on fixed positions of every phase."""

from __future__ import annotations

import random

import kuniumi_reference as ref
import pytest

from ludoteca.core import get
from ludoteca.core.perft import divide, perft
from ludoteca.core.table import random_playout

GAME = get("kuniumi")
START = "6/6/6/6/6/6 setup"


@pytest.mark.parametrize(("depth", "count"), [(1, 36), (2, 1260), (3, 42832)])
def test_perft_from_the_start(depth, count):
    assert perft(GAME.from_position(START), depth) == count


def test_reference_agrees_on_the_start_figures():
    # 36 places for E, 35 for S; at depth 3 the eight placements that close a corner Sea God
    # (E and l on its two neighbours) are banned: 36 * 35 * 34 - 8.
    start = ref.parse(START)
    assert ref.perft(start, 2) == 1260
    assert ref.perft(start, 3) == 36 * 35 * 34 - 8 == 42832


FIXED = [
    # part-way through the set-up
    ("6/6/6/6/6/E5 setup", 3),
    ("6/6/6/6/S5/E5 setup", 2),
    ("6/6/6/6/Sl4/E5 setup", 2),
    ("6/6/2l3/2S3/2lE2/6 setup", 2),
    ("6/6/2l3/2S3/2lEs1/6 setup", 2),
    ("6/6/6/sSll2/E5/6 setup", 2),
    # the choice, and into play
    ("6/1s4/2El2/2Sl2/1s4/6 choose", 3),
    # play positions
    ("6/1s4/2El2/2Sl2/1s4/6 play land land", 3),
    ("6/1s4/2El2/2Sl2/1s4/6 play sea sea", 3),
    ("s1l3/1ss3/l1El1s/2Sl2/1sl3/l5 play sea land", 3),
    ("sl4/Ss4/l5/6/5E/4sl play land land", 3),
]


@pytest.mark.parametrize(("position", "depth"), FIXED)
def test_perft_matches_the_reference(position, depth):
    state = GAME.from_position(position)
    assert perft(state, depth) == ref.perft(ref.parse(position), depth)
    assert state.position() == GAME.from_position(position).position()  # perft left it alone


def test_divide_matches_the_reference_move_by_move():
    position = "s1l3/1ss3/l1El1s/2Sl2/1sl3/l5 play sea land"
    pos = ref.parse(position)
    expected = sorted((m, ref.perft(ref.play(pos, m), 1)) for m in ref.legal(pos))
    assert divide(GAME.from_position(position), 2) == expected


def _random_positions(count: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = GAME.new_state()
        stop = rng.randrange(0, 36)
        moves = 0
        while not state.is_over and moves < stop:
            state.play(rng.choice(state.legal_moves()))
            moves += 1
        out.append(state.position())
    return out


@pytest.mark.parametrize("position", _random_positions(40, seed=7))
def test_legal_moves_and_end_match_the_reference_on_random_positions(position):
    state = GAME.from_position(position)
    pos = ref.parse(position)
    assert state.is_over == ref.is_over(pos)
    assert sorted(state.move_to_str(m) for m in state.legal_moves()) == (
        [] if ref.is_over(pos) else ref.legal(pos)
    )
    if state.is_over:
        outcome = ref.winner_by_closure(pos.board)
        sides = [state.side_name(p) for p in state.result.winners]
        assert sides == ([] if outcome == "draw" else [outcome])


def test_reference_and_engine_agree_along_whole_games():
    rng = random.Random(2024)
    for _ in range(15):
        state = GAME.new_state()
        pos = ref.parse(state.position())
        while not state.is_over:
            texts = sorted(state.move_to_str(m) for m in state.legal_moves())
            assert texts == ref.legal(pos), state.position()
            move = rng.choice(texts)
            state.play(move)
            pos = ref.play(pos, move)
        assert ref.is_over(pos)
        assert ref.parse(state.position()).board == pos.board


def test_random_playout_count_is_within_the_maximum_length():
    rng = random.Random(5)
    for _ in range(50):
        assert 8 <= random_playout(GAME.new_state(), rng) <= GAME.max_game_length
