"""Hexagone's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn in the frame of :mod:`.actions` (44 x 44, ``[q - q0][r - r0]``, the
corner one cell below the block's smallest ``q`` and ``r``), so the same block looks the
same wherever it lies. Captured pieces are listed from the observer on: the observer's
pile first, then the next players' in turn order (rows beyond the number of players are 0).
"""

from __future__ import annotations

from ludoteca.env.observation import starts

from .actions import CELLS, COLOUR, SIDE, frame
from .geometry import STRIDE
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


_BOARD, _SELECTED, _SELECTED_COLOUR, _PHASE, _DICE, _CAPTURED, _POOL, _FEATURES = starts(
    layout(None)
).values()
_R_MASK = STRIDE - 1
_TAIL = _SELECTED_COLOUR
"""From the selected colour on, every piece is small: written as one list."""


def fill_flat(flat, state, player, prefix) -> None:
    cells = state.cells
    if cells:  # each piece's colour plane and frame cell (as actions.cell_id), in one go
        corner = frame(state)  # one below the smallest q and r: every offset is positive
        if (max(cells) - corner) // STRIDE >= SIDE or max(
            map(_R_MASK.__and__, cells)
        ) - corner % STRIDE >= SIDE:
            raise ValueError("a piece lies outside the frame")
        flat[
            [
                k * CELLS + (c - corner) // STRIDE * SIDE + (c - corner) % STRIDE
                for c, k in cells.items()
            ]
        ] = 1.0
    tail = [0.0] * (flat.size - _TAIL)
    if prefix:
        first = prefix[0]
        if first < CELLS:
            flat[_SELECTED + first] = 1.0
        elif first < COLOUR + len(COLOURS):
            tail[_SELECTED_COLOUR - _TAIL + first - COLOUR] = 1.0
    tail[_PHASE - _TAIL + PHASES.index(state.phase)] = 1.0
    if state.dice is not None:
        for k in state.dice:
            tail[_DICE - _TAIL + k] += 0.5
    n = len(state.captured)
    at = _CAPTURED - _TAIL
    for pile in state.captured[player:] + state.captured[:player]:  # from the observer on
        tail[at : at + len(pile)] = [x / PIECES_PER_COLOUR for x in pile]
        at += len(COLOURS)
    at = _POOL - _TAIL
    tail[at : at + len(COLOURS)] = [x / PIECES_PER_COLOUR for x in state.pool]
    tail[_FEATURES - _TAIL :] = [
        state.rolled / 2,
        (state.rolls_left or 0) / SOLO_ROLLS,
        state.since / NO_CAPTURE_LIMIT,
        float(state.to_move == player),
        n / MAX_PLAYERS,
    ]
    flat[_TAIL:] = tail
