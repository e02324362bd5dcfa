"""Kuniumi's fixed action ids for the research adapters (:mod:`ludoteca.env`).

The engine's move values already are a fixed integer space (see :mod:`.flat`), so an id is
the move value itself: 1442 ids, one move each.

- ``0 .. 143``: set-up placement ``kind * 36 + square`` (kinds E, S, l, s; square
  ``rank * 6 + file``, ``a1`` = 0, ``f6`` = 35);
- ``144``, ``145``: ``choose land``, ``choose sea``;
- ``146 + 36 * origin + destination``: the God's move.
"""

from __future__ import annotations

from .flat import NUM_ACTIONS, SQUARES
from .notation import move_to_str


def _same(move: int) -> tuple[int, ...]:
    return (move,)


_ONES = tuple(bytes(chunk >> i & 1 for i in range(12)) for chunk in range(1 << 12))
"""``_ONES[chunk]``: twelve squares of a board (lowest first) as twelve mask bytes."""


class KuniumiActions:
    size = NUM_ACTIONS
    chance_size = 0
    max_steps = 1
    ids_are_moves = True
    moves_ascending = True  # legal_moves() lists squares lowest first, after one base

    def encoder(self, state):
        return _same

    def chance_id(self, outcome) -> int:
        raise ValueError("Kuniumi has no chance")

    def label(self, state, action: int) -> str:
        return move_to_str(action)

    def legal_mask(self, state) -> bytearray:
        """A byte for each id, 1 where legal: the engine's ``(base, squares)``, its 36
        squares set twelve at a time from a table (no list of ids made)."""
        base, squares = state.legal_squares()
        mask = bytearray(NUM_ACTIONS)
        ones = _ONES
        mask[base : base + SQUARES] = (
            ones[squares & 0xFFF] + ones[squares >> 12 & 0xFFF] + ones[squares >> 24]
        )
        return mask

    def warm_up(self) -> None:
        """States step God moves and the set-up with the compiled kernel (:mod:`.jit`,
        the same functions as :mod:`.flat`; loaded from numba's cache after the first)."""
        from .jit import compiled

        compiled()


def action_space(game) -> KuniumiActions:
    return KuniumiActions()
