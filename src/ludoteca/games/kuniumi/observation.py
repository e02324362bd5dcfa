"""Kuniumi's observation tensor for the research adapters (layout: see :func:`layout`).

Planes are 6 x 6 ``[rank][file]`` (``a1`` at ``[0][0]``). Sides, not players, name the
pieces, because the first player builds both sides in the set-up before anyone has one;
``features`` says which side the observer plays once that is chosen.
"""

from __future__ import annotations

import numpy as np

from .flat import CHOOSE_PHASE, FULL, LAND, NO_SIDE, PLAY, SEA, SETUP


def layout(game):
    return (
        ("pieces", (5, 6, 6)),  # Earth God, Sea God, Land tokens, Sea tokens, empty squares
        # phase setup / choose / play; side to move land / sea (in play); the observer's
        # side land / sea (once chosen); next set-up piece E / S / l / s; the observer is
        # the first player; the observer is to move
        ("features", (13,)),
    )


_PHASE = {SETUP: 0, CHOOSE_PHASE: 1, PLAY: 2}
_SIDE = {LAND: 0, SEA: 1}

_RUNS = (
    np.unpackbits(np.arange(1 << 12, dtype="<u2").view(np.uint8), bitorder="little")
    .reshape(-1, 16)[:, :12]
    .astype(np.float32)
    .tobytes()
)
_FLOATS = tuple(_RUNS[48 * chunk : 48 * chunk + 48] for chunk in range(1 << 12))
"""``_FLOATS[chunk]``: twelve bits of a board (lowest first) as the bytes of twelve float32
0s and 1s. A board's 36 squares are three of these, in square order, which is a plane's
``[rank][file]`` order; the 13 features are a twelve and the first float of another."""


def _data(state, player) -> bytes:
    """The tensor's bytes: the five planes and the features, each board's runs of floats
    looked up twelve squares at a time and joined (one numpy call for the array instead of
    an unpacking, a gather and an assignment)."""
    land, sea, earth, sea_god = state.land, state.sea, state.earth_god, state.sea_god
    phase = state.phase
    features = 1 << _PHASE[phase]
    if phase == PLAY:
        features |= 1 << 3 + _SIDE[state.side]
    first = state.first
    if first != NO_SIDE:
        mine = first if player == 0 else 1 - first
        features |= 1 << 5 + _SIDE[mine]
    if phase == SETUP:
        features |= 1 << 7 + state.next_setup_kind
    if player == 0:
        features |= 1 << 11
    if state.to_move == player:
        features |= 1 << 12
    tokens = land & ~earth
    sea_tokens = sea & ~sea_god
    empty = FULL & ~(land | sea)
    t = _FLOATS
    # square sq of plane k is bit sq of board k; a plane is [rank][file], sq = 6 * rank + file
    return b"".join(
        (
            t[earth & 0xFFF],
            t[earth >> 12 & 0xFFF],
            t[earth >> 24],
            t[sea_god & 0xFFF],
            t[sea_god >> 12 & 0xFFF],
            t[sea_god >> 24],
            t[tokens & 0xFFF],
            t[tokens >> 12 & 0xFFF],
            t[tokens >> 24],
            t[sea_tokens & 0xFFF],
            t[sea_tokens >> 12 & 0xFFF],
            t[sea_tokens >> 24],
            t[empty & 0xFFF],
            t[empty >> 12 & 0xFFF],
            t[empty >> 24],
            t[features & 0xFFF],
            t[features >> 12][:4],
        )
    )


def fill_flat(flat, state, player, prefix) -> None:
    flat[:] = np.frombuffer(_data(state, player), np.float32)


def encode_flat(state, player, prefix=()) -> np.ndarray:
    """A new array of the tensor (over a ``bytearray`` of its bytes: writable, the
    agent's to keep)."""
    return np.frombuffer(bytearray(_data(state, player)), np.float32)
