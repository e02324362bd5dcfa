"""Engine helpers that draw one random move without listing every legal move.

A playout that must be able to stop at any move (see :mod:`ludoteca.bots.mcts`) plays one
move at a time through the protocol. Listing every legal move is the slow part of that in a
game such as Hexagone, whose reform placements are checked by a search; its engine documents
``random_move(state, rng)``, drawing from the same uniform policy without the listing.
Games without such a helper fall back to a choice among ``legal_moves()``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from functools import cache

from ludoteca.core.protocol import Move, State

RANDOM_MOVES: dict[str, str] = {"hexagone": "ludoteca.games.hexagone.playout:random_move"}
"""Game id -> ``module:function`` drawing one move (chance included) by the random policy."""

UNCHECKED_PLAY: dict[str, str] = {"hexagone": "apply"}
"""Game id -> the state method that plays a move known to be legal without checking it or
keeping it for ``undo`` (what the engine's own random playout uses). A playout on a clone,
drawing its moves by the policy above, needs neither."""


@cache
def _helper(game_id: str) -> Callable[[State, random.Random], Move] | None:
    where = RANDOM_MOVES.get(game_id)
    if where is None:
        return None
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def random_move_for(state: State) -> Callable[[State, random.Random], Move]:
    """The fastest way to draw a uniform random move (chance: by probability) in ``state``."""
    helper = _helper(state.game.id)
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
    name = UNCHECKED_PLAY.get(state.game.id)
    return getattr(state, name) if name is not None else state.play
