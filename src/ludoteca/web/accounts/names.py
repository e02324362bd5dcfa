"""Names that look like another member's, or like the club's staff, are refused.

A user name is ASCII letters, digits, ``_``, ``.`` and ``-`` (``NAME_RE`` of
:mod:`ludoteca.web.accounts.service`), so the look-alikes that matter are within ASCII:
``aIice`` (capital I) beside ``alice``, ``a1ice``, ``rnary`` beside ``mary``, ``b0b`` beside
``bob``. Following the *skeleton* of Unicode's UTS #39, each name is reduced to what it looks
like, character by character, with the confusables data of ``confusable-homoglyphs``
(Unicode's ``confusables.txt``): two names with one skeleton are one name to a reader. The
skeleton of each member's name is stored (``users.name_skeleton``) so a new name is
compared with all of them by one indexed look-up.

Names that pass for the club's staff (``admin``, ``moderator``, ``ludoteca``, ``root``…)
are reserved, in any of their look-alike spellings.
"""

from __future__ import annotations

from functools import cache

from confusable_homoglyphs import confusables

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
"""The characters a name may hold."""

RESERVED_WITHIN = ("admin", "moderator", "ludoteca", "sysop", "webmaster", "postmaster")
"""Names holding any of these (as they look) are refused: ``admin2``, ``ludoteca-team``."""
RESERVED = frozenset(
    [
        "root",
        "mod",
        "mods",
        "staff",
        "support",
        "system",
        "official",
        "operator",
        "owner",
        "security",
        "abuse",
        "help",
        "info",
        "noreply",
        "no-reply",
        "club",
        "team",
        "anonymous",
        "guest",
        "nobody",
        "null",
        "everyone",
        "computer",
    ]
)
"""Names refused as they are, in any look-alike spelling (``r00t``)."""


def _ascii(text: str) -> str | None:
    text = text.replace("\u200e", "").replace("\u200f", "")
    return text if text and all(c in ALPHABET for c in text) else None


@cache
def _table() -> dict[str, str]:
    """Each character of :data:`ALPHABET` mapped to what it looks like: one representative
    of the characters confusable with it (a lower-case letter where there is one), or the
    several characters it looks like (``m`` as ``rn``)."""
    data = confusables.confusables_data
    parent = {c: c for c in ALPHABET}

    def find(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    multi: dict[str, str] = {}
    for c in ALPHABET:
        for entry in data.get(c, ()):
            other = _ascii(entry["c"])
            if other is None or other == c:
                continue
            if len(other) == 1:
                parent[find(other)] = find(c)
            else:
                multi.setdefault(c, other)
    classes: dict[str, list[str]] = {}
    for c in ALPHABET:
        classes.setdefault(find(c), []).append(c)
    table: dict[str, str] = {}
    for members in classes.values():
        best = min(members, key=lambda m: (not m.islower(), not m.isalpha(), m))
        for m in members:
            table[m] = best
    for c, other in multi.items():
        table[c] = "".join(table.get(o, o) for o in other)
    return table


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for names a reader could take for one another.
    Case is kept until each character is mapped (a capital ``I`` looks like ``l``, its small
    ``i`` does not), then folded, and mapped once more."""
    table = _table()
    once = "".join(table.get(c, c) for c in name).lower()
    return "".join(table.get(c, c) for c in once)[:64]


def _loose(name: str) -> str:
    """The skeleton with ``i`` taken for ``l`` too: close enough for staff names
    (``Adm1n``), too loose for telling members apart."""
    return skeleton(name).replace("i", "l")


@cache
def _reserved_shapes() -> tuple[frozenset[str], tuple[str, ...]]:
    return frozenset(_loose(r) for r in RESERVED), tuple(_loose(w) for w in RESERVED_WITHIN)


def reserved(name: str) -> bool:
    """Whether ``name`` passes for the club's staff (in any look-alike spelling)."""
    shape = _loose(name)
    whole, within = _reserved_shapes()
    return shape in whole or any(word in shape for word in within)
