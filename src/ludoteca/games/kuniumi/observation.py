"""Kuniumi's observation tensor for the research adapters (layout: see :func:`layout`).

Planes are 6 x 6 ``[rank][file]`` (``a1`` at ``[0][0]``). Sides, not players, name the
pieces, because the first player builds both sides in the set-up before anyone has one;
``features`` says which side the observer plays once that is chosen.
"""

from __future__ import annotations

from .flat import CHOOSE_PHASE, LAND, NO_SIDE, PLAY, SEA, SETUP, SQUARES


def layout(game):
    return (
        ("pieces", (5, 6, 6)),  # Earth God, Sea God, Land tokens, Sea tokens, empty squares
        # phase setup / choose / play; side to move land / sea (in play); the observer's
        # side land / sea (once chosen); next set-up piece E / S / l / s; the observer is
        # the first player; the observer is to move
        ("features", (13,)),
    )


def _plane(plane, board: int) -> None:
    for sq in range(SQUARES):
        if board >> sq & 1:
            plane[sq // 6, sq % 6] = 1.0


def fill(views, state, player, prefix) -> None:
    p = views["pieces"]
    _plane(p[0], state.earth_god)
    _plane(p[1], state.sea_god)
    _plane(p[2], state.land & ~state.earth_god)
    _plane(p[3], state.sea & ~state.sea_god)
    _plane(p[4], ~(state.land | state.sea) & ((1 << SQUARES) - 1))
    f = views["features"]
    f[(SETUP, CHOOSE_PHASE, PLAY).index(state.phase)] = 1.0
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
