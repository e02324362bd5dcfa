"""What the bots may know of Three in a Row: the centre and corners are worth more."""

from __future__ import annotations

from ludoteca.core.ai import SearchKnowledge, squash

WEIGHTS = (3, 2, 3, 2, 4, 2, 3, 2, 3)
"""Lines through each square (a1, b1, c1, a2, ...): a mark there joins that many."""


def evaluate(state) -> tuple[float, ...]:
    if state.result is not None:
        return state.result.payoffs()
    own = [sum(w for w, c in zip(WEIGHTS, state.cells, strict=True) if c == m) for m in "xo"]
    return squash([v + 1.0 for v in own])


KNOWLEDGE = SearchKnowledge(evaluate=evaluate)
