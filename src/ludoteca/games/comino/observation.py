"""Comino's observation tensor for the research adapters (layout: see :func:`layout`).

The table is drawn in the diamond every game stays in (see :mod:`.actions`): squares
``(x, y)`` with ``|x|, |y| <= 22`` at ``[x + 22][y + 22]`` of a 45 x 45 grid, and the grid
points (tile corners) at ``[px + 22][py + 22]`` of a 46 x 46 grid (point ``(px, py)`` is the
bottom-left corner of square ``(px, py)``; :mod:`.planes` numbers both). Hands are multi-hot
over the 23 tiles in :data:`.tiles.TILES` order; "own" is the observer's.
"""

from __future__ import annotations

import numpy as np

from ludoteca.env.observation import starts

from .geometry import TILES
from .notation import DRAWS, TURNS
from .planes import POINT_SIDE, SQUARE_SIDE

SCORE_SCALE = 100.0
_HAND = len(TILES)


def layout(game):
    return (
        ("squares", (SQUARE_SIDE, SQUARE_SIDE)),  # 1 where a tile lies
        ("points", (3, POINT_SIDE, POINT_SIDE)),  # each grid point's colour: blue, red, yellow
        ("own_hand", (len(TILES),)),
        ("other_hand", (len(TILES),)),
        # own score / 100, opponent's score / 100, the deal is under way, deal draws made
        # / 21, turns played / 22, the observer is to move
        ("features", (6,)),
    )


_SQUARES, _POINTS, _OWN, _OTHER, _FEATURES = starts(layout(None)).values()
assert _OWN + _HAND == _OTHER and _OTHER + _HAND == _FEATURES and _FEATURES - _OWN <= 48


_ROWS = list(
    np.unpackbits(
        np.arange(1 << 12, dtype="<u2").view(np.uint8).reshape(-1, 2), axis=1, bitorder="little"
    )[:, :12].astype(np.float32)
)
"""Twelve bits as twelve 0/1 floats, for each of the 4096 values: the hands' places are
written twelve at a time (cheaper than unpacking their bytes at every observation)."""


def fill_flat(flat, state, player, prefix) -> None:
    # the table's ones: the flat indices the state keeps of each tile and its corners
    # (:attr:`.state.CominoState.ones`), in one assignment
    flat[np.frombuffer(state.ones, np.int64)] = 1.0
    # both hands as one bit string (the state keeps each as bits), own then other, twelve
    # places at a time
    bits = state.hand_bits
    hands = bits[player] | bits[1 - player] << _HAND
    rows = _ROWS
    flat[_OWN : _OWN + 12] = rows[hands & 0xFFF]
    flat[_OWN + 12 : _OWN + 24] = rows[hands >> 12 & 0xFFF]
    flat[_OWN + 24 : _OWN + 36] = rows[hands >> 24 & 0xFFF]
    flat[_OWN + 36 : _FEATURES] = rows[hands >> 36][: _FEATURES - _OWN - 36]
    # at most 1, as the observation space promises: a score past 100 (never seen in play,
    # possible in principle) reads as 1
    own = state.score[player]
    other = state.score[1 - player]
    draws = state.draws
    flat[_FEATURES:] = (
        own / SCORE_SCALE if own < SCORE_SCALE else 1.0,
        other / SCORE_SCALE if other < SCORE_SCALE else 1.0,
        draws < DRAWS,
        draws / DRAWS,
        state.turns / TURNS,
        state.to_move == player,
    )
