"""Random play: the chance and end markers of ``State.to_move``, drawing a chance outcome,
and the uniform random playout every game has by default.

Kept apart from :mod:`.protocol` and :mod:`.table` (which re-export them) so that the
search's generic playout (:mod:`.ai`) reads them without importing either.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .protocol import Move, State

CHANCE = -1
"""``State.to_move`` at a chance node: the table, not a player, chooses the outcome."""

TERMINAL = -2
"""``State.to_move`` once the game is over."""


def sample_chance(state: State, rng: random.Random) -> Move:
    """Draw one chance outcome by its probability with ``rng``.

    Exactly what ``rng.choices(moves, weights=weights, k=1)[0]`` draws (the same cumulative
    sums, one ``rng.random()``, the same bisection), so seeded games and records keep their
    outcomes; written out because a random game draws at every chance node and ``choices``
    checks and builds more than one draw needs."""
    outcomes = state.chance_outcomes()
    cumulative = list(accumulate([p for _, p in outcomes]))
    total = cumulative[-1] + 0.0
    if not total > 0.0:
        raise ValueError("chance outcomes must have a positive total probability")
    return outcomes[bisect(cumulative, rng.random() * total, 0, len(cumulative) - 1)][0]


def random_playout(state: State, rng: random.Random, max_moves: int | None = None) -> int:
    """Play uniformly random moves (chance by its probabilities) to the end; return the count.

    The reference random policy of the protocol, used by the conformance harness and the
    ``api`` benchmark path.
    """
    count = 0
    limit = max_moves if max_moves is not None else -1
    # the methods looked up once: this loop is the protocol path ``ludoteca bench`` measures
    choice, legal_moves, play = rng.choice, state.legal_moves, state.play
    while not state.is_over:
        if state.to_move == CHANCE:
            play(sample_chance(state, rng))
        else:
            play(choice(legal_moves()))
        count += 1
        if count == limit + 1:
            raise AssertionError(
                f"{state.game.id}: game not over after {count} moves: {state.position()}"
            )
    return count


def random_payoffs(
    state: State,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """Payoffs (see :meth:`ludoteca.core.protocol.Result.payoffs`) of one uniform random
    playout from ``state``, which is left unchanged: the generic
    :attr:`ludoteca.core.ai.SearchKnowledge.playout`, played through the protocol. It knows
    one policy, ``"uniform"``, draws no best of several and keeps no move statistics."""
    probe = state.clone()
    random_playout(probe, rng)
    assert probe.result is not None
    return probe.result.payoffs()
