"""Kuniumi's search places a set-up alike for both sides (its candidate moves), and the
search considers only the candidates a game's knowledge names."""

from __future__ import annotations

import random

from ludoteca.bots import make_bot
from ludoteca.bots.base import Budget
from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.games.kuniumi import bits
from ludoteca.games.kuniumi.ai import KNOWLEDGE, mirror, symmetric_setup

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
    assert KNOWLEDGE.candidate_moves is symmetric_setup
    state = get("kuniumi").new_state(seed=1)
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
