"""A planner for solo games (the Hexagone solo puzzle): maximise the expected final score.

Every finished solo game is "won", so what matters is the score, and chance (the dice)
decides what later turns can do. The planner is the *rollout algorithm* (one step of policy
improvement over a base policy, as in Bertsekas' rollout):

1. Every move is scored by the planner's value of the position it leads to: the score, plus
   for a game with a *potential* (its search knowledge's ``planner_potential``) a small bonus
   for what the position prepares. The best ``width`` moves go on. Playing the best of this
   step at every decision is the base policy.
2. Each of them is played out by the base policy to the end of the game, or ``horizon``
   chance events (after which the value stands in), over the *same* sampled dice for every
   candidate (common random numbers, so the comparison is not drowned by luck). Rounds of
   samples are added while the budget lasts.
3. The candidate with the best mean value over the completed rounds is played, if its paired
   advantage over step 1's choice exceeds its standard error; otherwise step 1's choice. A
   budget too small for many rounds then leaves the base policy's move, not a noisy guess.

In Hexagone the potential counts pairs of touching same-colour pieces (a swap that brings a
third piece to a pair captures): scores alone make every reform placement and every swap that
captures nothing look the same, so a score-only greedy places and swaps at random. Measured
over 40 seeded solo games, the base policy alone captured 25.2 pieces a game where greedy
captured 20.5.

Budgets: ``seconds`` (checked at every evaluation), ``iterations`` (positions evaluated),
``depth`` (1: step 1 only, the base policy's choice; ``d`` > 1: rollouts look ``d - 1``
chance events ahead; none: ``horizon``). ``width`` is how many candidates are rolled out;
``horizon`` is the default look-ahead in chance events (0: to the end), per game in
:attr:`ludoteca.core.ai.SearchKnowledge.planner_horizon`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ludoteca.core.protocol import CHANCE, Game, Move, State
from ludoteca.core.table import sample_chance

from .base import Bot, BotError, Budget, Deadline, gc_paused
from .evaluation import evaluate

POTENTIAL_WEIGHT = 0.1
"""What one unit of potential is worth against one point of score."""


class _OutOfBudget(Exception):
    pass


class PlannerBot(Bot):
    name = "planner"
    default_budget = Budget(seconds=1.0)

    def __init__(self, seed=None, *, width: int = 6, horizon: int | None = None, **budget):
        super().__init__(seed, **budget)
        self.width = max(1, int(width))
        self.horizon = None if horizon is None else max(0, int(horizon))
        """Chance events a rollout looks ahead (0: to the end); ``None``: the game's own
        (:attr:`ludoteca.core.ai.SearchKnowledge.planner_horizon`)."""
        self._potential: Callable[[State], float] | None = None
        self.last_rounds = 0
        """Rollout rounds the last :meth:`choose` completed."""

    def cannot_play(self, game: Game) -> str | None:
        if game.num_players != 1:
            return (
                f"the planner plays solo games (one player), not {game.id} "
                f"with {game.num_players} players"
            )
        return None

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        self._deadline = Deadline(budget.seconds)
        self._check(state)
        if state.num_players != 1:
            raise BotError(state.game.id, "the planner plays solo games (one player)")
        self._limit = budget.iterations
        self._evaluations = 0
        self._potential = state.game.search_knowledge().planner_potential
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
                first.append((self._value(child), i, move))
        except _OutOfBudget:
            pass
        if not first:
            return moves[0]
        first.sort(key=lambda t: (-t[0], t[1]))
        if len(first) == 1 or (budget.depth is not None and budget.depth < 2):
            return first[0][2]
        horizon: int | None
        if budget.depth is not None:
            horizon = budget.depth - 1
        else:
            own = (
                self.horizon
                if self.horizon is not None
                else state.game.search_knowledge().planner_horizon
            )
            horizon = own or None
        candidates = [move for _, _, move in first[: self.width]]
        samples: list[list[float]] = []
        try:
            while True:
                dice_seed = self.rng.randrange(2**32)
                results = []
                for move in candidates:
                    self._tick()
                    child = state.clone()
                    child.play(move)
                    results.append(self._rollout(child, random.Random(dice_seed), horizon))
                samples.append(results)
                self.last_rounds += 1
        except _OutOfBudget:
            pass
        return candidates[self._pick(samples, len(candidates))]

    @staticmethod
    def _pick(samples: list[list[float]], n: int) -> int:
        """The candidate to play: the best mean if it beats candidate 0 (step 1's choice) by
        more than the standard error of their paired differences, else candidate 0."""
        rounds = len(samples)
        if rounds < 2:
            return 0
        means = [math.fsum(row[i] for row in samples) / rounds for i in range(n)]
        best = max(range(n), key=lambda i: (means[i], -i))
        if best == 0:
            return 0
        diffs = [row[best] - row[0] for row in samples]
        mean = math.fsum(diffs) / rounds
        var = math.fsum((d - mean) ** 2 for d in diffs) / (rounds - 1)
        return best if mean > math.sqrt(var / rounds) else 0

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
        value = evaluate(state)[0]
        if self._potential is not None and not state.is_over:
            value += POTENTIAL_WEIGHT * self._potential(state)
        return value

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
