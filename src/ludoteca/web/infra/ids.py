"""Numbers in paths (game ids, move numbers): the ``{name:id}`` path convertor.

A path such as ``/games/{pk:id}`` matches only a plain decimal number from 0 to
:data:`MAX_ID`, the largest value the database's integer columns hold (PostgreSQL's
``integer`` is 32 bits). Anything else, ``/games/abc`` or ``/games/9223372036854775808``,
matches no route and is answered like any unknown page: 404. Without this, an id too large
for the column reached the database and failed there (a 500 on PostgreSQL and on SQLite
past 64 bits), and a word in place of a number was a "bad field" (400) rather than a page
that does not exist.

The convertor is registered when :mod:`ludoteca.web` is imported, before any route is made.
"""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor

MAX_ID = 2**31 - 1
"""The largest id a path may name: PostgreSQL's ``integer``, the type of the id columns."""


def up_to(limit: int) -> str:
    """A regular expression for the decimal numbers 0..``limit`` without leading zeros.

    Every number with fewer digits than ``limit``, then, for each digit of ``limit``, the
    numbers that share its digits before it and are smaller at it (any digits after).
    """
    digits = str(limit)
    width = len(digits)
    parts = ["0"] if width == 1 else ["0", f"[1-9][0-9]{{0,{width - 2}}}"]
    for i, d in enumerate(digits):
        low = 1 if i == 0 else 0
        top = int(d) - 1
        if top >= low:
            rest = width - i - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            parts.append(f"{digits[:i]}[{low}-{top}]{tail}")
    parts.append(digits)
    return "(?:" + "|".join(parts) + ")"


class IdConvertor(Convertor[int]):
    """``{name:id}``: a whole number the database can hold; nothing else matches."""

    regex = up_to(MAX_ID)

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        value = int(value)
        if not 0 <= value <= MAX_ID:
            raise ValueError(f"{value} is not an id (0..{MAX_ID})")
        return str(value)


register_url_convertor("id", IdConvertor())
