"""The bounded table of values made once per key (:class:`ludoteca.core.kept.Kept`)."""

from __future__ import annotations

from ludoteca.core.kept import Kept


def test_a_value_is_made_once_per_key_and_the_table_is_emptied_when_full():
    made: list[int] = []

    def make(key: int) -> int:
        made.append(key)
        return key * key

    table: Kept[int, int] = Kept(make, 3)
    assert [table[k] for k in (2, 3, 2, 3)] == [4, 9, 4, 9]
    assert made == [2, 3]
    table[4]
    assert len(table) == 3
    assert table[5] == 25  # full: emptied, then 5 kept alone
    assert dict(table) == {5: 25}
    assert table[2] == 4 and made == [2, 3, 4, 5, 2]
    assert table.get(7) is None and 7 not in table  # only a look-up by [] makes a value
