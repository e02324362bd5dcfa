"""Comino's colour areas, kept joined as tiles are put (``CominoState.parent``, undone
through ``joins``), are the areas a search of the board finds.

Held on random games played forward and undone to the start: at every position each tile's
area of each colour is the one a plain search of ``board`` by grid points finds, and what a
placement scores is the size of the areas it joins; a tile taken from the middle of the
board (not the last put) leaves the areas of the others.
"""

from __future__ import annotations

import random
from collections import defaultdict

from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.games.comino.geometry import CORNER_OFFSETS
from ludoteca.games.comino.notation import Place
from ludoteca.games.comino.state import CominoState


def searched_area(board, square, colour) -> set[tuple[int, int]]:
    """The tiles linked to ``square``'s by grid points of ``colour``, searched afresh."""
    if colour not in board[square]:
        return {square}
    touching = defaultdict(set)
    for (x, y), tile in board.items():
        for (dx, dy), c in zip(CORNER_OFFSETS, tile, strict=True):
            if c == colour:
                touching[(x + dx, y + dy)].add((x, y))
    seen = {square}
    stack = [square]
    while stack:
        x, y = stack.pop()
        for (dx, dy), c in zip(CORNER_OFFSETS, board[(x, y)], strict=True):
            if c == colour:
                for other in touching[(x + dx, y + dy)] - seen:
                    seen.add(other)
                    stack.append(other)
    return seen


def all_areas(state) -> dict:
    return {
        (square, colour): state.area(square, colour) for square in state.board for colour in "BRY"
    }


def searched(state) -> dict:
    return {
        (square, colour): searched_area(state.board, square, colour)
        for square in state.board
        for colour in "BRY"
    }


def test_kept_areas_are_the_searched_ones_through_play_and_undo():
    game = get("comino")
    for seed in (4, 5):
        rng = random.Random(seed)
        state = game.new_state(seed)
        seen = []
        while not state.is_over:
            if state.to_move != CHANCE:
                assert all_areas(state) == searched(state)
                seen.append((state.position(), all_areas(state)))
            move = rng.choice(state.legal_moves())
            before = state.clone()
            state.play(move)
            if isinstance(move, Place):
                square = (move.x, move.y)
                joined = sum(len(searched_area(state.board, square, c)) - 1 for c in set(move.tile))
                assert state.score[before.to_move] - before.score[before.to_move] == joined
        while seen:  # undone move by move: the areas of each position played
            state.undo()
            if state.to_move == CHANCE:
                continue
            position, areas = seen.pop()
            assert state.position() == position and all_areas(state) == areas
        while state.history:
            state.undo()
        assert state.parent == {} and state.joins == ()


def test_a_tile_taken_from_the_middle_leaves_the_others_areas():
    game = get("comino")
    rng = random.Random(6)
    state = game.new_state(6)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    squares = list(state.board)
    for square in (squares[3], squares[len(squares) // 2], squares[1]):
        other = state.clone()
        other._take(square)
        assert square not in other.board and all_areas(other) == searched(other)
        fresh = CominoState.from_parts(game, other.board, other.hands, other.score, False)
        assert (other.cells, other.codes, other.front) == (fresh.cells, fresh.codes, fresh.front)
        assert sorted(other.ones) == sorted(fresh.ones)
