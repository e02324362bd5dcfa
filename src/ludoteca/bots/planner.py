"""A planner for solo games (the Hexagone solo puzzle): maximise the expected final score.

Every finished solo game is "won", so what matters is the score, and chance (the dice)
decides what later turns can do. The planner is the *rollout algorithm* (one step of policy
improvement over the greedy policy, as in Bertsekas' rollout):

1. Every move is scored by the evaluation of the position it leads to, after finishing the
   rest of the turn greedily (a turn may hold several decisions, such as reform placements,
   before the next roll). The best ``width`` moves go on.
2. Each of them is played out to the end of the game (or ``depth`` chance events, after
   which the evaluation stands in) by the greedy policy, over the *same* sampled dice for
   every candidate (common random numbers, so the comparison is not drowned by luck). Rounds
   of samples are added while the budget lasts.
3. The candidate with the best mean final score over the completed rounds is played; the
   best of step 1 if no round completed.

Because the greedy policy is what the rollouts follow, the planner's expected score is at
least greedy's (up to sampling noise): it only departs from greedy's move when the sampled
futures say another move does better over the rest of the game.

Budgets: ``seconds`` (checked at every evaluation), ``iterations`` (positions evaluated),
``depth`` (1: step 1 only, the greedy choice; ``d`` > 1: rollouts look ``d - 1`` chance
events ahead; none: to the end). ``width`` is how many candidates are rolled out.
"""

from __future__ import annotations

import random

from ludoteca.core.protocol import CHANCE, Move, State
from ludoteca.core.table import sample_chance

from .base import Bot, BotError, Budget, Deadline, gc_paused
from .evaluation import evaluate

SETTLE_LIMIT = 64
"""At most this many same-turn decisions are finished greedily in one evaluation."""


class _OutOfBudget(Exception):
    pass


class PlannerBot(Bot):
    name = "planner"
    default_budget = Budget(seconds=1.0)

    def __init__(self, seed=None, *, width: int = 6, **budget) -> None:
        super().__init__(seed, **budget)
        self.width = max(1, int(width))
        self.last_rounds = 0
        """Rollout rounds the last :meth:`choose` completed."""

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        self._deadline = Deadline(budget.seconds)
        self._check(state)
        if state.num_players != 1:
            raise BotError(state.game.id, "the planner plays solo games (one player)")
        self._limit = budget.iterations
        self._evaluations = 0
        self.last_rounds = 0
        with gc_paused():
            return self._plan(state, budget)

    def _plan(self, state: State, budget: Budget) -> Move:
        moves = list(state.legal_moves())
        self.rng.shuffle(moves)  # ties go to a seeded random choice
        first: list[tuple[float, int, Move]] = []
        try:
            for i, move in enumerate(moves):
                self._tick()
                child = state.clone()
                child.play(move)
                self._settle(child)
                first.append((self._value(child), i, move))
        except _OutOfBudget:
            pass
        if not first:
            return moves[0]
        first.sort(key=lambda t: (-t[0], t[1]))
        if len(first) == 1 or (budget.depth is not None and budget.depth < 2):
            return first[0][2]
        horizon = None if budget.depth is None else budget.depth - 1
        candidates = [move for _, _, move in first[: self.width]]
        totals = [0.0] * len(candidates)
        try:
            while True:
                dice_seed = self.rng.randrange(2**32)
                results = []
                for move in candidates:
                    self._tick()
                    child = state.clone()
                    child.play(move)
                    results.append(self._rollout(child, random.Random(dice_seed), horizon))
                for i, value in enumerate(results):
                    totals[i] += value
                self.last_rounds += 1
        except _OutOfBudget:
            pass
        if not self.last_rounds:
            return first[0][2]
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    # --- pieces ---------------------------------------------------------------------------
    def _tick(self) -> None:
        """Stop at the deadline; called before every move tried (some are slow to play)."""
        if self._deadline.expired():
            raise _OutOfBudget

    def _value(self, state: State) -> float:
        self._evaluations += 1
        if self._limit is not None and self._evaluations > self._limit:
            raise _OutOfBudget
        self._tick()
        return evaluate(state)[0]

    def _greedy_move(self, state: State) -> Move:
        best, best_value = None, float("-inf")
        for move in state.legal_moves():
            self._tick()
            child = state.clone()
            child.play(move)
            value = self._value(child)
            if value > best_value:
                best, best_value = move, value
        return best

    def _settle(self, state: State) -> None:
        """Finish the current turn greedily: play until chance, or the end, is next."""
        for _ in range(SETTLE_LIMIT):
            if state.is_over or state.to_move == CHANCE:
                return
            state.play(self._greedy_move(state))

    def _rollout(self, state: State, dice: random.Random, horizon: int | None) -> float:
        """The greedy policy's final value from ``state`` (changed) under ``dice``."""
        events = 0
        while not state.is_over:
            if state.to_move == CHANCE:
                if horizon is not None and events >= horizon:
                    break
                events += 1
                state.play(sample_chance(state, dice))
            else:
                state.play(self._greedy_move(state))
            self._tick()
        return self._value(state)
