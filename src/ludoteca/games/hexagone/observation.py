"""Hexagone's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn in the frame of :mod:`.actions` (44 x 44, ``[q - q0][r - r0]``, the
corner one cell below the block's smallest ``q`` and ``r``), so the same block looks the
same wherever it lies. Captured pieces are listed from the observer on: the observer's
pile first, then the next players' in turn order (rows beyond the number of players are 0).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ludoteca.core.kept import Kept
from ludoteca.env.observation import starts

from .actions import CELLS, COLOUR, SIDE, frame_of
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
_PILES_KEPT = 1024
_HEADS: Kept[tuple, bytes] = Kept(lambda shown: _head(*shown), _PILES_KEPT)
"""The selected colour, phase and dice pieces by what they show (a few hundred at most)."""
_PILES: Kept[tuple, bytes] = Kept(lambda held: _piles(held[1], held[0]), _PILES_KEPT)
"""The captured piece by the observer and the piles: they change only with a capture, so a
game has few, and copying one kept is several times faster than writing it."""
_POOLS: Kept[tuple, bytes] = Kept(lambda waiting: _counts(waiting), _PILES_KEPT)
"""The pool piece by the pieces waiting to be placed back (apart from the captured piles,
which change less often)."""
_FEATURE_VALUES: Kept[tuple, bytes] = Kept(lambda counts: _features(*counts), _PILES_KEPT)
"""The features by their values (rolls this turn, turns without a capture: a few hundred)."""


def fill_flat(flat, state, player, prefix) -> None:
    cells = state.cells
    if cells:  # each piece's colour plane and frame cell (as actions.cell_id), in one go:
        # the cells' ids are kept for the cells (a swap exchanges colours, not places)
        offsets = frame_of(state).offsets()  # ValueError for a piece outside the frame
        at = np.fromiter(cells.values(), np.intp, len(cells))
        at *= CELLS
        at += offsets
        flat[at] = 1.0
    colour = None
    if prefix:
        first = prefix[0]
        if first < CELLS:
            flat[_SELECTED + first] = 1.0
        elif first < COLOUR + len(COLOURS):
            colour = first - COLOUR
    # the pieces after the board, kept as their bytes by what they show, copied into the
    # array's bytes: a byte copy through a memoryview costs a fraction of numpy's slice
    # assignment, and these are three of them
    captured = state.captured
    head = _HEADS[colour, state.phase, state.dice]
    piles = _PILES[player, tuple(map(tuple, captured))]
    pool = _POOLS[tuple(state.pool)]
    counts = (state.rolled, state.rolls_left, state.since, state.to_move == player, len(captured))
    features = _FEATURE_VALUES[counts]
    flat.data.cast("B")[_TAIL:] = head + piles + pool + features


_TAIL = 4 * _SELECTED_COLOUR
"""Where the pieces after the board start among the float32 array's bytes."""


def _head(colour: int | None, phase: str, dice: tuple[int, int] | None) -> bytes:
    """The selected colour (of a placement under way), phase and dice pieces, as the bytes
    of their float32 values."""
    head = np.zeros(_CAPTURED - _SELECTED_COLOUR, np.float32)
    if colour is not None:
        head[colour] = 1.0
    head[_PHASE - _SELECTED_COLOUR + PHASES.index(phase)] = 1.0
    if dice is not None:
        for k in dice:
            head[_DICE - _SELECTED_COLOUR + k] += 0.5
    return head.tobytes()


def _piles(captured: Sequence[Sequence[int]], player: int) -> bytes:
    """The captured piles from the observer on, each count / 6 (their float32 bytes)."""
    rows = [*captured[player:], *captured[:player]]
    rows += [[0] * len(COLOURS)] * (MAX_PLAYERS - len(rows))
    return b"".join(map(_counts, rows))


def _counts(counts) -> bytes:
    """Counts of pieces by colour, each / 6, as their float32 bytes."""
    return (np.array(counts, np.float32) / PIECES_PER_COLOUR).tobytes()


def _features(
    rolled: int, rolls_left: int | None, since: int, to_move: bool, players: int
) -> bytes:
    """Rolls this turn / 2, solo rolls left / 15, turns without a capture / 40, the observer
    is to move, players / 4 (their float32 bytes)."""
    features = np.array(
        [
            rolled / 2,
            (rolls_left or 0) / SOLO_ROLLS,
            since / NO_CAPTURE_LIMIT,
            float(to_move),
            players / MAX_PLAYERS,
        ],
        np.float32,
    )
    return features.tobytes()
