"""Kuniumi's observation tensor for the research adapters (layout: see :func:`layout`).

Planes are 6 x 6 ``[rank][file]`` (``a1`` at ``[0][0]``). Sides, not players, name the
pieces, because the first player builds both sides in the set-up before anyone has one;
``features`` says which side the observer plays once that is chosen.
"""

from __future__ import annotations

import numpy as np

from ludoteca.env.observation import BOARDS, unpacked_bit

from .flat import CHOOSE_PHASE, FULL, LAND, NO_SIDE, PLAY, SEA, SETUP, SQUARES


def layout(game):
    return (
        ("pieces", (5, 6, 6)),  # Earth God, Sea God, Land tokens, Sea tokens, empty squares
        # phase setup / choose / play; side to move land / sea (in play); the observer's
        # side land / sea (once chosen); next set-up piece E / S / l / s; the observer is
        # the first player; the observer is to move
        ("features", (13,)),
    )


_PHASE = {SETUP: 0, CHOOSE_PHASE: 1, PLAY: 2}
_GATHER = np.array(
    [unpacked_bit(k, sq) for k in range(5) for sq in range(SQUARES)]
    + [unpacked_bit(5, i) for i in range(13)],
    np.intp,
)
"""Where each value is among the bits of six boards unpacked by ``np.unpackbits``: square
``sq`` of plane ``k`` in byte ``sq // 8`` of board ``k``, at ``7 - sq % 8`` (the big bit
order, which unpacks twice as fast as the little and keeps every bit), then the 13
features, every one a flag, as the bits of a sixth board: the whole tensor is one call,
one gather and one assignment."""


def fill_flat(flat, state, player, prefix) -> None:
    land, sea, earth, sea_god = state.land, state.sea, state.earth_god, state.sea_god
    phase = state.phase
    features = 1 << _PHASE[phase]
    if phase == PLAY:
        features |= 1 << 3 + (LAND, SEA).index(state.side)
    first = state.first
    if first != NO_SIDE:
        mine = first if player == 0 else 1 - first
        features |= 1 << 5 + (LAND, SEA).index(mine)
    kind = state.next_setup_kind
    if kind is not None:
        features |= 1 << 7 + kind
    if player == 0:
        features |= 1 << 11
    if state.to_move == player:
        features |= 1 << 12
    boards = np.array(
        [earth, sea_god, land & ~earth, sea & ~sea_god, FULL & ~(land | sea), features], BOARDS
    )
    # square sq of plane k is bit sq of board k; a plane is [rank][file], sq = 6 * rank + file
    flat[:] = np.unpackbits(boards.view(np.uint8)).take(_GATHER)
