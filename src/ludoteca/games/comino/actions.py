"""Comino's fixed action ids for the research adapters (:mod:`ludoteca.env`): 81,063.

One id per move, no steps: a Comino turn is one tile on one square, and a position has at
most a few hundred of them.

The table is unbounded, but play is not: the start tile lies at ``(0, 0)`` and each of the
22 turns places at most one tile beside another, so every square a game can reach lies in
the *diamond* ``|x| + |y| <= 22`` (1013 squares, numbered in ``(x, y)`` order). Then

- ``tile * 1013 + square``: place oriented tile ``tile`` (its index in
  :data:`.tiles.ORIENTED`, the 80 distinct orientations grouped by tile, ``0 .. 79``) on
  diamond square ``square``; ids ``0 .. 81039``;
- ``81040 + name``: ``remove NAME``, ``name`` the tile's index in :data:`.tiles.TILES`.

Chance ids (the deal): ``deal NAME`` is the tile's index in :data:`.tiles.DEALT_TILES`
(21 outcomes). A position typed in by hand with a tile beyond the diamond has no ids.
"""

from __future__ import annotations

from bisect import bisect_left

from ludoteca.core.kept import Kept
from ludoteca.core.protocol import State
from ludoteca.env.actions import ChanceEntry, OutcomesById

from .geometry import DEALT_TILES, ORIENTED, ORIENTED_INDEX, ROW, TILES, cell_key, key_square
from .notation import TURNS, Deal, Place, Remove

RADIUS = TURNS
SQUARES: tuple[tuple[int, int], ...] = tuple(
    (x, y)
    for x in range(-RADIUS, RADIUS + 1)
    for y in range(-RADIUS, RADIUS + 1)
    if abs(x) + abs(y) <= RADIUS
)
SQUARE_INDEX = {sq: i for i, sq in enumerate(SQUARES)}
NUM_SQUARES = len(SQUARES)
PLACEMENTS = len(ORIENTED) * NUM_SQUARES
SIZE = PLACEMENTS + len(TILES)
_TILE_INDEX = {name: i for i, name in enumerate(TILES)}
_SQUARE_OF_KEY: list[int | None] = [None] * (ROW * ROW)
"""Each diamond square's index by the engine's int square (:func:`.geometry.cell_key`)."""
for _i, (_x, _y) in enumerate(SQUARES):
    _SQUARE_OF_KEY[cell_key(_x, _y)] = _i
_DEAL_INDEX = {name: i for i, name in enumerate(DEALT_TILES)}


_KNOWN_IDS: dict[int, tuple[int, ...]] = {}
"""The ids of the placements the engine interns (:data:`.state._PLACES`), by ``id()`` of the
object: those objects live as long as the process, so an ``id()`` found here is theirs, and
encoding a position's hundreds of placements is one look-up each."""


def remember_id(place: Place, oriented: int) -> None:
    """Note the ids of an interned placement (the engine calls this as it interns one)."""
    square = SQUARE_INDEX.get((place.x, place.y))
    if square is not None:
        _KNOWN_IDS[id(place)] = (oriented * NUM_SQUARES + square,)


def move_id(move) -> tuple[int, ...]:
    known = _KNOWN_IDS.get(id(move))
    if known is not None:
        return known
    if isinstance(move, Place):
        square = SQUARE_INDEX.get((move.x, move.y))
        if square is None:
            raise ValueError(f"{move} lies beyond the squares a game can reach")
        return (ORIENTED_INDEX[move.tile] * NUM_SQUARES + square,)
    if isinstance(move, Remove):
        return (PLACEMENTS + _TILE_INDEX[move.name],)
    raise ValueError(f"{move!r} is not a player's move")


_PLACE_OF_ID: dict[int, Place] = {}
"""The placement of each id played so far: a move is an immutable value, made once (at most
one per placement id)."""


def id_move(action: int) -> Place | Remove:
    place = _PLACE_OF_ID.get(action)
    if place is not None:
        return place
    if action >= PLACEMENTS:
        return Remove(TILES[action - PLACEMENTS])
    tile, square = divmod(action, NUM_SQUARES)
    x, y = SQUARES[square]
    place = _PLACE_OF_ID[action] = Place(ORIENTED[tile], x, y)
    return place


def _first_ids(mask: int) -> tuple[int, ...]:
    """The first ids (``oriented * NUM_SQUARES``) of the oriented tiles whose bits (in
    :data:`.geometry.ORIENTED` order) ``mask`` sets, ascending."""
    out = []
    m = mask
    while m:
        low = m & -m
        out.append((low.bit_length() - 1) * NUM_SQUARES)
        m ^= low
    return tuple(out)


MASKS_KEPT = 1 << 16
_FIRST_IDS: Kept[int, tuple[int, ...]] = Kept(_first_ids, MASKS_KEPT)
"""The first ids of each mask met: a square's mask is what fits its corners and is in the
hand, so the masks met repeat, and a square's ids are one look-up and one addition each."""


class CominoDecision:
    """A position's legal ids, ascending, straight from the state's fits
    (:func:`legal_ids`): no move is made for an id until it is played."""

    __slots__ = ("_legal",)

    def __init__(self, legal: list[int]) -> None:
        self._legal = legal

    def legal(self, prefix: tuple[int, ...]) -> list[int]:
        return [] if prefix else self._legal

    def complete(self, prefix: tuple[int, ...]) -> Place | Remove | None:
        if len(prefix) != 1:
            return None
        action = prefix[0]
        legal = self._legal
        i = bisect_left(legal, action)
        if i == len(legal) or legal[i] != action:
            return None
        return id_move(action)


def legal_ids(state) -> list[int]:
    """The ids of ``state``'s legal moves, ascending (none unless a player is to move):
    each placement's id from the square's fitting bits, or each removal's when nothing fits.
    ``ValueError`` for a placement beyond the squares a game can reach, as :func:`move_id`."""
    mover = state.to_move
    if mover < 0:
        return []
    square_index = _SQUARE_OF_KEY
    first = _FIRST_IDS
    hand = state.hand_mask(mover)
    # state.fitting(mover), read in the same pass: each frontier square's fits in the hand
    front = state.front.items()
    try:
        ids = [a + square_index[k] for k, fit in front if fit & hand for a in first[fit & hand]]
    except TypeError:  # a square without an index: name it
        for k, _ in front:
            if square_index[k] is None:
                x, y = key_square(k)
                raise ValueError(
                    f"square {x},{y} lies beyond the squares a game can reach"
                ) from None
        raise
    if not ids:
        ids = [PLACEMENTS + _TILE_INDEX[name] for name in state.hands[mover]]
    ids.sort()
    return ids


class CominoActions:
    size = SIZE
    chance_size = len(DEALT_TILES)
    max_steps = 1

    def encoder(self, state):
        return move_id

    def decision(self, state: State) -> CominoDecision:
        """The position's ids without a move listed (see :func:`legal_ids`)."""
        return CominoDecision(legal_ids(state))

    def chance_id(self, outcome: Deal) -> int:
        return _DEAL_INDEX[outcome.name]

    def chance_entry(self, state) -> ChanceEntry:
        """A draw's outcomes by id, pairs, ids and probabilities
        (:data:`ludoteca.env.actions.ChanceEntry`) from the engine's
        :meth:`~.state.CominoState.deal_left`, whose indices in :data:`DEALT_TILES` are the
        chance ids: no list of outcomes mapped id by id, the outcomes by id the engine's
        own tuple indexed by them (:class:`~ludoteca.env.actions.OutcomesById`), and the
        probabilities the engine's own tuple (a deal's 21 draws are most of a PettingZoo
        reset, and half an OpenSpiel game's steps)."""
        left, chances, probabilities = state.deal_left()
        pairs = list(zip(left, probabilities, strict=True))
        return OutcomesById(left, chances), pairs, left, probabilities

    def label(self, state, action: int) -> str:
        return str(id_move(action))


def action_space(game) -> CominoActions:
    return CominoActions()
