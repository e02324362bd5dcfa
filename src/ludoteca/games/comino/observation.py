"""Comino's observation tensor for the research adapters (layout: see :func:`layout`).

The table is drawn in the diamond every game stays in (see :mod:`.actions`): squares
``(x, y)`` with ``|x|, |y| <= 22`` at ``[x + 22][y + 22]`` of a 45 x 45 grid, and the grid
points (tile corners) at ``[px + 22][py + 22]`` of a 46 x 46 grid (point ``(px, py)`` is the
bottom-left corner of square ``(px, py)``). Hands are multi-hot over the 23 tiles in
:data:`.tiles.TILES` order; "own" is the observer's.
"""

from __future__ import annotations

from .actions import RADIUS
from .geometry import TILES
from .notation import DRAWS, TURNS

SQUARE_SIDE = 2 * RADIUS + 1
POINT_SIDE = SQUARE_SIDE + 1
_TILE_INDEX = {name: i for i, name in enumerate(TILES)}
SCORE_SCALE = 100.0


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


def fill(views, state, player, prefix) -> None:
    squares = views["squares"]
    for x, y in state.board:
        if abs(x) <= RADIUS and abs(y) <= RADIUS:
            squares[x + RADIUS, y + RADIUS] = 1.0
    points = views["points"]
    for (px, py), code in state.points.items():
        if code and abs(px) <= RADIUS + 1 and abs(py) <= RADIUS + 1:
            i, j = px + RADIUS, py + RADIUS
            if 0 <= i < POINT_SIDE and 0 <= j < POINT_SIDE:
                points[code - 1, i, j] = 1.0  # codes B 1, R 2, Y 3
    for name in state.hands[player]:
        views["own_hand"][_TILE_INDEX[name]] = 1.0
    for name in state.hands[1 - player]:
        views["other_hand"][_TILE_INDEX[name]] = 1.0
    f = views["features"]
    # at most 1, as the observation space promises: a score past 100 (never seen in play,
    # possible in principle) reads as 1
    f[0] = min(1.0, state.score[player] / SCORE_SCALE)
    f[1] = min(1.0, state.score[1 - player] / SCORE_SCALE)
    f[2] = float(state.draws < DRAWS)
    f[3] = state.draws / DRAWS
    f[4] = state.turns / TURNS
    f[5] = float(state.to_move == player)
