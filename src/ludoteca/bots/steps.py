"""Moves made of several parts, searched one part at a time.

A turn that places several pieces (Comune's, up to two) makes thousands of moves in a
position; a search that treats each as one move spreads its simulations so thin that it
learns nothing. Stepping splits every move into a short sequence of parts (first placement,
then second placement or "end"), so the tree shares what it learns about a first placement
among every turn that starts with it (MCTS grows a trie of parts, see
:mod:`ludoteca.bots.mcts`).

A stepper maps a move to its parts. The sequences must be *prefix-free* (no move's parts
begin another move's), which an explicit end marker guarantees. A game declares its stepper
in its search knowledge (:attr:`ludoteca.core.ai.SearchKnowledge.steps`, see Comune's
``ai.py``), or gives its state a ``move_steps(move)`` method.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ludoteca.core.ai import Stepper
from ludoteca.core.protocol import Move, State


def stepper_for(state: State) -> Stepper | None:
    """The game's stepper: its state's own ``move_steps``, else its search knowledge's."""
    own = getattr(state, "move_steps", None)
    return own if own is not None else state.game.search_knowledge().steps


def lazy_steps_for(state: State) -> Callable[[State], Any] | None:
    """The game's way to list a position's parts directly (see
    :attr:`ludoteca.core.ai.SearchKnowledge.lazy_steps`), preferred to building a MoveTrie."""
    return state.game.search_knowledge().lazy_steps


class MoveTrie:
    """The legal moves of one position as a trie of their parts."""

    __slots__ = ("next_steps", "moves")

    def __init__(self, moves: Sequence[Move], stepper: Stepper) -> None:
        # dicts as ordered sets: a position can hold thousands of moves sharing a first part,
        # and a list membership test per move made building the trie quadratic
        following: dict[tuple, dict[Hashable, None]] = {}
        self.moves: dict[tuple, Move] = {}
        for move in moves:
            steps = tuple(stepper(move))
            for i in range(len(steps)):
                following.setdefault(steps[:i], {})[steps[i]] = None
            if steps in self.moves:
                raise ValueError(f"two moves share the parts {steps!r}")
            self.moves[steps] = move
        self.next_steps: dict[tuple, list[Hashable]] = {
            prefix: list(parts) for prefix, parts in following.items()
        }
        clash = set(self.moves).intersection(self.next_steps)
        if clash:
            raise ValueError(f"parts of a move begin another move: {sorted(map(str, clash))[0]}")
