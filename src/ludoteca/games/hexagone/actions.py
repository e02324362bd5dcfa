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

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import compress, repeat
from operator import itemgetter

import numpy as np

from ludoteca.core.kept import Kept
from ludoteca.core.protocol import Move
from ludoteca.env.actions import ChanceEntry, FlatDecision, TrieDecision, outcomes_entry

from .geometry import STRIDE, cell, cell_to_str
from .notation import AGAIN, COLOURS, MAIN, PIECES_PER_COLOUR, PLACE, ROLLS, STOP, SWAP
from .state import SECOND, SWAP_PHASE

SIDE = 44
CELLS = SIDE * SIDE
COLOUR = CELLS
AGAIN_ID = COLOUR + len(COLOURS)
STOP_ID = AGAIN_ID + 1
SIZE = STOP_ID + 1
_ROLL_INDEX = {roll: i for i, roll in enumerate(ROLLS)}
_R_MASK = STRIDE - 1
_Q_SHIFT = STRIDE.bit_length() - 1
"""``c // STRIDE`` is ``c >> _Q_SHIFT`` (a power of two) and ``c % STRIDE`` is ``c & _R_MASK``."""
_ONE_STEP = frozenset((MAIN, AGAIN, STOP))
"""The kinds of move whose ids are one id each."""


_FRAMES_KEPT = 512
_FRAMES: Kept[tuple[int, ...], Frame] = Kept(lambda cells: _new_frame(cells), _FRAMES_KEPT)
"""Frames by the cells of the table in their order: a block keeps its cells (a swap
exchanges colours, not places) for many moves, and the frame and the board's offsets are
worked out once for them."""


def _new_frame(cells: tuple[int, ...]) -> Frame:
    """The frame of ``cells``, grown from that of all but the last if it is kept: a reform's
    placement puts its cell last (a ``dict`` keeps its order), and most leave the corner
    where it was (:meth:`Frame.grown`)."""
    if len(cells) > 1:
        before = _FRAMES.get(cells[:-1])
        if before is not None:
            grown = before.grown(cells)
            if grown is not None:
                return grown
    return Frame(cells)


class Frame:
    """The frame of one set of cells (in one order): its corner, and each cell's offset in
    a plane of the observation (its cell id), in the order of the cells, as an array."""

    __slots__ = ("corner", "_cells", "_ids", "_offsets", "_before", "_last")

    def __init__(self, cells, corner: int | None = None) -> None:
        if corner is not None:  # known to be that of the cells (see grown)
            self.corner = corner
        elif cells:
            q0 = min(cells) // STRIDE - 1
            r0 = min(map(_R_MASK.__and__, cells)) - 1  # c % STRIDE: cells are never negative
            self.corner = q0 * STRIDE + r0
        else:
            self.corner = cell(0, 0)
        self._cells = cells
        self._ids: dict[int, int] | None = None
        self._offsets: np.ndarray | None = None
        self._before: Frame | None = None
        """The frame this one grew from (:meth:`grown`) until the offsets are worked out."""
        self._last = 0
        """The offset of the cell it grew by."""

    def grown(self, cells) -> Frame | None:
        """The frame of ``cells``, this frame's cells and one more after them, when its
        corner is this one (the new cell lies above the smallest ``q`` and ``r``) and the
        cell within it; ``None`` otherwise. Its offsets will be these and the new cell's
        (the positions of a reform are met in turn: these are known when they are asked)."""
        dq, dr = divmod(cells[-1] - self.corner, STRIDE)
        if not (0 < dq < SIDE and 0 < dr < SIDE):
            return None
        out = Frame(cells, self.corner)
        out._before = self
        out._last = dq * SIDE + dr
        return out

    def ids(self) -> dict[int, int]:
        """Each cell's id (:func:`cell_id`); ``ValueError`` if one lies outside the frame."""
        if self._ids is None:
            corner = self.corner
            self._ids = {c: cell_id(corner, c) for c in self._cells}
        return self._ids

    def offsets(self) -> np.ndarray:
        """Each cell's id in the order of the cells, as an array (the observation's)."""
        if self._offsets is None:
            before = self._before
            self._before = None  # the frames a reform grew through are not kept
            if before is not None and before._offsets is not None:
                offsets = self._offsets = np.empty(len(self._cells), np.intp)
                offsets[:-1] = before._offsets
                offsets[-1] = self._last
            elif self._ids is not None:
                self._offsets = np.fromiter(self._ids.values(), np.intp, len(self._cells))
            else:  # cell_id of every cell at once: a frame's first observation
                # c - corner is (q - q0) * STRIDE + r - r0, both parts at least 1 (the
                # corner is one below the smallest of each), so the parts are its bits
                dr = np.fromiter(self._cells, np.intp, len(self._cells))
                dr -= self.corner
                dq = dr >> _Q_SHIFT
                dr &= _R_MASK
                if len(dq) and (dq.max() >= SIDE or dr.max() >= SIDE):
                    self.ids()  # raises, naming the cell outside the frame
                dq *= SIDE
                dq += dr
                self._offsets = dq
        return self._offsets


def frame_of(state) -> Frame:
    """The :class:`Frame` of the pieces on the table (kept for the same cells, and with the
    state's pieces: :attr:`~.state.HexagoneState.pieces_kept`, fresh whenever a piece comes
    or goes, so most positions find it without the cells' tuple hashed)."""
    kept = state.pieces_kept
    found = kept.get(_FRAME)
    if found is None:
        found = kept[_FRAME] = _FRAMES[tuple(state.cells)]
    return found


_FRAME = "frame"
"""Where :func:`frame_of` keeps the frame in the state's ``pieces_kept``."""
_FIRST_IDS = "first ids"
"""Where :class:`SwapDecision` keeps the first ids of the touching pairs there."""


def frame(state) -> int:
    """The packed cell of the frame's corner ``(q0, r0)`` for the pieces on the table."""
    return frame_of(state).corner


class SwapDecision:
    """A swap position's ids read off the engine's flags of legal swaps
    (:meth:`~.state.HexagoneState.swap_flags`) without a move made: the first ids those of
    the distinct first cells of the flagged swaps, and the second ids of a first one those
    of the flagged swaps from its cell. A swap's cells are in ``(q, r)`` order and so are
    their ids, so the swaps in move order give both ascending.

    A mixed roll's swaps are flagged over the touching pairs, which stay while no piece
    comes or goes: the id of each pair's first cell is kept with the state's pieces, and a
    position's first ids are those ids picked by the flags, with no move looked at."""

    __slots__ = ("_moves", "_flags", "_frame", "_legal", "_after")

    def __init__(self, state) -> None:
        moves, flags = state.swap_flags()
        self._moves, self._flags = moves, flags
        self._frame = where = frame_of(state)
        a, b = state.dice
        if a != b:  # the touching pairs: their first ids kept for the same pieces
            kept = state.pieces_kept
            firsts = kept.get(_FIRST_IDS)
            if firsts is None or firsts[0] is not moves:
                # a pair whose piece was taken since the pairs were listed is never
                # flagged, and its cell may lie outside the frame: -1 for it
                get = where.ids().get
                firsts = kept[_FIRST_IDS] = (
                    moves,
                    list(map(get, map(_FIRST, moves), repeat(-1))),
                )
            self._legal = list(dict.fromkeys(compress(firsts[1], flags)))
        else:  # a double's pairs are every two pieces: only the flagged ones looked at
            firsts = dict.fromkeys(map(_FIRST, compress(moves, flags)))
            self._legal = list(map(where.ids().__getitem__, firsts))
        self._after: dict[int, dict[int, tuple]] = {}

    def _seconds(self, first: int) -> dict[int, tuple]:
        found = self._after.get(first)
        if found is None:
            found = {}
            if 0 <= first < CELLS:  # the swaps from its cell: a run of the pairs in order
                c = id_cell(self._frame.corner, first)
                moves = self._moves
                start = bisect_left(moves, c, key=_FIRST)
                end = bisect_right(moves, c, lo=start, key=_FIRST)
                ids = self._frame.ids()
                found = {ids[m[2]]: m for m in compress(moves[start:end], self._flags[start:end])}
            self._after[first] = found
        return found

    def legal(self, prefix: tuple[int, ...]) -> list[int]:
        if not prefix:
            return self._legal
        if len(prefix) == 1:
            return list(self._seconds(prefix[0]))
        return []

    def complete(self, prefix: tuple[int, ...]) -> Move | None:
        if len(prefix) == 2:
            return self._seconds(prefix[0]).get(prefix[1])
        return None


_FIRST = itemgetter(1)


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


_STEADY: dict[tuple, FlatDecision] = {}
"""The decisions of positions whose moves name no cell (``again`` and ``stop``), by their
moves: the same few objects for every such position."""


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

    def decision(self, state):
        """The position's :class:`~ludoteca.env.actions.Decision`: a swap's read off the
        engine's flags (:class:`SwapDecision`), the same one for every ``again``/``stop``
        choice, otherwise :class:`HexagoneDecision`."""
        phase = state.phase
        if phase == SWAP_PHASE:
            return SwapDecision(state)
        if phase == SECOND:
            moves = tuple(state.legal_moves())
            found = _STEADY.get(moves)
            if found is None:
                found = _STEADY[moves] = FlatDecision(moves, self.encoder(state))
            return found
        return HexagoneDecision(state, self)

    chance_id = _ROLL_INDEX.__getitem__
    """A roll's chance id (a dictionary's own look-up: the adapters ask at every roll for
    each of its outcomes)."""

    def chance_entry(self, state) -> ChanceEntry:
        """A roll's :data:`~ludoteca.env.actions.ChanceEntry`, kept by the identity of the
        engine's list of its outcomes (:meth:`.state.HexagoneState.roll_outcomes`, one list
        per set of colours in the block, kept for the process): one look-up a roll, with no
        list of outcomes copied and hashed to find its entry (a roll's outcomes depend only on
        the colours left in the block)."""
        outcomes = state.roll_outcomes()
        entry = _ROLL_ENTRIES.get(id(outcomes))
        if entry is None:
            entry = _ROLL_ENTRIES[id(outcomes)] = (
                outcomes,
                outcomes_entry(self.chance_id, outcomes),
            )
        return entry[1]

    def label(self, state, action: int) -> str:
        if action < CELLS:
            return "cell " + cell_to_str(id_cell(frame(state), action))
        if action < AGAIN_ID:
            return "colour " + COLOURS[action - COLOUR]
        return "again" if action == AGAIN_ID else "stop"

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) the kernel :meth:`new_state` draws with, here
        rather than in an agent's first reset."""
        from .jit import warm_start_blocks

        warm_start_blocks()

    def new_state(self, game, seed: int):
        """A game's start position for the adapters: its block drawn by the compiled kernel
        (:func:`.jit.start_state`), some ten times faster than the engine's generator."""
        from .jit import start_state

        return start_state(game, seed)


_ROLL_ENTRIES: dict[int, tuple[Sequence, ChanceEntry]] = {}
"""Each roll's entry by the ``id`` of the engine's list of its outcomes, with that list
(kept with it, so an ``id`` here can never name another list): at most one per set of
colours, 64."""


def action_space(game) -> HexagoneActions:
    return HexagoneActions()
