"""Kuniumi's search places a set-up alike for both sides (its candidate moves), and the
search considers only the candidates a game's knowledge names."""

from __future__ import annotations

import random

from ludoteca.bots import make_bot
from ludoteca.bots.base import Budget
from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi.ai import KNOWLEDGE, distinct_setups, mirror, symmetric_setup

SWAP = {"E": "S", "S": "E", "l": "s", "s": "l"}


def _board(state) -> dict[int, str]:
    """Square -> piece letter, read from the position text (the binding notation)."""
    rows = state.position().split()[0].split("/")
    out: dict[int, str] = {}
    for rank_from_top, row in enumerate(rows):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            out[6 * (5 - rank_from_top) + file] = ch
            file += 1
    return out


def test_every_symmetric_set_up_is_alike_for_both_sides():
    for seed in range(40):
        rng = random.Random(seed)
        state = get("kuniumi").new_state(seed=seed)
        while state.phase == bits.SETUP:
            candidates = symmetric_setup(state, state.legal_moves())
            assert candidates and set(candidates) <= set(state.legal_moves())
            state.play(rng.choice(candidates))
        board = _board(state)
        assert len(board) == 6
        # a half turn with the colours swapped gives the same board
        assert {mirror(sq): SWAP[piece] for sq, piece in board.items()} == board


def test_the_sea_god_has_one_square_and_play_has_every_move():
    state = get("kuniumi").new_state(seed=1)
    state.play(state.str_to_move("E@b2"))
    assert [state.move_to_str(m) for m in symmetric_setup(state, state.legal_moves())] == ["S@e5"]
    rng = random.Random(2)
    while state.phase == bits.SETUP:
        state.play(rng.choice(symmetric_setup(state, state.legal_moves())))
    moves = state.legal_moves()  # the choice
    assert symmetric_setup(state, moves) == moves


def test_without_a_legal_mirror_there_is_no_candidate():
    state = get("kuniumi").new_state(seed=1)
    state.play(state.str_to_move("E@b2"))
    others = [m for m in state.legal_moves() if state.move_to_str(m) != "S@e5"]
    assert symmetric_setup(state, others) == []


def test_the_search_only_considers_the_candidates():
    assert KNOWLEDGE.candidate_moves is distinct_setups
    state = get("kuniumi").new_state(seed=1)
    root = MCTSBot(seed=4).search(state, Budget(iterations=200))
    assert sorted(state.move_to_str(ch.move) for ch in root.children) == sorted(
        ["E@a1", "E@b1", "E@c1", "E@b2", "E@c2", "E@c3"]
    )
    state.play(state.str_to_move("E@c3"))
    bot = MCTSBot(seed=4)
    root = bot.search(state, Budget(iterations=200))
    assert [state.move_to_str(ch.move) for ch in root.children] == ["S@d4"]
    assert bot.choose(state, iterations=50) == state.str_to_move("S@d4")


def test_candidates_0_searches_every_legal_move():
    state = get("kuniumi").new_state(seed=1)
    state.play(state.str_to_move("E@c3"))
    bot = make_bot("mcts:candidates=0", seed=4)
    assert isinstance(bot, MCTSBot) and not bot.candidates
    root = bot.search(state, Budget(iterations=200))
    assert len(root.children) == len(state.legal_moves()) == 35


def _turned(board: dict[int, str]) -> dict[int, str]:
    """A board a quarter turn round (square (rank, file) to (file, 5 - rank))."""
    return {6 * (sq % 6) + 5 - sq // 6: piece for sq, piece in board.items()}


def _flipped(board: dict[int, str]) -> dict[int, str]:
    """A board reflected left to right."""
    return {6 * (sq // 6) + 5 - sq % 6: piece for sq, piece in board.items()}


def _images(board: dict[int, str]) -> list[frozenset]:
    out = []
    for b in (board, _flipped(board)):
        for _ in range(4):
            out.append(frozenset(b.items()))
            b = _turned(b)
    return out


def test_distinct_set_ups_keep_one_placement_of_each_board_up_to_rotation_and_reflection():
    rng = random.Random(5)
    for seed in range(6):
        state = get("kuniumi").new_state(seed=seed)
        while state.phase == bits.SETUP:
            every = symmetric_setup(state, state.legal_moves())
            kept = distinct_setups(state, state.legal_moves())
            assert set(kept) <= set(every)
            boards = {}
            for move in every:
                child = state.clone()
                child.play(move)
                boards[move] = _board(child)
            kept_images = [set(_images(boards[m])) for m in kept]
            for i, images in enumerate(kept_images):  # no two kept alike
                assert all(not images & other for other in kept_images[i + 1 :])
            for move in every:  # every placement alike to one kept
                assert any(frozenset(boards[move].items()) in images for images in kept_images)
            state.play(rng.choice(kept))
        assert distinct_setups(state, state.legal_moves()) == state.legal_moves()


def test_the_first_placement_is_one_of_six_squares():
    state = get("kuniumi").new_state(seed=1)
    kept = distinct_setups(state, state.legal_moves())
    assert sorted(state.move_to_str(m) for m in kept) == sorted(
        ["E@a1", "E@b1", "E@c1", "E@b2", "E@c2", "E@c3"]
    )
    bot = make_bot("mcts:candidates=0", seed=4)
    root = bot.search(state, Budget(iterations=100))
    assert len(root.children) == 36
