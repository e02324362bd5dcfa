"""Comune's whole turns as a lazy sequence: counted, indexed and iterated without listing them.

When both players have pieces on the board, a turn may be any unordered pair of placements at
different angles: up to about 10,000 turns, of which a random player, a perft count or a
``len()`` needs one or none. :class:`Turns` keeps only the placement cells per angle and works
out the ``k``-th turn by arithmetic, in the very order a list would hold them (``pass``, the
single placements by angle then cell, then the pairs by angle pair, first piece, second
piece). It is a :class:`~collections.abc.Sequence` of turn values, equal to the list of the
same turns, and is turned into one (cached) only when iterated or searched.

Once this process has compiled Comune's kernel, the states list :class:`CompiledTurns`
instead, which count and index the turns with the kernel's :func:`.flat.turn_count` and
:func:`.flat.nth_turn` (one call each, nothing listed; see :func:`use_compiled`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import overload

from . import flat
from .geometry import cells_of
from .notation import PASS, STRIDE


class Turns(Sequence[int]):
    """Every distinct legal turn of a position, worked out on demand.

    ``masks[angle]``: the cells where the side to move may place at ``angle``, as a bitboard;
    ``pairs``: whether two-piece turns are allowed. The cells of an angle are listed only
    when an index needs them.
    """

    __slots__ = ("_masks", "_pairs", "_cells", "_singles", "_sizes", "_len", "_list", "_set")

    def __init__(self, masks: tuple[int, int, int], pairs: bool) -> None:
        self._masks = masks
        self._pairs = pairs
        self._cells: list[tuple[int, ...] | None] = [None, None, None]
        m0, m1, m2 = masks
        n0, n1, n2 = m0.bit_count(), m1.bit_count(), m2.bit_count()
        self._singles = 1 + n0 + n1 + n2
        if pairs:  # how many pairs at angles (0, 1), (0, 2), (1, 2): one per two cells
            self._sizes = (
                n0 * n1 - (m0 & m1).bit_count(),
                n0 * n2 - (m0 & m2).bit_count(),
                n1 * n2 - (m1 & m2).bit_count(),
            )
        else:
            self._sizes = (0, 0, 0)
        self._len = self._singles + self._sizes[0] + self._sizes[1] + self._sizes[2]
        self._list: list[int] | None = None
        self._set: frozenset[int] | None = None

    def _cells_at(self, angle: int) -> tuple[int, ...]:
        cells = self._cells[angle]
        if cells is None:
            cells = self._cells[angle] = cells_of(self._masks[angle])
        return cells

    def placement_cells(self) -> int:
        """The cells some turn places on, as a bitboard: those of the single placements,
        which hold every pair's two cells too."""
        m0, m1, m2 = self._masks
        return m0 | m1 | m2

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if type(index) is int:
            k = index
        elif isinstance(index, slice):
            return self.as_list()[index]
        else:
            k = operator.index(index)  # TypeError for anything not an integer
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError("turn index out of range")
        if k == 0:
            return PASS
        if k < self._singles:
            k -= 1
            for angle in range(3):
                cells = self._cells_at(angle)
                if k < len(cells):
                    return 1 + cells[k] * 3 + angle
                k -= len(cells)
        k -= self._singles
        s01, s02, _ = self._sizes
        if k < s01:
            a, b = 0, 1
        elif k < s01 + s02:
            k -= s01
            a, b = 0, 2
        else:
            k -= s01 + s02
            a, b = 1, 2
        # the k-th pair of angles a < b, first piece at a, second at b: written out here, as
        # a random player asks for one pair of every position it passes through. The first
        # piece on its i-th cell comes after i * nb pairs, less one for each earlier first
        # cell that is also a b cell (a cell takes one piece). That count is at most k, so
        # the search starts at k // nb and moves up a step or two.
        known, masks = self._cells, self._masks
        lows = known[a]
        if lows is None:
            lows = known[a] = cells_of(masks[a])
        highs = known[b]
        if highs is None:
            highs = known[b] = cells_of(masks[b])
        both = masks[a] & masks[b]
        nb = len(highs)
        i = k // nb
        last = len(lows) - 1
        while i < last and (i + 1) * nb - (both & ((1 << lows[i + 1]) - 1)).bit_count() <= k:
            i += 1
        cell = lows[i]
        below = (1 << cell) - 1
        j = k - i * nb + (both & below).bit_count()
        if both >> cell & 1 and j >= (masks[b] & below).bit_count():
            j += 1  # skip the second piece's own cell: it cannot take both pieces
        return 1 + cell * 3 + a + STRIDE * (1 + highs[j] * 3 + b)

    def as_list(self) -> list[int]:
        """Every turn in order, as a list (made once, then kept)."""
        if self._list is None:
            moves = [PASS]
            for angle in range(3):
                moves.extend([1 + cell * 3 + angle for cell in self._cells_at(angle)])
            for (a, b), size in zip(((0, 1), (0, 2), (1, 2)), self._sizes, strict=True):
                if not size:
                    continue
                highs = [STRIDE * (1 + cell * 3 + b) for cell in self._cells_at(b)]
                for cell in self._cells_at(a):
                    low = 1 + cell * 3 + a
                    same = STRIDE * (1 + cell * 3 + b)
                    moves.extend([low + high for high in highs if high != same])
            self._list = moves
        return self._list

    def __iter__(self) -> Iterator[int]:
        return iter(self.as_list())

    def __reversed__(self) -> Iterator[int]:
        return reversed(self.as_list())

    def __contains__(self, move: object) -> bool:
        if self._set is None:
            self._set = frozenset(self.as_list())
        return move in self._set

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Turns):
            return self.as_list() == other.as_list()
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._len and self.as_list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return f"<{self._len} Comune turns>"


_turn_count = flat.turn_count
_nth_turn = flat.nth_turn


def use_compiled(kernel) -> None:
    """Count and index :class:`CompiledTurns` with the compiled kernel's functions (the same
    source as the plain ones; :mod:`.jit` calls this through :func:`.state.use_compiled`)."""
    global _turn_count, _nth_turn
    _turn_count = kernel.turn_count
    _nth_turn = kernel.nth_turn


class CompiledTurns(Turns):
    """:class:`Turns` counted and indexed by :func:`.flat.turn_count` and :func:`.flat.nth_turn`
    compiled: a random player's ``len`` and index are one call each, where the plain class
    lists the cells of two angles in Python. Listed whole (iteration, ``in``) as the plain
    class lists them."""

    __slots__ = ()

    def __init__(self, masks: tuple[int, int, int], pairs: bool) -> None:
        self._masks = masks
        self._pairs = pairs
        self._len = _turn_count(masks[0], masks[1], masks[2], pairs)
        self._list = None
        self._set = None

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.as_list()[index]
        k = index if type(index) is int else operator.index(index)
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError("turn index out of range")
        m0, m1, m2 = self._masks
        return _nth_turn(m0, m1, m2, self._pairs, k)

    def as_list(self) -> list[int]:
        if self._list is None:
            self._list = Turns(self._masks, self._pairs).as_list()
        return self._list
