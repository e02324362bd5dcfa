"""Moves made of several parts, searched one part at a time.

A Comune turn places up to two pieces, so a position can have thousands of turns; a search
that treats each turn as one move spreads its simulations so thin that it learns nothing.
Stepping splits every move into a short sequence of parts (first placement, then second
placement or "end"), so the tree shares what it learns about a first placement among every
turn that starts with it (MCTS grows a trie of parts, see :mod:`ludoteca.bots.mcts`).

A stepper maps a move to its parts. The sequences must be *prefix-free* (no move's parts
begin another move's), which an explicit end marker guarantees. A game gets a stepper from
:data:`STEPPERS` here, or by giving its state a ``move_steps(move)`` method.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from ludoteca.core.protocol import Move, State

Stepper = Callable[[Move], tuple[Hashable, ...]]

END = "end"
PASS = "pass"


def comune_steps(move: Move) -> tuple[Hashable, ...]:
    """A Comune turn as its placements in the engine's canonical order, then ``end``."""
    from ludoteca.games.comune.notation import decode_turn

    codes = decode_turn(move)
    if not codes:
        return (PASS,)
    if len(codes) == 1:
        return (codes[0], END)
    return tuple(codes)


STEPPERS: dict[str, Stepper] = {"comune": comune_steps}


def stepper_for(state: State) -> Stepper | None:
    own = getattr(state, "move_steps", None)
    return own if own is not None else STEPPERS.get(state.game.id)


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
