"""Three in a Row's fixed action ids for the research adapters: a move is the square it
marks, ``0 .. 8`` (``a1`` = 0, ``b1`` = 1, ... ``c3`` = 8), which is the move value itself."""

from __future__ import annotations

from .notation import square_name


def _same(move: int) -> tuple[int, ...]:
    return (move,)


class ThreeRowActions:
    size = 9
    chance_size = 0
    max_steps = 1

    def encoder(self, state):
        return _same

    def chance_id(self, outcome) -> int:
        raise ValueError("Three in a Row has no chance")

    def label(self, state, action: int) -> str:
        return square_name(action)
