"""Three in a Row's observation tensor: the observer's marks, the other's, the empty squares
(3 planes of 3 x 3, ``[rank][file]``), and whether the observer is to move."""

from __future__ import annotations


def layout(game):
    return (("marks", (3, 3, 3)), ("to_move", (1,)))


def fill(views, state, player, prefix) -> None:
    marks = views["marks"]
    mine = "xo"[player]
    for square, cell in enumerate(state.cells):
        plane = 2 if cell == "." else 0 if cell == mine else 1
        marks[plane, square // 3, square % 3] = 1.0
    views["to_move"][0] = float(state.to_move == player)
