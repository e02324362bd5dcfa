"""What the bots know of Comino: playouts that take the best-scoring of several placements.

Uniform playouts place tiles no player would, so a simulation says little about who is ahead;
playouts closer to how people play say more per simulation. The search therefore plays out
with the ``scoring`` policy (each placement the best-scoring of ten drawn), compiled, and the
levels are tuned to it; the measurements behind each choice are in the documentation's "How
the levels were measured" (``docs/strength.md``, Comino's playouts and master).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ludoteca.core.ai import SearchKnowledge

if TYPE_CHECKING:
    from .state import CominoState

PLAYOUT_POLICIES = ("uniform", "scoring")
"""``"scoring"``: each placement of a playout the highest-scoring of :data:`SCORING_DRAWS`
drawn at random (the search's default)."""

SCORING_DRAWS = 10
"""Placements drawn per turn by the ``"scoring"`` playout (see above for the measurements
that chose it)."""


def playout(
    state: CominoState,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """The payoffs of one random playout through the compiled kernel (:mod:`.jit`; a
    position its grid cannot hold through :mod:`.kernel`), the state unchanged.

    Uniform; with ``best_of`` k > 1 each placement is the highest-scoring of k drawn at
    random (see :mod:`.kernel`), and the ``"scoring"`` policy is the same with
    :data:`SCORING_DRAWS` (an explicit ``best_of`` wins). Comino keeps no "all moves as
    first" statistics (its knowledge has no ``amaf_size``), so nothing is appended to
    ``amaf``.
    """
    from .jit import playout_scores

    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown Comino playout policy {policy!r}")
    if best_of <= 1 and policy == "scoring":
        best_of = SCORING_DRAWS
    scores = playout_scores(state, rng, best_of=best_of)
    if scores is None:  # a position the compiled grid cannot hold
        from .kernel import playout_from_state

        scores = playout_from_state(state, rng, best_of=best_of)
    s1, s2 = scores
    if s1 == s2:
        return (0.5, 0.5)
    return (1.0, 0.0) if s1 > s2 else (0.0, 1.0)


LEVEL_SPECS: dict[str, str] = {"medium": "mcts:seconds=0.05", "master": "mcts:seconds=8"}
"""Comino's medium searches a twentieth of a second and its master eight seconds; easy and
hard are the standard levels (why: ``docs/strength.md``, Comino's master)."""


def warm_up() -> None:
    """Compile (or load from numba's cache) the search's playout before any timed move,
    whatever position the caller warms up with (a game still being dealt plays out without
    it). Imported late: numba takes a third of a second to import."""
    from .jit import warm_up as compile_playout

    compile_playout()


KNOWLEDGE = SearchKnowledge(
    playout=playout,
    playout_policies=PLAYOUT_POLICIES,
    best_of_playouts=True,
    level_specs=LEVEL_SPECS,
    playout_policy="scoring",
    warm_up=warm_up,
)
