"""Geometry of the Comune board: the 61 cells, their names, bits and neighbours.

Cells use the binding coordinates of the rules file: ``(c, r)`` with ``0 <= c, r <= 8`` and
``|c - r| <= 4``, written ``a1`` .. ``i9``. Each cell also has a compact *index* 0..60
(row by row from row 1, letters ascending), which is its bit in every bitboard: a set of
cells is a Python ``int`` below ``2**61``, so it also fits a signed 64-bit integer for the
compiled kernel.

Everything here is computed once at import; the hot paths only index the tuples.
"""

from __future__ import annotations

from ludoteca.core.bit_tables import set_bits_table
from ludoteca.core.messages import Text

SIDE = 5
"""Cells on each side of the hexagon."""

NUM_CELLS = 61
NUM_ANGLES = 3
PIECES_PER_PLAYER = 35

ANGLE_SYMBOLS = ("-", "/", "\\")
"""Angle index -> notation symbol, in the binding output order ``-``, ``/``, ``\\``."""

ANGLE_ALIASES = {"-": 0, "/": 1, "\\": 2, "h": 0, "r": 1, "f": 2}
"""Accepted angle characters on input: the symbols and the shell-friendly letters."""

ANGLE_NAMES = (Text("horizontal"), Text("rising"), Text("falling"))

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
"""The six neighbour offsets ``(dc, dr)`` of the rules file."""

ANGLE_AXES = ((1, 0), (1, 1), (0, 1))
"""The grid direction each angle's long axis points along (``-``, ``/``, ``\\``)."""


def on_board(c: int, r: int) -> bool:
    return 0 <= c <= 8 and 0 <= r <= 8 and abs(c - r) <= SIDE - 1


CELLS: tuple[tuple[int, int], ...] = tuple(
    (c, r) for r in range(9) for c in range(9) if on_board(c, r)
)
"""Index -> ``(c, r)``."""

INDEX: dict[tuple[int, int], int] = {cell: i for i, cell in enumerate(CELLS)}
"""``(c, r)`` -> index."""

CELL_NAMES: tuple[str, ...] = tuple(f"{'abcdefghi'[c]}{r + 1}" for c, r in CELLS)
"""Index -> binding name (``e5``)."""

NAME_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}

FULL: int = (1 << NUM_CELLS) - 1
"""The bitboard of every cell."""

NEIGH: tuple[int, ...] = tuple(
    sum(1 << INDEX[(c + dc, r + dr)] for dc, dr in DIRECTIONS if on_board(c + dc, r + dr))
    for c, r in CELLS
)
"""Index -> bitboard of its neighbours (2 to 6 cells)."""

ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (_, r) in enumerate(CELLS) if r == row) for row in range(9)
)
"""Row ``r`` (0 = row 1) -> the indices of its cells, letters ascending."""

CENTRE = INDEX[(4, 4)]


_CHUNKS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    set_bits_table(12, shift) for shift in range(0, len(CELLS), 12)
)
"""``_CHUNKS[k][chunk]``: the cell indices of ``chunk`` taken as bits ``12k .. 12k+11``."""


def cells_of(mask: int) -> tuple[int, ...]:
    """The indices of the cells in a bitboard, ascending (move lists, rendering).

    Twelve bits at a time through a table: six look-ups instead of one step per cell.
    """
    c = _CHUNKS
    return (
        c[0][mask & 0xFFF]
        + c[1][mask >> 12 & 0xFFF]
        + c[2][mask >> 24 & 0xFFF]
        + c[3][mask >> 36 & 0xFFF]
        + c[4][mask >> 48 & 0xFFF]
        + c[5][mask >> 60]
    )


_CODE_CHUNKS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(set_bits_table(8, shift, 3, angle) for shift in range(0, 64, 8)) for angle in range(3)
)
"""``_CODE_CHUNKS[angle][k][chunk]``: the codes of ``chunk`` taken as bits ``8k .. 8k+7``
(eight bits, not twelve: 6,144 small tuples, built in a couple of milliseconds)."""


def codes_of(mask: int, angle: int) -> tuple[int, ...]:
    """The placement codes (``cell * 3 + angle``) of the cells in a bitboard, ascending:
    :func:`cells_of` with the code worked out in the table, not once per cell (the
    research adapters list every placement of each turn)."""
    c = _CODE_CHUNKS[angle]
    return (
        c[0][mask & 0xFF]
        + c[1][mask >> 8 & 0xFF]
        + c[2][mask >> 16 & 0xFF]
        + c[3][mask >> 24 & 0xFF]
        + c[4][mask >> 32 & 0xFF]
        + c[5][mask >> 40 & 0xFF]
        + c[6][mask >> 48 & 0xFF]
        + c[7][mask >> 56]
    )
