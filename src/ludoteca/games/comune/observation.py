"""Comune's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn on a 9 x 9 grid ``[r][c]`` of the binding coordinates (cell ``(c, r)``,
``e5`` at ``[4][4]``); the 20 grid points off the hexagon are always 0 (``board`` marks
the 61 that are on it). Everything is from the observer's side: "own" is the observing
player's.
"""

from __future__ import annotations

from .actions import PLACEMENTS
from .flat import PASSES, PIECES, SUPPLY, TO_MOVE
from .geometry import CELLS, PIECES_PER_PLAYER, cells_of


def layout(game):
    return (
        ("pieces", (6, 9, 9)),  # own at angles - / \, then the opponent's
        ("pending", (3, 9, 9)),  # the first piece of the turn under way, by angle
        ("board", (9, 9)),  # 1 on the 61 cells of the board
        # own supply / 35, opponent's supply / 35, passes just made / 2, Light's first
        # turn, the observer is to move, a turn is under way
        ("features", (6,)),
    )


def fill(views, state, player, prefix) -> None:
    s = state.slots()
    pieces = views["pieces"]
    for side, owner in ((0, player), (1, 1 - player)):
        for angle in range(3):
            for cell in cells_of(s[PIECES + 3 * owner + angle]):
                c, r = CELLS[cell]
                pieces[3 * side + angle, r, c] = 1.0
    board = views["board"]
    for c, r in CELLS:
        board[r, c] = 1.0
    if prefix and prefix[0] < PLACEMENTS:
        cell, angle = divmod(prefix[0], 3)
        c, r = CELLS[cell]
        views["pending"][angle, r, c] = 1.0
    f = views["features"]
    f[0] = s[SUPPLY + player] / PIECES_PER_PLAYER
    f[1] = s[SUPPLY + 1 - player] / PIECES_PER_PLAYER
    f[2] = s[PASSES] / 2
    f[3] = float(state.is_opening)
    f[4] = float(not state.is_over and s[TO_MOVE] == player)
    f[5] = float(bool(prefix))
