"""Hexagone's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn in the frame of :mod:`.actions` (44 x 44, ``[q - q0][r - r0]``, the
corner one cell below the block's smallest ``q`` and ``r``), so the same block looks the
same wherever it lies. Captured pieces are listed from the observer on: the observer's
pile first, then the next players' in turn order (rows beyond the number of players are 0).
"""

from __future__ import annotations

from .actions import CELLS, COLOUR, SIDE, cell_id, frame
from .notation import COLOURS, DIE_FACES, PIECES_PER_COLOUR
from .state import NO_CAPTURE_LIMIT, PHASES, SOLO_ROLLS

MAX_PLAYERS = 4


def layout(game):
    return (
        ("board", (len(COLOURS), SIDE, SIDE)),  # one plane per colour R O Y G B P W
        ("selected", (SIDE, SIDE)),  # the first cell of a swap under way
        ("selected_colour", (len(COLOURS),)),  # the colour of a reform placement under way
        ("phase", (len(PHASES),)),  # roll, swap, second, main, reform, over
        ("dice", (DIE_FACES,)),  # the current roll: 0.5 a die per colour (1 for a double)
        ("captured", (MAX_PLAYERS, len(COLOURS))),  # pieces / 6, from the observer on
        ("pool", (len(COLOURS),)),  # pieces waiting to be placed back / 6
        # rolls this turn / 2, solo rolls left / 15, turns without a capture / 40, the
        # observer is to move, players / 4
        ("features", (5,)),
    )


def fill(views, state, player, prefix) -> None:
    corner = frame(state)
    board = views["board"]
    for c, k in state.cells.items():
        i = cell_id(corner, c)
        board[k, i // SIDE, i % SIDE] = 1.0
    if prefix:
        first = prefix[0]
        if first < CELLS:
            views["selected"][first // SIDE, first % SIDE] = 1.0
        elif first < COLOUR + len(COLOURS):
            views["selected_colour"][first - COLOUR] = 1.0
    views["phase"][PHASES.index(state.phase)] = 1.0
    if state.dice is not None:
        for k in state.dice:
            views["dice"][k] += 0.5
    n = len(state.captured)
    for row in range(n):
        pile = state.captured[(player + row) % n]
        views["captured"][row] = [x / PIECES_PER_COLOUR for x in pile]
    views["pool"][:] = [x / PIECES_PER_COLOUR for x in state.pool]
    f = views["features"]
    f[0] = state.rolled / 2
    f[1] = (state.rolls_left or 0) / SOLO_ROLLS
    f[2] = state.since / NO_CAPTURE_LIMIT
    f[3] = float(state.to_move == player)
    f[4] = n / MAX_PLAYERS
