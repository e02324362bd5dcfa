"""What the bots know of Comino: playouts that take the best-scoring of several placements.

Uniform playouts place tiles no player would, so a simulation says little about who is ahead;
playouts closer to how people play say more per simulation. The search therefore plays out
with the ``scoring`` policy (each placement the best-scoring of ten drawn), compiled, and the
levels are tuned to it; the measurements behind each choice are in the documentation's "How
the levels were measured" (``docs/strength.md``, Comino's playouts and master).
"""

from __future__ import annotations

from ludoteca.core.ai import SearchKnowledge

LEVEL_SPECS: dict[str, str] = {"medium": "mcts:seconds=0.05", "master": "mcts:seconds=8"}
"""Comino's medium searches a twentieth of a second and its master eight seconds; easy and
hard are the standard levels (why: ``docs/strength.md``, Comino's master)."""


def warm_up() -> None:
    """Compile (or load from numba's cache) the search's playout before any timed move,
    whatever position the caller warms up with (a game still being dealt plays out without
    it). Imported late: numba takes a third of a second to import."""
    from .jit import warm_up as compile_playout

    compile_playout()


KNOWLEDGE = SearchKnowledge(level_specs=LEVEL_SPECS, playout_policy="scoring", warm_up=warm_up)
