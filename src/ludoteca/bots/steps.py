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
from functools import partial

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


class _Steps(dict):
    """``prefix -> next parts``, each entry asked of the engine the first time it is used."""

    def __init__(self, fill: Callable[[tuple], list[Hashable]]) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, prefix: tuple) -> list[Hashable]:
        parts = self[prefix] = self.fill(prefix)
        return parts


class _Moves:
    """``prefix -> whole move`` for the prefixes that complete a move."""

    def __init__(self, complete: Callable[[tuple], Move | None]) -> None:
        self.complete = complete

    def get(self, prefix: tuple, default=None):
        move = self.complete(prefix)
        return default if move is None else move

    def __contains__(self, prefix: tuple) -> bool:
        return self.complete(prefix) is not None

    def __getitem__(self, prefix: tuple) -> Move:
        move = self.complete(prefix)
        if move is None:
            raise KeyError(prefix)
        return move


class ComuneTrie:
    """Comune's turns as parts, asked of the engine's single placements as the search goes.

    The same parts as :func:`comune_steps` (first placement, then ``end`` or the second
    placement at a higher angle; ``pass`` alone), but listed from
    ``legal_placements()`` one level at a time instead of from every whole turn: a Comune
    position has thousands of turns and a search expands few of them. The engine's mid-turn
    list is what keeps each two-piece turn reachable by exactly one order of parts.

    A search keeps one trie per position it expands, so a trie holds as little as it can:
    a copy of the position without its undo history, and no reference back to itself (the
    search pauses the cycle collector, so a cycle here would outlive the tree).
    """

    __slots__ = ("next_steps", "moves")

    def __init__(self, state: State) -> None:
        self.next_steps = _Steps(partial(_comune_following, state.detached()))
        self.moves = _Moves(_comune_complete)


def _comune_following(root: State, prefix: tuple) -> list[Hashable]:
    """The parts that may follow ``prefix`` in ``root``'s turn."""
    from ludoteca.games.comune.notation import placement_code

    if not prefix:
        return [placement_code(c, a) for c, a in root.legal_placements()] + [PASS]
    if len(prefix) == 1 and prefix[0] != PASS:
        probe = root.clone()
        probe.place(*divmod(prefix[0], 3))
        if not probe.mid_turn:  # the opening, or the last piece: one piece only
            return [END]
        return [END] + [placement_code(c, a) for c, a in probe.legal_placements()]
    return []


def _comune_complete(prefix: tuple) -> Move | None:
    """The whole turn the parts ``prefix`` make, or ``None`` if they do not end a turn."""
    from ludoteca.games.comune.notation import encode_turn

    if prefix == (PASS,):
        return encode_turn(())
    if len(prefix) == 2:
        return encode_turn(prefix[:1] if prefix[1] == END else prefix)
    return None


LAZY_TRIES: dict[str, Callable[[State], ComuneTrie]] = {"comune": ComuneTrie}
"""Games whose engine lists a move's parts directly; preferred to building a MoveTrie."""


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
