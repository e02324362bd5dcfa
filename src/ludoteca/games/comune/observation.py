"""Comune's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn on a 9 x 9 grid ``[r][c]`` of the binding coordinates (cell ``(c, r)``,
``e5`` at ``[4][4]``); the 20 grid points off the hexagon are always 0 (``board`` marks
the 61 that are on it). Everything is from the observer's side: "own" is the observing
player's.
"""

from __future__ import annotations

import struct
from operator import itemgetter
from typing import Any

import numpy as np

from ludoteca.env.observation import byte_bits, starts, unpacked_bit

from .actions import PLACEMENTS
from .flat import FULL, OVER, PASSES, PIECES, SUPPLY, TO_MOVE, is_opening
from .geometry import CELLS, PIECES_PER_PLAYER


def _gather() -> np.ndarray:
    """Where each value of the ten 9 x 9 planes (six of pieces, three pending, the board)
    is found among the bits of their ten boards unpacked by ``np.unpackbits``: bit ``i`` of
    a board is in its byte ``i // 8``, at ``7 - i % 8`` (the big bit order, twice as quick
    to unpack as the little); a grid point off the hexagon takes bit 63, never set (61
    cells)."""
    where = np.empty((10, 81), np.intp)
    bits = np.arange(len(CELLS))
    for plane in range(10):
        where[plane] = unpacked_bit(plane, 63)
        where[plane, _AT] = unpacked_bit(plane, bits)
    return where.reshape(-1)


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
_AT = np.array([9 * r + c for c, r in CELLS], np.intp)
"""Where each cell lies in a flattened 9 x 9 plane."""
_GATHER = _gather()
_SIDES = (
    itemgetter(*range(PIECES, PIECES + 6)),
    itemgetter(*range(PIECES + 3, PIECES + 6), *range(PIECES, PIECES + 3)),
)
"""The six boards of pieces from the observer's side (player 0, 1): own, then the other's."""
_NO_PENDING: tuple[int, ...] = (0, 0, 0, FULL)
_FEATURE_BYTES = struct.Struct("6f")
"""The six features as float32 (the array's own byte order), written into its bytes."""
_FEATURE_AT = 4 * _FEATURES
_PACK_BOARDS = struct.Struct("<10Q").pack
"""The ten boards as the bytes of :data:`BOARDS` (little-endian), cheaper than an array."""
_BYTE_BITS = byte_bits(np.float32)
"""The planes come as floats without a conversion."""
_GATHER_ALL = np.concatenate([_GATHER, np.full(6, unpacked_bit(0, 63), np.intp)])
""":data:`_GATHER` and six places for the features, read from a bit never set (zeros the
features overwrite)."""


def encode_flat(state, player, prefix=()) -> np.ndarray:
    """A new observation: the planes gathered from the bits of ten boards (the pieces of
    each side at each angle, the pending piece at its angle, every cell) as floats through
    a table of bytes (two numpy calls, no zeroed array to convert into), the features
    packed straight into the array's bytes (a numpy call costs more than packing six
    floats)."""
    s = state._s  # read only: the state's own array, not the copy slots() gives
    tail = _NO_PENDING
    if prefix and prefix[0] < PLACEMENTS:
        cell, angle = divmod(prefix[0], 3)
        pending = [0, 0, 0, FULL]
        pending[angle] = 1 << cell
        tail = tuple(pending)
    boards = np.frombuffer(_PACK_BOARDS(*_SIDES[player](s), *tail), np.uint8)
    flat: Any = _BYTE_BITS.take(boards, axis=0).take(_GATHER_ALL)  # a buffer to pack into
    _FEATURE_BYTES.pack_into(
        flat,
        _FEATURE_AT,
        s[SUPPLY + player] / PIECES_PER_PLAYER,
        s[SUPPLY + 1 - player] / PIECES_PER_PLAYER,
        s[PASSES] / 2,
        is_opening(s),
        not s[OVER] and s[TO_MOVE] == player,
        bool(prefix),
    )
    return flat


def fill_flat(flat, state, player, prefix) -> None:
    """:func:`encode_flat` written into ``flat`` (OpenSpiel's observer keeps its array)."""
    flat[:] = encode_flat(state, player, prefix)
