"""What the bots know of Comino: master's playouts take the better of two placements.

Measured in :mod:`ludoteca.bots.levels`: four times the search alone bought master only
59.5% against hard, while playouts that take each placement as the better-scoring of two
drawn at random (``best_of=2``, which the engine's kernel offers) made master beat hard
78-22. The other levels keep the standard settings so each step stays a clear one.
"""

from __future__ import annotations

from ludoteca.core.ai import SearchKnowledge

LEVEL_SPECS = {"master": "mcts:seconds=4,best_of=2"}

KNOWLEDGE = SearchKnowledge(level_specs=LEVEL_SPECS)
