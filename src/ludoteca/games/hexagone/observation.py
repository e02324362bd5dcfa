"""Hexagone's observation tensor for the research adapters (layout: see :func:`layout`).

The board is drawn in the frame of :mod:`.actions` (44 x 44, ``[q - q0][r - r0]``, the
corner one cell below the block's smallest ``q`` and ``r``), so the same block looks the
same wherever it lies. Captured pieces are listed from the observer on: the observer's
pile first, then the next players' in turn order (rows beyond the number of players are 0).
"""

from __future__ import annotations

import numpy as np

from ludoteca.core.kept import Kept
from ludoteca.env.observation import starts

from .actions import CELLS, COLOUR, SIDE, frame_of
from .notation import COLOURS, DIE_FACES, PIECES_PER_COLOUR
from .state import NO_CAPTURE_LIMIT, OVER, PHASES, ROLL_PHASE, SOLO_ROLLS

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
_KEPT = 4096
_SHOWN: Kept[tuple, tuple[bytes, bytes]] = Kept(lambda shown: _shown(*shown), 16384)
"""The pieces before the piles (a placement's colour, the phase and the dice) and the
features, by what they show: a few thousand in a game, met again and again."""
_COUNTS: Kept[tuple, bytes] = Kept(lambda counts: _counts(counts), _KEPT)
"""A captured pile or the pool by its counts: a player's pile changes only with that
player's capture, so each set of pieces meets piles kept before."""
_NO_PILES = [bytes(4 * len(COLOURS) * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
"""The rows of the players a game has not, by the number it has."""


def fill_flat(flat, state, player, prefix) -> None:
    cells = state.cells
    # the frame's offsets and the piles and pool as the player sees them change only when
    # pieces come or go: kept with the state's pieces (shared by its clones)
    kept = state.pieces_kept
    pieces = kept.get(player)
    if pieces is None:
        pieces = kept[player] = _pieces(state, player, kept)
    offsets, piles, players = pieces
    # each piece's colour plane and frame cell (as actions.cell_id), in one go; kept with
    # the colours on the table (shared by clones), which a roll or a step under way keeps
    board = state.colours_kept
    at = board.get(_BOARD_ONES)
    if at is None:
        at = board[_BOARD_ONES] = np.fromiter(cells.values(), np.intp, len(cells))
        at *= _PLANE  # a 0-d array: half the cost of an int, which numpy converts each time
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
    head, features = _SHOWN[
        colour,
        state.phase,
        state.dice,
        state.rolled,
        state.rolls_left,
        state.since,
        state.player == player,
        players,
    ]
    flat.data.cast("B")[_TAIL:] = head + piles + features


def _pieces(state, player: int, kept: dict) -> tuple[np.ndarray, bytes, int]:
    """The frame's offsets of the cells (``ValueError`` for a piece outside the frame), the
    captured piles from ``player`` on and the pool as their float32 bytes, and the number of
    players. The offsets are the same for every player: the frame's, kept with it."""
    captured = state.captured
    offsets = frame_of(state).offsets()  # worked out once for the frame
    counts = _COUNTS
    rows = [counts[tuple(row)] for row in (*captured[player:], *captured[:player])]
    rows += (_NO_PILES[len(captured)], counts[tuple(state.pool)])
    return offsets, b"".join(rows), len(captured)


_BOARD_ONES = "board"
"""Where the board's ones are kept in :attr:`~.state.HexagoneState.colours_kept`."""
_PLANE = np.array(CELLS)
"""A colour plane's size, as a 0-d array to multiply by."""
_TAIL = 4 * _SELECTED_COLOUR
"""Where the pieces after the board start among the float32 array's bytes."""


def _shown(
    colour: int | None,
    phase: str,
    dice: tuple[int, int] | None,
    rolled: int,
    rolls_left: int | None,
    since: int,
    mover: bool,
    players: int,
) -> tuple[bytes, bytes]:
    """The pieces before the piles and the features (see :func:`_head`, :func:`_features`)."""
    return _head(colour, phase, dice), _features(rolled, rolls_left, since, phase, mover, players)


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


def _counts(counts) -> bytes:
    """Counts of pieces by colour, each / 6, as their float32 bytes."""
    return (np.array(counts, np.float32) / PIECES_PER_COLOUR).tobytes()


def _features(
    rolled: int, rolls_left: int | None, since: int, phase: str, mover: bool, players: int
) -> bytes:
    """Rolls this turn / 2, solo rolls left / 15, turns without a capture / 40, the observer
    is to move (the player of the turn, ``mover``, in a phase where a player moves), players
    / 4 (their float32 bytes)."""
    features = np.array(
        [
            rolled / 2,
            (rolls_left or 0) / SOLO_ROLLS,
            since / NO_CAPTURE_LIMIT,
            float(mover and phase not in _NOBODY),
            players / MAX_PLAYERS,
        ],
        np.float32,
    )
    return features.tobytes()


_NOBODY = (ROLL_PHASE, OVER)
"""The phases where no player moves: the roll (chance) and the end of the game."""
