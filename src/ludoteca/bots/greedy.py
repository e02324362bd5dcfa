"""The greedy bot: the move whose resulting position evaluates best for the mover.

One ply, no search: the yardstick a real search must clearly beat. Ties are broken by the
bot's seeded generator, so two greedy bots do not play the same game over and over.

``noise`` (``greedy:noise=0.3``) is the share of moves played uniformly at random instead:
a way to make an opponent weaker by a measured amount, for levels below greedy in games
where greedy is already a fair player (two-player Hexagone, where greedy wins 99 of 100
games against random). The random draws come from the same seeded generator, so a noisy
greedy bot stays deterministic under its seed.
"""

from __future__ import annotations

from ludoteca.core.errors import MalformedError
from ludoteca.core.protocol import Move, State

from .base import Bot, Deadline
from .evaluation import evaluate


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed=None, *, noise: float = 0.0, **budget) -> None:
        super().__init__(seed, **budget)
        if not isinstance(noise, int | float) or not 0 <= noise <= 1:
            raise MalformedError(f"noise={noise}", "noise is a share of moves, from 0 to 1")
        self.noise = float(noise)

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        deadline = Deadline(budget.seconds)
        self._check(state)
        mover = state.to_move
        moves = list(state.legal_moves())
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(moves)
        self.rng.shuffle(moves)  # ties go to a seeded random choice among the best
        best, best_value = moves[0], float("-inf")
        if budget.iterations is not None:  # an iteration is one position evaluated
            del moves[max(1, budget.iterations) :]
        for move in moves:
            if deadline.expired():
                break
            child = state.clone()
            child.play(move)
            value = evaluate(child)[mover]
            if value > best_value:
                best, best_value = move, value
        return best
