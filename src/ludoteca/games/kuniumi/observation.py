"""Kuniumi's observation tensor for the research adapters (layout: see :func:`layout`).

Planes are 6 x 6 ``[rank][file]`` (``a1`` at ``[0][0]``). Sides, not players, name the
pieces, because the first player builds both sides in the set-up before anyone has one;
``features`` says which side the observer plays once that is chosen.
"""

from __future__ import annotations

import numpy as np

from .flat import CHOOSE_PHASE, FULL, LAND, NO_SIDE, PLAY, SEA, SETUP, SQUARES

_BOARDS = np.dtype("<u8")
"""Little-endian 64-bit boards: their bytes come lowest first on any machine."""


def layout(game):
    return (
        ("pieces", (5, 6, 6)),  # Earth God, Sea God, Land tokens, Sea tokens, empty squares
        # phase setup / choose / play; side to move land / sea (in play); the observer's
        # side land / sea (once chosen); next set-up piece E / S / l / s; the observer is
        # the first player; the observer is to move
        ("features", (13,)),
    )


_PLANES = 5 * SQUARES
"""The planes come first; the 13 features follow them."""
_PHASE = {SETUP: 0, CHOOSE_PHASE: 1, PLAY: 2}


def fill_flat(flat, state, player, prefix) -> None:
    land, sea, earth, sea_god = state.land, state.sea, state.earth_god, state.sea_god
    boards = np.array(
        [earth, sea_god, land & ~earth, sea & ~sea_god, FULL & ~(land | sea)], _BOARDS
    )
    # square sq of plane k is bit sq of board k; a plane is [rank][file], sq = 6 * rank + file
    # (each board's eight bytes unpacked lowest bit first, its first 36 bits kept)
    flat[:_PLANES] = np.unpackbits(
        boards.view(np.uint8).reshape(5, 8), axis=1, count=SQUARES, bitorder="little"
    ).reshape(-1)
    f = [0.0] * 13
    f[_PHASE[state.phase]] = 1.0
    if state.phase == PLAY:
        f[3 + (LAND, SEA).index(state.side)] = 1.0
    if state.first != NO_SIDE:
        mine = state.first if player == 0 else 1 - state.first
        f[5 + (LAND, SEA).index(mine)] = 1.0
    kind = state.next_setup_kind
    if kind is not None:
        f[7 + kind] = 1.0
    f[11] = float(player == 0)
    f[12] = float(state.to_move == player)
    flat[_PLANES:] = f
