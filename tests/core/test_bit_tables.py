"""A bitboard's set bits listed a chunk at a time (:mod:`ludoteca.core.bit_tables`)."""

from __future__ import annotations

from ludoteca.core.bit_tables import set_bits_table


def test_each_chunk_lists_its_set_bits_as_values_ascending():
    for bits, shift, scale, offset in ((8, 0, 1, 0), (8, 16, 3, 2), (12, 24, 1, 0)):
        table = set_bits_table(bits, shift, scale, offset)
        assert len(table) == 1 << bits
        for chunk in (0, 1, 0b1011, (1 << bits) - 1, 0b1000_0001):
            expected = tuple((shift + i) * scale + offset for i in range(bits) if chunk >> i & 1)
            assert table[chunk] == expected
