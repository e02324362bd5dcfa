"""Comino's observation tensor for the research adapters (layout: see :func:`layout`).

The table is drawn in the diamond every game stays in (see :mod:`.actions`): squares
``(x, y)`` with ``|x|, |y| <= 22`` at ``[x + 22][y + 22]`` of a 45 x 45 grid, and the grid
points (tile corners) at ``[px + 22][py + 22]`` of a 46 x 46 grid (point ``(px, py)`` is the
bottom-left corner of square ``(px, py)``). Hands are multi-hot over the 23 tiles in
:data:`.tiles.TILES` order; "own" is the observer's.
"""

from __future__ import annotations

from ludoteca.env.observation import starts

from .actions import RADIUS
from .geometry import TILES
from .notation import DRAWS, TURNS

SQUARE_SIDE = 2 * RADIUS + 1
POINT_SIDE = SQUARE_SIDE + 1
_TILE_INDEX = {name: i for i, name in enumerate(TILES)}
SCORE_SCALE = 100.0
_SQUARE_AT = {
    (x, y): (x + RADIUS) * SQUARE_SIDE + y + RADIUS
    for x in range(-RADIUS, RADIUS + 1)
    for y in range(-RADIUS, RADIUS + 1)
}
"""Each square of the grid's index in the flat array (``squares`` comes first)."""
_POINT_PLANE = POINT_SIDE * POINT_SIDE
_POINT_AT = {
    (px, py): SQUARE_SIDE * SQUARE_SIDE + (px + RADIUS) * POINT_SIDE + py + RADIUS - _POINT_PLANE
    for px in range(-RADIUS, RADIUS + 2)
    for py in range(-RADIUS, RADIUS + 2)
}
"""Each grid point's index in the flat array's ``points`` planes, less one plane (the
colour codes start at 1)."""


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


def fill_flat(flat, state, player, prefix) -> None:
    # one flat index per square, per coloured point on the grid (codes B 1, R 2, Y 3) and
    # per tile in a hand: the ones, written in one numpy assignment
    at = _SQUARE_AT
    ones = [at[xy] for xy in state.board if xy in at]
    at = _POINT_AT
    ones += [code * _POINT_PLANE + at[xy] for xy, code in state.points.items() if code and xy in at]
    ones += [_OWN + _TILE_INDEX[name] for name in state.hands[player]]
    ones += [_OTHER + _TILE_INDEX[name] for name in state.hands[1 - player]]
    flat[ones] = 1.0
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
