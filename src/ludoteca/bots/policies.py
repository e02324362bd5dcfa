"""Engine helpers that draw one random move without listing every legal move.

A playout that must be able to stop at any move (see :mod:`ludoteca.bots.mcts`) plays one
move at a time through the protocol. Listing every legal move is the slow part of that in a
game whose moves are checked by a search; such a game declares a ``random_move(state, rng)``
in its search knowledge (:attr:`ludoteca.core.ai.SearchKnowledge.random_move`), drawing from
the same uniform policy without the listing. Games without one fall back to a choice among
``legal_moves()``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ludoteca.core.protocol import Move, State


def random_move_for(state: State) -> Callable[[State, random.Random], Move]:
    """The fastest way to draw a uniform random move (chance: by probability) in ``state``."""
    helper = state.game.search_knowledge().random_move
    if helper is not None:
        return helper
    return _listing_random_move


def _listing_random_move(state: State, rng: random.Random) -> Move:
    from ludoteca.core.protocol import CHANCE
    from ludoteca.core.table import sample_chance

    if state.to_move == CHANCE:
        return sample_chance(state, rng)
    return rng.choice(state.legal_moves())


def unchecked_play_for(state: State) -> Callable[[Move], None]:
    """The fastest way to play a legal move on a throw-away ``state`` (its ``play`` if the
    game has nothing faster)."""
    name = state.game.search_knowledge().unchecked_play
    return getattr(state, name) if name is not None else state.play
