"""The uniform random bot: the baseline every other bot is measured against."""

from __future__ import annotations

from ludoteca.core.protocol import Move, State

from .base import Bot


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        self._check(state)
        return self.rng.choice(state.legal_moves())
