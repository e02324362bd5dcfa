"""Hexagone's fixed action ids for the research adapters (:mod:`ludoteca.env`): 1945.

The grid is unbounded and the block can drift as it is reformed, so cells are numbered in
a *frame* that follows the block: a 44 x 44 window of axial coordinates whose corner is
one cell below the smallest ``q`` and the smallest ``r`` of the pieces on the table. Every
cell a move can name lies in it: the pieces on the table always fit a box 41 cells wide
(they are, or were just before a capture, one connected block of at most 42 pieces), and a
reform places a piece next to them. Cell ``(q, r)`` has id ``(q - q0) * 44 + (r - r0)``
with ``(q0, r0) = (min q - 1, min r - 1)``. The observation uses the same frame, so what an
agent learns does not depend on where the block lies.

Moves naming two things are two steps:

- ``swap a b``: the cell ``a``, then the cell ``b`` (``a`` the lower in ``(q, r)`` order);
- ``place C q,r``: the colour ``C``, then the cell;
- ``main q,r``: the cell (the section's lowest cell, as the notation writes it);
- ``again``, ``stop``: one id each.

Ids: ``0 .. 1935`` cells, ``1936 + k`` colour ``k`` in ``R O Y G B P W``, ``1943`` again,
``1944`` stop. Chance ids: the 21 rolls in notation order (``RR``, ``RO``, ... ``PP``).
"""

from __future__ import annotations

from ludoteca.core.protocol import Move
from ludoteca.env.actions import FlatDecision, TrieDecision

from .geometry import STRIDE, cell, cell_to_str
from .notation import AGAIN, COLOURS, MAIN, PIECES_PER_COLOUR, PLACE, ROLLS, STOP, SWAP

SIDE = 44
CELLS = SIDE * SIDE
COLOUR = CELLS
AGAIN_ID = COLOUR + len(COLOURS)
STOP_ID = AGAIN_ID + 1
SIZE = STOP_ID + 1
_ROLL_INDEX = {roll: i for i, roll in enumerate(ROLLS)}
_R_MASK = STRIDE - 1
_ONE_STEP = frozenset((MAIN, AGAIN, STOP))
"""The kinds of move whose ids are one id each."""


def frame(state) -> int:
    """The packed cell of the frame's corner ``(q0, r0)`` for the pieces on the table."""
    cells = state.cells
    if not cells:
        return cell(0, 0)
    q0 = min(cells) // STRIDE - 1
    r0 = min(map(_R_MASK.__and__, cells)) - 1  # c % STRIDE: packed cells are never negative
    return q0 * STRIDE + r0


class HexagoneDecision:
    """A position's moves as ids (a :class:`ludoteca.env.actions.Decision`) without encoding
    every move. A position's moves are all of one kind (its phase's); for the two-step kinds
    (a swap, most moves, and a reform's placement) the first ids are those of the distinct
    first cells or colours, a set gathered in one pass, and the second ids only of the moves
    after the first id chosen. A position of another make is decided as every game's is."""

    __slots__ = ("_moves", "_corner", "_first", "_seconds", "_legal", "_whole", "_after_sorted")

    def __init__(self, state, space: HexagoneActions) -> None:
        moves = state.legal_moves()
        self._moves = moves
        self._corner = corner = frame(state)
        self._seconds: dict[int, dict[int, tuple]] = {}
        self._after_sorted: dict[int, list[int]] = {}
        self._whole: TrieDecision | FlatDecision | None = None
        kinds = {m[0] for m in moves}
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        if kind == SWAP:
            self._first = {cell_id(corner, c): c for c in {m[1] for m in moves}}
        elif kind == PLACE:
            self._first = {COLOUR + k: k for k in {m[1] for m in moves}}
        else:  # one step each (or mixed kinds): every move encoded
            self._first = {}
            # a main move, again and stop are one id each: a flat decision (a dict and a
            # sorted list) where every move is
            whole = FlatDecision if kinds <= _ONE_STEP else TrieDecision
            self._whole = whole(moves, space.encoder(state))
        self._legal = sorted(self._first)

    def _after(self, first: int) -> dict[int, tuple]:
        found = self._seconds.get(first)
        if found is None:
            key, corner = self._first[first], self._corner
            found = self._seconds[first] = {
                cell_id(corner, m[2]): m for m in self._moves if m[1] == key
            }
        return found

    def legal(self, prefix: tuple[int, ...]) -> list[int]:
        if self._whole is not None:
            return self._whole.legal(prefix)
        if not prefix:
            return self._legal
        if len(prefix) == 1 and prefix[0] in self._first:
            found = self._after_sorted.get(prefix[0])
            if found is None:
                found = self._after_sorted[prefix[0]] = sorted(self._after(prefix[0]))
            return found
        return []

    def complete(self, prefix: tuple[int, ...]) -> Move | None:
        if self._whole is not None:
            return self._whole.complete(prefix)
        if len(prefix) == 2 and prefix[0] in self._first:
            return self._after(prefix[0]).get(prefix[1])
        return None


def cell_id(corner: int, c: int) -> int:
    dq, dr = divmod(c - corner, STRIDE)
    if not (0 <= dq < SIDE and 0 <= dr < SIDE):
        raise ValueError(f"cell {cell_to_str(c)} lies outside the frame")
    return dq * SIDE + dr


def id_cell(corner: int, action: int) -> int:
    dq, dr = divmod(action, SIDE)
    return corner + dq * STRIDE + dr


class HexagoneActions:
    size = SIZE
    chance_size = len(ROLLS)
    max_steps = 2
    max_score = len(COLOURS) * PIECES_PER_COLOUR
    """The best score alone (every piece captured): the return's bound in the solo puzzle."""

    def encoder(self, state):
        corner = frame(state)

        def encode(move: tuple) -> tuple[int, ...]:
            kind = move[0]
            if kind == SWAP:  # most moves: both cell_id()s written out
                dq, dr = divmod(move[1] - corner, STRIDE)
                eq, er = divmod(move[2] - corner, STRIDE)
                if 0 <= dq < SIDE and 0 <= dr < SIDE and 0 <= eq < SIDE and 0 <= er < SIDE:
                    return (dq * SIDE + dr, eq * SIDE + er)
                return (cell_id(corner, move[1]), cell_id(corner, move[2]))  # raises
            if kind == PLACE:
                return (COLOUR + move[1], cell_id(corner, move[2]))
            if kind == MAIN:
                return (cell_id(corner, move[1]),)
            if kind == AGAIN:
                return (AGAIN_ID,)
            if kind == STOP:
                return (STOP_ID,)
            raise ValueError(f"{move!r} is not a player's move")

        return encode

    def decision(self, state) -> HexagoneDecision:
        return HexagoneDecision(state, self)

    def chance_id(self, outcome: tuple) -> int:
        return _ROLL_INDEX[outcome]

    def label(self, state, action: int) -> str:
        if action < CELLS:
            return "cell " + cell_to_str(id_cell(frame(state), action))
        if action < AGAIN_ID:
            return "colour " + COLOURS[action - COLOUR]
        return "again" if action == AGAIN_ID else "stop"


def action_space(game) -> HexagoneActions:
    return HexagoneActions()
