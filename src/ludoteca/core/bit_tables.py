"""Tables that list a bitboard's set bits a chunk at a time: for games whose boards are ints,
a board's cells (or codes made from them) are a few table look-ups joined, instead of one
step per set bit."""

from __future__ import annotations


def set_bits_table(
    bits: int, shift: int, scale: int = 1, offset: int = 0
) -> tuple[tuple[int, ...], ...]:
    """Each ``bits``-bit chunk -> ``(shift + bit) * scale + offset`` for each of its set
    bits, ascending: the cells of the chunk taken as cells ``shift ..`` (or, with a
    ``scale`` and an ``offset``, codes made from them, as Comune's placements are).

    Built by extending the entry of the chunk less its highest bit: one tuple per entry, so
    importing a game (every command's start-up) stays quick.
    """
    table: list[tuple[int, ...]] = [()]
    for chunk in range(1, 1 << bits):
        high = chunk.bit_length() - 1
        table.append(table[chunk ^ (1 << high)] + ((shift + high) * scale + offset,))
    return tuple(table)
