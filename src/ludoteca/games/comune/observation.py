"""Comune's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn on a 9 x 9 grid ``[r][c]`` of the binding coordinates (cell ``(c, r)``,
``e5`` at ``[4][4]``); the 20 grid points off the hexagon are always 0 (``board`` marks
the 61 that are on it). Everything is from the observer's side: "own" is the observing
player's.
"""

from __future__ import annotations

import numpy as np

from ludoteca.env.observation import starts

from .actions import PLACEMENTS
from .flat import PASSES, PIECES, SUPPLY, TO_MOVE
from .geometry import CELLS, PIECES_PER_PLAYER

_SHIFTS = np.arange(len(CELLS), dtype=np.uint64)
"""Each cell's bit, to spread six boards over their planes in one numpy expression."""
_AT = np.array([9 * r + c for c, r in CELLS], np.intp)
"""Where each cell lies in a flattened 9 x 9 plane."""
_BOARD = np.zeros(81, np.float32)
_BOARD[_AT] = 1.0


def layout(game):
    return (
        ("pieces", (6, 9, 9)),  # own at angles - / \, then the opponent's
        ("pending", (3, 9, 9)),  # the first piece of the turn under way, by angle
        ("board", (9, 9)),  # 1 on the 61 cells of the board
        # own supply / 35, opponent's supply / 35, passes just made / 2, Light's first
        # turn, the observer is to move, a turn is under way
        ("features", (6,)),
    )


_PIECES, _PENDING, _BOARD_AT, _FEATURES = starts(layout(None)).values()


def fill_flat(flat, state, player, prefix) -> None:
    s = state.slots()
    own, other = PIECES + 3 * player, PIECES + 3 * (1 - player)
    boards = np.array(s[own : own + 3] + s[other : other + 3], np.uint64)
    flat[_PIECES:_PENDING].reshape(6, 81)[:, _AT] = (boards[:, None] >> _SHIFTS) & np.uint64(1)
    flat[_BOARD_AT:_FEATURES] = _BOARD
    if prefix and prefix[0] < PLACEMENTS:
        cell, angle = divmod(prefix[0], 3)
        flat[_PENDING + 81 * angle + _AT[cell]] = 1.0
    flat[_FEATURES:] = (
        s[SUPPLY + player] / PIECES_PER_PLAYER,
        s[SUPPLY + 1 - player] / PIECES_PER_PLAYER,
        s[PASSES] / 2,
        float(state.is_opening),
        float(not state.is_over and s[TO_MOVE] == player),
        float(bool(prefix)),
    )
