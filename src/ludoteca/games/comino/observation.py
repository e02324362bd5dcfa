"""Comino's observation tensor for the research adapters (layout: see :func:`layout`).

The table is drawn in the diamond every game stays in (see :mod:`.actions`): squares
``(x, y)`` with ``|x|, |y| <= 22`` at ``[x + 22][y + 22]`` of a 45 x 45 grid, and the grid
points (tile corners) at ``[px + 22][py + 22]`` of a 46 x 46 grid (point ``(px, py)`` is the
bottom-left corner of square ``(px, py)``; :mod:`.planes` numbers both). Hands are multi-hot
over the 23 tiles in :data:`.tiles.TILES` order; "own" is the observer's.
"""

from __future__ import annotations

import struct

import numpy as np

from ludoteca.core.bit_tables import set_bits_table
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


def _places(start: int) -> list[bytes]:
    """For each of the 4096 values of twelve bits, the flat indices (int64 bytes) of the
    hands' places from ``start`` on that they set: the hands' ones join the table's in its
    one assignment, twelve places a table look-up."""
    return [np.array(places, np.int64).tobytes() for places in set_bits_table(12, start)]


_PLACES = [_places(_OWN + 12 * k) for k in range(4)]
"""The places of the hands' four runs of twelve bits (bits 46 and 47, past the two hands of
23, are never set)."""
_FEATURE_BYTES = struct.Struct("6f")
"""The six features as float32 (the array's own byte order), written into its bytes."""
_FEATURE_AT = 4 * _FEATURES


def fill_flat(flat, state, player, prefix) -> None:
    """The table's ones (the flat indices the state keeps of each tile and its corners,
    :attr:`.state.CominoState.ones`) and the hands' places joined as bytes, set in one
    assignment (a numpy call costs far more than joining a few bytes), and the features
    packed straight into the array's bytes."""
    # both hands as one bit string (the state keeps each as bits), own then other
    bits = state.hand_bits
    hands = bits[player] | bits[1 - player] << _HAND
    first, second, third, fourth = _PLACES
    flat[
        np.frombuffer(
            b"".join(
                (
                    state.ones,
                    first[hands & 0xFFF],
                    second[hands >> 12 & 0xFFF],
                    third[hands >> 24 & 0xFFF],
                    fourth[hands >> 36],
                )
            ),
            np.int64,
        )
    ] = 1.0
    # at most 1, as the observation space promises: a score past 100 (never seen in play,
    # possible in principle) reads as 1
    own = state.score[player]
    other = state.score[1 - player]
    draws = state.draws
    _FEATURE_BYTES.pack_into(
        flat,
        _FEATURE_AT,
        own / SCORE_SCALE if own < SCORE_SCALE else 1.0,
        other / SCORE_SCALE if other < SCORE_SCALE else 1.0,
        draws < DRAWS,
        draws / DRAWS,
        state.turns / TURNS,
        state.to_move == player,
    )
