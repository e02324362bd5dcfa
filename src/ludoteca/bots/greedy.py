"""The greedy bot: the move whose resulting position evaluates best for the mover.

One ply, no search: the yardstick a real search must clearly beat. Ties are broken by the
bot's seeded generator, so two greedy bots do not play the same game over and over.
"""

from __future__ import annotations

from ludoteca.core.protocol import Move, State

from .base import Bot, Deadline
from .evaluation import evaluate


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        deadline = Deadline(budget.seconds)
        self._check(state)
        mover = state.to_move
        moves = list(state.legal_moves())
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
