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
_HAND_BYTES = (2 * len(TILES) + 7) // 8


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
assert _OWN + len(TILES) == _OTHER and _OTHER + len(TILES) == _FEATURES


def fill_flat(flat, state, player, prefix) -> None:
    # the table's ones: the flat indices the state keeps of each tile and its corners
    # (:attr:`.state.CominoState.ones`), in one assignment
    flat[np.frombuffer(state.ones, np.int64)] = 1.0
    # both hands as one bit string, own then other, spread over their 46 places
    bits = state.hand_bits
    hands = (bits[player] | bits[1 - player] << len(TILES)).to_bytes(_HAND_BYTES, "little")
    flat[_OWN:_FEATURES] = np.unpackbits(
        np.frombuffer(hands, np.uint8), count=_FEATURES - _OWN, bitorder="little"
    )
    # at most 1, as the observation space promises: a score past 100 (never seen in play,
    # possible in principle) reads as 1
    flat[_FEATURES:] = (
        min(1.0, state.score[player] / SCORE_SCALE),
        min(1.0, state.score[1 - player] / SCORE_SCALE),
        float(state.draws < DRAWS),
        state.draws / DRAWS,
        state.turns / TURNS,
        float(state.to_move == player),
    )
