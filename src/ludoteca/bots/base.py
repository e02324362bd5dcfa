"""The bot protocol: every bot answers ``choose(state, seconds=, iterations=, depth=)``.

A bot honours whichever budgets it is given, never mutates the state it is handed, and is
deterministic under its seed. Chance is never the bot's to draw: at a chance node the table
plays (see :mod:`ludoteca.core.table`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ludoteca.core.protocol import CHANCE, Move, State


class Bot(ABC):
    name: str = "bot"

    def __init__(self, seed: int | None = None, **budget) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget

    @abstractmethod
    def choose(
        self,
        state: State,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
    ) -> Move:
        """The move to play in ``state`` (a player's turn, game not over)."""

    def _check(self, state: State) -> None:
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        if state.to_move == CHANCE:
            raise ValueError("chance nodes are resolved by the table, not by a bot")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"
