"""The Comino state: the deal, placements, forced removals, colour-area scoring.

Representation, chosen so that move generation never looks beyond the edge of the table:

* ``board`` maps a square ``(x, y)`` to the oriented tile lying there;
* the grid is kept again by int squares (:func:`cell_key`; a grid point has the key of the
  square whose bottom-left corner it is), where a neighbour is one addition away:
  ``cells`` maps a square to its oriented tile's index, ``codes`` every grid point some
  tile touches to its colour code (a placement fixes four points; an undo recomputes only
  those four), and ``front`` maps each empty square sharing a side with a tile (the only
  squares a placement may use) to what fits it: its four corner codes index
  :data:`~.tiles.FIT_MASK`, whose bits ``&`` the hand's bits are exactly the placements
  there, each distinct orientation once. A tile put or taken back changes the corners of
  the nine squares around it only, and only those are worked out again (``points`` and
  ``frontier`` give the grid by ``(x, y)``);
* colour areas, which score, are kept as they grow, as a forest of grid points joined by
  size (``parent``, a root holding minus its area's size; a point has one colour, so one
  forest serves all three):
  a tile's corners of one colour lie in one area, so putting a tile joins, for each of its
  colours, the areas of its corners of that colour that some tile touched already, and it
  scores the joined area's tiles less its own. Each put's joins are kept (``joins``), so
  that taking the tile back undoes exactly them.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache

from ludoteca.core.errors import IllegalMoveError, MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE, TERMINAL, Result, State, joined_names

from .actions import remember_id
from .geometry import (
    COLOUR_CODE,
    COLOUR_NAMES,
    CORNER_NAMES,
    CORNER_OFFSETS,
    DEALT_TILES,
    FIRST_TILE,
    FIT_MASK,
    NAME_MASK,
    ORIENTED,
    ORIENTED_INDEX,
    ORIENTED_NAME,
    REACH,
    ROW,
    SECOND_TILE,
    SIDE_OFFSETS,
    SQUARES_AT_POINT,
    TILES,
    cell_key,
    key_square,
    name_of,
    rotate,
    rotations,
)
from .notation import (
    DRAWS,
    HAND_SIZE,
    TURNS,
    CominoMove,
    Deal,
    Place,
    Remove,
    format_position,
    parse_move,
    parse_tile,
)
from .planes import tile_ones

SIDE_NAMES = (Text("first"), Text("second"))

_CORNER_STEPS = tuple(dx * ROW + dy for dx, dy in CORNER_OFFSETS)
_CORNERS_BY_COLOUR = tuple(
    tuple(
        (colour, tuple(d for d, c in zip(_CORNER_STEPS, oriented, strict=True) if c == colour))
        for colour in sorted(set(oriented))
    )
    for oriented in ORIENTED
)
"""Per oriented tile, each of its colours in notation order (the order a placement's areas
are told) with its corners of that colour as steps from its square's key (a grid point has
the key of the square whose bottom-left corner it is): what joining a tile's areas reads."""

_TL, _TR, _BR, _BL = (dx * ROW + dy for dx, dy in CORNER_OFFSETS)
"""A square's corner points as steps from its key, in tile-string order."""
_SIDES = tuple(dx * ROW + dy for dx, dy in SIDE_OFFSETS)
_AROUND = tuple(dx * ROW + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1))
"""The square and the eight sharing a corner with it."""


def _near_fits(oriented: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For the squares beside and then diagonal to a square holding ``oriented``: each as a
    step from its key, with :data:`FIT_MASK` of the corners it shares with the tile alone.
    What fits a frontier square is what fits each of its corners (the table is a
    corner-by-corner test), so a tile put beside one leaves it ``fit & mask``."""
    out = []
    for offsets in (SIDE_OFFSETS, [(dx, dy) for dx in (-1, 1) for dy in (-1, 1)]):
        near = []
        for dx, dy in offsets:
            pattern = 0
            for j, (cx, cy) in enumerate(CORNER_OFFSETS):  # the square's corner j
                for (tx, ty), colour in zip(CORNER_OFFSETS, oriented, strict=True):
                    if (dx + cx, dy + cy) == (tx, ty):  # is the tile's corner there
                        pattern |= COLOUR_CODE[colour] << 2 * j
            near.append((dx * ROW + dy, FIT_MASK[pattern]))
        out.append(tuple(near))
    return tuple(out)


_NEAR_FITS = tuple(_near_fits(oriented) for oriented in ORIENTED)
""":func:`_near_fits` per oriented tile."""
_AT_POINT = tuple((dx * ROW + dy, corner) for (dx, dy), corner in SQUARES_AT_POINT)
_CORNER_CODES = tuple(tuple(COLOUR_CODE[c] for c in oriented) for oriented in ORIENTED)


TILE_BIT = {name: 1 << i for i, name in enumerate(TILES)}
"""Each tile's bit in :attr:`CominoState.hand_bits` (:data:`TILES` order)."""
_ORIENTED_LOW = tuple(
    sum(NAME_MASK[name] for i, name in enumerate(TILES[:12]) if bits >> i & 1)
    for bits in range(1 << 12)
)
_ORIENTED_HIGH = tuple(
    sum(NAME_MASK[name] for i, name in enumerate(TILES[12:]) if bits >> i & 1)
    for bits in range(1 << (len(TILES) - 12))
)
"""A hand's oriented tiles (:data:`NAME_MASK` bits) by its first twelve tiles' bits and by
the rest: :meth:`CominoState.hand_mask` is two look-ups."""

_DEALT_BITS = sum(TILE_BIT[name] for name in DEALT_TILES)
"""The dealt tiles' bits: a chance node's outcomes are the dealt tiles whose bits no hand
and no tile on the table holds."""


@cache
def _dealt_indices() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Each twelve-bit chunk of tile bits (:data:`TILE_BIT`; the first twelve tiles, then the
    rest) -> the indices in :data:`DEALT_TILES` of its dealt tiles, ascending: the tiles left
    to deal are two look-ups. Made on the first deal a process meets (an import of the game
    makes none)."""
    index = {TILE_BIT[name].bit_length() - 1: i for i, name in enumerate(DEALT_TILES)}

    def chunk(start: int, bits: int) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(index[start + b] for b in range(bits) if c >> b & 1 and start + b in index)
            for c in range(1 << bits)
        )

    return chunk(0, 12), chunk(12, len(TILES) - 12)


_PLACES: dict[tuple[int, int, int], Place] = {}
"""The placements listed so far, by (oriented tile index, x, y): a placement is an immutable
value, so :meth:`CominoState.placements` hands out the one made the first time instead of
building a dataclass per legal move per position. Bounded by the tiles' 80 orientations
times the squares a game reaches."""


_DEALS = {name: Deal(name) for name in DEALT_TILES}
"""One draw of each dealt tile, made once: a deal lists up to 21 of them at every draw (the
moves are frozen, so every position may hand out the same ones)."""

_DRAW_PROBABILITIES = [(1.0 / left,) * left if left else () for left in range(len(DEALT_TILES) + 1)]
"""The probabilities of a draw's outcomes when ``left`` tiles are still to be drawn, in the
order of the tiles left: each tile left is as likely."""
_DRAW_CHANCES = [
    tuple((deal, probabilities[0]) for deal in _DEALS.values()) if probabilities else ()
    for probabilities in _DRAW_PROBABILITIES
]
"""Each draw (by its index in :data:`DEALT_TILES`) with its probability when ``left`` tiles
are still to be drawn (:data:`_DRAW_PROBABILITIES`), made once: a chance node's outcomes are
then one look-up per tile left."""


class CominoState(State[CominoMove]):
    """A Comino game in progress (see the module docstring for the representation)."""

    def __init__(self, game) -> None:
        self.game = game
        self.board: dict[tuple[int, int], str] = {}
        self.cells: dict[int, int] = {}
        """The board again, by :func:`cell_key` to the oriented tile's index in
        :data:`ORIENTED`: what the colour-area search steps through."""
        self.codes: dict[int, int] = {}
        self.front: dict[int, int] = {}
        """Each frontier square to the bits of the oriented tiles that fit it (see the module's
        notes)."""
        self.parent: dict[int, int] = {}
        """Each grid point (all keys are 0 or more) to the point it was joined to, or, for
        its area's root, to minus the number of tiles in the area; a root of an area of one
        tile has no entry (see the module's notes)."""
        self.joins: tuple = ()
        """What each put changed in the areas, the last put's first, as a chain of pairs
        (its joins, the chain before: shared by clones, never copied): for each of its
        colours the root, the root's size before (0 for a new point) and the roots joined to
        it with their sizes (its new points are the corners an undo uncolours)."""
        self.ones = array("q")
        """The observation's flat indices of the tiles on the table (:func:`.planes.tile_ones`,
        five a tile, in the order they were put), kept as tiles are put and taken back:
        observing a position is then one numpy assignment of these."""
        self.hands: list[set[str]] = [{FIRST_TILE}, {SECOND_TILE}]
        self.hand_bits = [TILE_BIT[FIRST_TILE], TILE_BIT[SECOND_TILE]]
        """Each hand again as bits (:data:`TILE_BIT`), kept with it: what the hand's
        placements and its observation are worked out from."""
        self.score: list[int] = [0, 0]
        self.draws = 0
        self.turns = 0
        self.history: list[tuple] = []
        self.last: tuple | None = None
        """What :meth:`last_move_summary` tells of the last turn, as plain values (a
        placement as its move, put in words only when asked)."""

    # --- construction -------------------------------------------------------------------
    @classmethod
    def from_parts(cls, game, board, hands, scores, dealing: bool) -> CominoState:
        state = cls(game)
        state.hands = [set(hands[0]), set(hands[1])]
        state.hand_bits = [sum(TILE_BIT[n] for n in hand) for hand in state.hands]
        state.score = [scores[0], scores[1]]
        for square, tile in board.items():
            state._put(square, tile)
        if dealing:
            state.draws = len(board) + len(state.hands[0]) - 1 + len(state.hands[1]) - 1
        else:
            state.draws = DRAWS
            state.turns = TURNS - len(state.hands[0]) - len(state.hands[1])
        return state

    def clone(self) -> CominoState:
        other = CominoState.__new__(CominoState)
        other.game = self.game
        other.board = dict(self.board)
        other.cells = self.cells.copy()
        other.codes = self.codes.copy()
        other.front = self.front.copy()
        other.parent = self.parent.copy()
        other.joins = self.joins
        other.ones = self.ones[:]
        other.hands = [set(self.hands[0]), set(self.hands[1])]
        other.hand_bits = self.hand_bits[:]
        other.score = list(self.score)
        other.draws = self.draws
        other.turns = self.turns
        other.history = list(self.history)
        other.last = self.last
        return other

    # --- whose turn ---------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        if self.draws < DRAWS:
            return CHANCE
        if self.turns >= TURNS:
            return TERMINAL
        return self.turns & 1

    @property
    def is_over(self) -> bool:
        return self.draws >= DRAWS and self.turns >= TURNS

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        s1, s2 = self.score
        if s1 == s2:
            winners: tuple[int, ...] = ()
            reason = Text("equal totals, {score} to {other}", {"score": s1, "other": s2})
        else:
            winners = (0,) if s1 > s2 else (1,)
            reason = Text(
                "higher total score, {score} to {other}",
                {"score": max(s1, s2), "other": min(s1, s2)},
            )
        return Result(winners=winners, num_players=2, scores=(float(s1), float(s2)), reason=reason)

    def side_name(self, player: int) -> str:
        return SIDE_NAMES[player]

    def scores(self) -> tuple[float, ...]:
        return (float(self.score[0]), float(self.score[1]))

    def last_move_summary(self) -> str | None:
        """The last turn in words, put together only when asked: a search replays many
        thousands of turns a second and reads none of them."""
        if self.last is None:
            return None
        kind, player, move, gained, earned, first, second = self.last
        move = str(move)
        side = SIDE_NAMES[player]
        if kind == "remove":
            return Text(
                "{side} removed {tile} (nothing fits) and scored 0; totals {first} to {second}",
                {"side": side, "tile": move, "first": first, "second": second},
            )
        fields = {"side": side, "move": move, "gained": gained, "first": first, "second": second}
        if not earned:
            return Text(
                "{side} placed {move} and scored {gained}; totals {first} to {second}", fields
            )
        areas = None
        for colour, size in earned:
            more = Text("{colour} area of {size}", {"colour": COLOUR_NAMES[colour], "size": size})
            if areas is not None:
                more = Text("{areas}, {more}", {"areas": areas, "more": more})
            areas = more
        return Text(
            "{side} placed {move} and scored {gained} ({areas}); totals {first} to {second}",
            {**fields, "areas": areas},
        )

    def describe_last_move(self, names: Sequence[str]) -> str | None:
        """The last move for the game's log, by the players' names: each draw of the deal
        (the last one telling the whole deal, which a page shows as one line), each
        placement with what it scored, and each forced removal."""
        if self.last is None:
            if not self.history or self.history[-1][0] != "deal":
                return None
            tile = self.history[-1][1]
            if self.draws == 1:
                return Text("The table laid the start tile {tile} in the middle", {"tile": tile})
            if self.draws < DRAWS:
                who = names[0 if self.draws <= HAND_SIZE else 1]
                return Text("{who} was dealt {tile}", {"who": who, "tile": tile})
            start = self.board[(0, 0)]
            return Text(
                "The tiles were dealt: the start tile {start} lies in the middle, {first} and "
                "{second} hold {count} tiles each, both hands open to both, and {first} "
                "places first",
                {"start": start, "first": names[0], "second": names[1], "count": HAND_SIZE},
            )
        kind, player, move, gained, earned, first, second = self.last
        tile, _, square = str(move).partition("@")
        fields = {
            "who": names[player],
            "tile": tile,
            "square": square,
            "gained": gained,
            "first": first,
            "second": second,
            "a": names[0],
            "b": names[1],
        }
        if kind == "remove":
            return Text(
                "{who} could place no tile and removed {tile}, which scores nothing "
                "({a} {first}, {b} {second})",
                fields,
            )
        if not earned:
            return Text(
                "{who} placed {tile} on square {square} and scored {gained} ({a} {first}, {b} "
                "{second})",
                fields,
            )
        areas = [
            Text("a {colour} area of {size}", {"colour": COLOUR_NAMES[colour], "size": size})
            for colour, size in earned
        ]
        return Text(
            "{who} placed {tile} on square {square}, joining {areas}, and scored {gained} ({a} "
            "{first}, {b} {second})",
            {**fields, "areas": joined_names(areas)},
        )

    # --- the grid -----------------------------------------------------------------------
    @property
    def points(self) -> dict[tuple[int, int], int]:
        """Every grid point some tile touches, by ``(x, y)``, to its colour code."""
        return {key_square(k): code for k, code in self.codes.items()}

    @property
    def frontier(self) -> set[tuple[int, int]]:
        """The empty squares sharing a side with a tile, by ``(x, y)``."""
        return {key_square(k) for k in self.front}

    def pattern(self, x: int, y: int) -> int:
        """The corner codes of square ``(x, y)`` packed as a :data:`FIT_MASK` index."""
        if not (-REACH <= x <= REACH and -REACH <= y <= REACH):
            return 0  # no tile reaches a corner of it
        return self._pattern(cell_key(x, y))

    def _pattern(self, k: int) -> int:
        get = self.codes.get
        return get(k + _TL, 0) | get(k + _TR, 0) << 2 | get(k + _BR, 0) << 4 | get(k + _BL, 0) << 6

    def _put(self, square: tuple[int, int], tile: str) -> list[tuple[str, int]]:
        """Lay ``tile`` on the empty ``square``: the grid, the frontier, the observation's
        indices and the areas follow. Returns each of its colours whose area it joins, with
        the size of that area less its own tile (in notation order, none of size 0): what it
        scores."""
        x, y = square
        return self._lay(square, tile, cell_key(x, y), ORIENTED_INDEX[tile])

    def _lay(self, square: tuple[int, int], tile: str, k: int, o: int) -> list[tuple[str, int]]:
        """:meth:`_put` with the square's key ``k`` and the tile's index ``o`` known."""
        # a tile lies within 22 squares of (0, 0) (see ROW): its square's five flat indices
        # say so, and refuse one farther out before anything is changed
        ones = tile_ones(square[0], square[1], tile)
        self.board[square] = tile
        cells = self.cells
        cells[k] = o
        self.ones.extend(ones)
        earned = self._join(k, o)  # before its corners are coloured: which are new points
        codes = self.codes
        tl, tr, br, bl = _CORNER_CODES[o]
        codes[k + _TL] = tl
        codes[k + _TR] = tr
        codes[k + _BR] = br
        codes[k + _BL] = bl
        front = self.front
        front.pop(k, None)
        sides, diagonals = _NEAR_FITS[o]
        for d, fits in sides:  # beside it: on the frontier now, with new corners
            n = k + d
            fit = front.get(n)
            if fit is not None:
                front[n] = fit & fits
            elif n not in cells:
                get = codes.get
                front[n] = FIT_MASK[
                    get(n + _TL, 0)
                    | get(n + _TR, 0) << 2
                    | get(n + _BR, 0) << 4
                    | get(n + _BL, 0) << 6
                ]
        for d, fits in diagonals:  # sharing a corner: new corners if on the frontier
            n = k + d
            fit = front.get(n)
            if fit is not None:
                front[n] = fit & fits
        return earned

    def _join(self, k: int, o: int) -> list[tuple[str, int]]:
        """Join the areas of the tile ``o`` being put on ``k`` (its corners not coloured
        yet): for each of its colours, the areas of its corners of that colour that are
        points already (a tile touches them), the largest kept as the root, its new corners
        joined to it (see :meth:`_put` for what it returns)."""
        codes = self.codes
        parent = self.parent
        get = parent.get
        earned = []
        joined: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        for colour, corners in _CORNERS_BY_COLOUR[o]:
            top = -1
            most = 0
            total = 1
            roots: list[int] = []
            new: list[int] = []
            for corner in corners:
                p = k + corner
                if p in codes:
                    up = get(p, -1)
                    while up >= 0:
                        p = up
                        up = get(p, -1)
                    if p not in roots:
                        roots.append(p)
                        total -= up
                        if -up > most:
                            top, most = p, -up
                else:
                    new.append(p)
            if not most:  # no area met: its first new corner is the root of an area of one
                top = new[0]
                for p in new[1:]:
                    parent[p] = top
                joined.append((top, 0, ()))
                continue
            if len(roots) == 1:  # one area met (most often): it grows
                others: tuple[tuple[int, int], ...] = ()
            else:
                others = tuple([(r, -get(r, -1)) for r in roots if r != top])
                for r, _ in others:
                    parent[r] = top
            for p in new:
                parent[p] = top
            parent[top] = -total
            joined.append((top, most, others))
            earned.append((colour, total - 1))
        self.joins = (joined, self.joins)
        return earned

    def _unjoin(self, uncoloured: list[int]) -> None:
        """Undo the last put's :meth:`_join`, its ``uncoloured`` corners (those no other tile
        touches: the new points it joined) already taken off the grid."""
        parent = self.parent
        for p in uncoloured:
            parent.pop(p, None)  # a root of an area of one has no entry
        joined, self.joins = self.joins
        for top, most, others in reversed(joined):
            if most == 1:  # an area of one again: no entry
                del parent[top]
            elif most:  # a root before (a new one went with the uncoloured corners)
                parent[top] = -most
            for r, size in others:
                if size == 1:
                    del parent[r]
                else:
                    parent[r] = -size

    def _take(self, square: tuple[int, int]) -> None:
        """Undo :meth:`_put`: recompute the four points and the frontier nearby."""
        x, y = square
        k = cell_key(x, y)
        if square != next(reversed(self.board)):
            # not the last put (no undo does this): the others put again, in their order
            others = [(there, tile) for there, tile in self.board.items() if there != square]
            del self.board[square]  # a KeyError for an empty square, before any change
            self.board = {}
            self.cells = {}
            self.codes = {}
            self.front = {}
            self.ones = array("q")
            self.parent = {}
            self.joins = ()
            for there, tile in others:
                self._put(there, tile)
            return
        del self.ones[-5:]
        del self.board[square]
        cells = self.cells
        del cells[k]
        codes = self.codes
        uncoloured = []
        for corner in (_TL, _TR, _BR, _BL):
            p = k + corner
            for step, at in _AT_POINT:
                o = cells.get(p + step)
                if o is not None:
                    codes[p] = _CORNER_CODES[o][at]
                    break
            else:
                del codes[p]
                uncoloured.append(p)
        self._unjoin(uncoloured)
        front = self.front
        for d in _AROUND:
            n = k + d
            if n in cells:
                continue
            if any(n + side in cells for side in _SIDES):
                front[n] = FIT_MASK[self._pattern(n)]
            else:
                front.pop(n, None)

    def area(self, square: tuple[int, int], colour: str) -> set[tuple[int, int]]:
        """The colour area of ``colour`` containing the tile on ``square`` (that square
        alone for a tile without the colour; ``KeyError`` for an empty square).

        Tiles are linked when they share a grid point of that colour; all corners of a tile
        belong to it, so a tile with the colour at two corners joins the areas at both. The
        areas are kept joined as tiles are put (see the module's notes): this one is the
        tiles whose corners of the colour have the same root.
        """
        cells = self.cells
        k = cell_key(*square)
        corners = dict(_CORNERS_BY_COLOUR[cells[k]]).get(colour)
        if corners is None:
            return {square}
        root = self._root(k + corners[0])
        return {
            key_square(n)
            for n, o in cells.items()
            for c, at in _CORNERS_BY_COLOUR[o]
            if c == colour and self._root(n + at[0]) == root
        }

    def _root(self, node: int) -> int:
        get = self.parent.get
        up = get(node, -1)
        while up >= 0:
            node = up
            up = get(node, -1)
        return node

    # --- moves --------------------------------------------------------------------------
    def hand_mask(self, player: int) -> int:
        """The bits (:data:`ORIENTED` order) of every orientation of ``player``'s tiles."""
        bits = self.hand_bits[player]
        return _ORIENTED_LOW[bits & 0xFFF] | _ORIENTED_HIGH[bits >> 12]

    def _give(self, player: int, name: str) -> None:
        self.hands[player].add(name)
        self.hand_bits[player] |= TILE_BIT[name]

    def _take_from(self, player: int, name: str) -> None:
        self.hands[player].discard(name)
        self.hand_bits[player] &= ~TILE_BIT[name]

    def fitting(self, player: int) -> list[tuple[int, int]]:
        """Each frontier square (by :func:`cell_key`) where a tile of ``player``'s hand fits,
        with the bits (in :data:`ORIENTED` order) of the oriented tiles of the hand that fit
        there, in no set order: every placement of the position, without a move made for any
        of them (the research adapters' ids, :func:`.actions.legal_ids`, read the same
        ``front`` and hand in one pass)."""
        hm = self.hand_mask(player)
        return [(k, fit & hm) for k, fit in self.front.items() if fit & hm]

    def placements(self, player: int | None = None) -> list[Place]:
        """Every distinct legal placement of ``player`` (default: the player to move), by
        square, then by the tile's orientation (:meth:`fitting`'s, listed as moves)."""
        if player is None:
            player = self.to_move
        if player < 0:
            return []
        out: list[Place] = []
        known = _PLACES.get
        for k, m in sorted(self.fitting(player)):  # keys sort as (x, y) do
            x, y = key_square(k)
            while m:
                low = m & -m
                key = (low.bit_length() - 1, x, y)
                place = known(key)
                if place is None:
                    place = _PLACES[key] = Place(ORIENTED[key[0]], x, y)
                    remember_id(place, key[0])
                out.append(place)
                m ^= low
        return out

    def _any_placement(self, player: int) -> Place | None:
        hm = self.hand_mask(player)
        for k in sorted(self.front):
            m = self.front[k] & hm
            if m:
                x, y = key_square(k)
                return Place(ORIENTED[(m & -m).bit_length() - 1], x, y)
        return None

    def legal_moves(self) -> list[CominoMove]:
        mover = self.to_move
        if mover == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        if mover == TERMINAL:
            return []
        found: list[CominoMove] = list(self.placements(mover))
        if not found:
            found = [Remove(n) for n in sorted(self.hands[mover])]
        return found

    def chance_outcomes(self) -> list[tuple[CominoMove, float]]:
        left, chances, _ = self.deal_left()
        return [chances[i] for i in left]

    def deal_left(
        self,
    ) -> tuple[tuple[int, ...], tuple[tuple[Deal, float], ...], tuple[float, ...]]:
        """The tiles the next draw may deal, as their indices in :data:`DEALT_TILES`
        (ascending; none once the deal is over); each dealt tile's draw with its probability
        at this draw, by the same index; and the probabilities of the tiles left, in their
        order: :meth:`chance_outcomes`, which the research adapters read without a list of
        moves mapped (their chance ids are these indices)."""
        if self.draws >= DRAWS:
            return (), (), ()
        drawn = self.hand_bits[0] | self.hand_bits[1]
        for tile in self.board.values():
            drawn |= TILE_BIT[ORIENTED_NAME[ORIENTED_INDEX[tile]]]
        left = _DEALT_BITS & ~drawn
        low, high = _dealt_indices()
        n = left.bit_count()
        return low[left & 0xFFF] + high[left >> 12], _DRAW_CHANCES[n], _DRAW_PROBABILITIES[n]

    def move_to_str(self, move: CominoMove | str) -> str:
        """Binding notation of a move; text is parsed and given back canonical."""
        if isinstance(move, str):
            move = parse_move(move)
        if not isinstance(move, Place | Remove | Deal):
            raise MalformedError(move, "not a Comino move")
        return str(move)

    def str_to_move(self, text: str) -> CominoMove:
        return parse_move(text)

    # --- what the board offers (see the protocol) --------------------------------------------
    def _as_move(self, move: CominoMove | str) -> CominoMove:
        move = parse_move(move) if isinstance(move, str) else move
        if not isinstance(move, Place | Remove | Deal):
            raise MalformedError(move, "not a Comino move")
        return move

    def move_cells(self, move: CominoMove | str) -> tuple[str, ...]:
        move = self._as_move(move)
        return (f"{move.x},{move.y}",) if isinstance(move, Place) else ()

    def move_label(self, move: CominoMove | str) -> str:
        move = self._as_move(move)
        if isinstance(move, Place):
            return Text("{tile} on {x},{y}", {"tile": move.tile, "x": move.x, "y": move.y})
        if isinstance(move, Remove):
            return Text("Remove tile {tile}", {"tile": move.name})
        return Text("Deal {tile}", {"tile": move.name})

    def move_info(self, move: CominoMove | str) -> dict:
        """The rack tile a move uses (by name, as the SVG's ``data-tile``) and, for a
        placement, the orientation it is placed in: what the page's tile picker matches."""
        move = self._as_move(move)
        if isinstance(move, Place):
            return {"tile": name_of(move.tile), "orientation": move.tile}
        if isinstance(move, Remove):
            return {"tile": move.name, "remove": True}
        return {}

    def tile_turns(self) -> dict[str, tuple[dict, ...]]:
        """Every rack tile's orientations in clockwise order, each with its corner colours
        (top-left, top-right, bottom-right, bottom-left): the page turns a tile by stepping
        through this list, never by working out a rotation itself."""
        return {name: _tile_turns(name) for hand in self.hands for name in sorted(hand)}

    def play(self, move: CominoMove | str) -> None:
        text = move if isinstance(move, str) else None
        if text is not None:
            move = parse_move(text)
        cls = type(move)
        if cls is Place:
            self._place(move, text)  # type: ignore[arg-type]
        elif cls is Deal:
            self._deal(move, text)  # type: ignore[arg-type]
        elif isinstance(move, Remove):
            self._remove(move, text)
        elif isinstance(move, Place):
            self._place(move, text)
        elif isinstance(move, Deal):
            self._deal(move, text)
        else:
            raise MalformedError(move, "not a Comino move (a Place, Remove or Deal)")

    def _check_turn(self, move: CominoMove, text: str | None) -> int:
        mover = self.to_move
        if mover == TERMINAL:
            raise IllegalMoveError(_shown(move, text), "the game is over")
        if mover == CHANCE:
            raise IllegalMoveError(
                _shown(move, text),
                "the deal is not finished ({draws} of 21 tiles drawn): the next move is a deal "
                "draw",
                draws=self.draws,
            )
        return mover

    def _deal(self, move: Deal, text: str | None) -> None:
        if self.draws >= DRAWS:
            raise IllegalMoveError(
                _shown(move, text), "the deal is over: all 21 tiles have been drawn"
            )
        name = move.name
        if name in (FIRST_TILE, SECOND_TILE):
            raise IllegalMoveError(
                _shown(move, text),
                "{name} is not dealt: players start with YYYY and RRRR",
                name=name,
            )
        if not isinstance(name, str) or name not in _DEALS:  # a Deal built by hand
            raise MalformedError(_shown(move, text), "not a Comino move (a Place, Remove or Deal)")
        if name in self.hands[0] or name in self.hands[1] or name in self.board.values():
            raise IllegalMoveError(
                _shown(move, text), "tile {name} has already been drawn", name=name
            )
        if self.draws == 0:
            self._put((0, 0), name)
        else:
            self._give(0 if self.draws <= HAND_SIZE - 1 else 1, name)
        self.draws += 1
        self.history.append(("deal", name, self.last))
        self.last = None

    def _place(self, move: Place, text: str | None) -> None:
        if self.draws >= DRAWS and self.turns < TURNS:
            player = self.turns & 1
        else:
            player = self._check_turn(move, text)
        tile = move.tile
        oriented = ORIENTED_INDEX.get(tile, -1) if isinstance(tile, str) else -1
        name = ORIENTED_NAME[oriented] if oriented >= 0 else tile
        if name not in self.hands[player]:
            raise IllegalMoveError(
                _shown(move, text),
                "tile {name} is not in {SIDE_NAMES} player's hand",
                name=name,
                SIDE_NAMES=SIDE_NAMES[player],
            )
        x, y = square = (move.x, move.y)
        if not (
            isinstance(x, int)
            and isinstance(y, int)
            and -REACH <= x <= REACH
            and -REACH <= y <= REACH
        ):
            raise IllegalMoveError(
                _shown(move, text),
                "square {x},{y} shares no side with a tile on the table",
                x=x,
                y=y,
            )
        at = cell_key(x, y)
        fit = self.front.get(at)
        if fit is None:  # not on the frontier: covered, or beside no tile
            if at in self.cells:
                raise IllegalMoveError(
                    _shown(move, text), "square {x},{y} is already covered", x=x, y=y
                )
            raise IllegalMoveError(
                _shown(move, text),
                "square {x},{y} shares no side with a tile on the table",
                x=x,
                y=y,
            )
        if not fit >> oriented & 1:
            self._mismatch(move, text)
        # legal: apply
        earned = self._lay(square, tile, at, oriented)
        self.hands[player].discard(name)  # _take_from written out: every turn does it
        self.hand_bits[player] &= ~TILE_BIT[name]
        gained = 0
        for _, size in earned:
            gained += size
        self.score[player] += gained
        self.turns += 1
        self.history.append(("place", move, player, gained, self.last))
        self.last = ("place", player, move, gained, tuple(earned), *self.score)

    def _mismatch(self, move: Place, text: str | None) -> None:
        """Say which corner of ``move`` meets a grid point of another colour (the fit table
        found that one does)."""
        for (dx, dy), colour, corner in zip(CORNER_OFFSETS, move.tile, CORNER_NAMES, strict=True):
            have = self.codes.get(cell_key(move.x + dx, move.y + dy), 0)
            if have and have != COLOUR_CODE[colour]:
                raise IllegalMoveError(
                    _shown(move, text),
                    "its {corner} corner is {colour} but grid point {x},{y} is already {value}: "
                    "every grid point has a single colour",
                    corner=corner,
                    colour=colour,
                    x=move.x + dx,
                    y=move.y + dy,
                    value=".BRY"[have],
                )
        raise AssertionError(f"{move} fits by its corners but not by the fit table")

    def _remove(self, move: Remove, text: str | None) -> None:
        player = self._check_turn(move, text)
        if move.name not in self.hands[player]:
            raise IllegalMoveError(
                _shown(move, text),
                "tile {name} is not in {SIDE_NAMES} player's hand",
                name=move.name,
                SIDE_NAMES=SIDE_NAMES[player],
            )
        fits = self._any_placement(player)
        if fits is not None:
            raise IllegalMoveError(
                _shown(move, text),
                "a tile may be removed only when none fits anywhere, but {fits} fits",
                fits=fits,
            )
        self._take_from(player, move.name)
        self.turns += 1
        self.history.append(("remove", move, player, 0, self.last))
        self.last = ("remove", player, move.name, 0, (), *self.score)

    def undo(self) -> None:
        if not self.history:
            raise IllegalMoveError("undo", "no move to take back")
        entry = self.history.pop()
        kind = entry[0]
        self.last = entry[-1]
        if kind == "deal":
            self.draws -= 1
            name = entry[1]
            if self.draws == 0:
                self._take((0, 0))
            else:
                self._take_from(0 if self.draws <= HAND_SIZE - 1 else 1, name)
            return
        _, move, player, gained, _ = entry
        self.turns -= 1
        self.score[player] -= gained
        if kind == "place":
            self._take((move.x, move.y))
            self._give(player, name_of(move.tile))
        else:
            self._give(player, move.name)

    # --- positions ----------------------------------------------------------------------
    def position(self) -> str:
        mover = self.turns & 1
        return format_position(self.board, self.hands, self.score, self.draws < DRAWS, mover)

    # --- for the web club ---------------------------------------------------------------
    def fits_somewhere(self, name: str) -> bool:
        """Whether the tile ``name`` (in any hand, or none) has a placement on this table."""
        for m in self.front.values():
            if any(m >> ORIENTED_INDEX[rotate(name, r)] & 1 for r in range(4)):
                return True
        return False

    def placements_for(self, tile: str) -> list[tuple[int, int, int]]:
        """Where a tile of the mover's hand fits: every ``(x, y, rotation)``, sorted.

        ``tile`` is given in any orientation; ``rotation`` counts quarter turns clockwise
        from the tile's name orientation (0-3), so the browser can test the orientation it
        shows without knowing any rule. A tile with rotational symmetry lists every rotation
        that looks the same (``BRBR`` fitting at rotation 0 also fits at 2). Empty when the
        tile is not in the mover's hand or it is not a player's turn. The placement move is
        ``f"{rotate(name, rotation)}@{x},{y}"``.
        """
        name = name_of(parse_tile(tile))
        mover = self.to_move
        if mover < 0 or name not in self.hands[mover]:
            return []
        out = []
        for k, m in self.front.items():
            x, y = key_square(k)
            for r in range(4):
                oriented = rotate(name, r)
                if m >> ORIENTED_INDEX[oriented] & 1:
                    out.append((x, y, r))
        return sorted(out)


def _shown(move: CominoMove, text: str | None) -> str:
    """A refused move as the player wrote it, or in notation: made only for an error."""
    return text if text is not None else str(move)


@cache
def _tile_turns(name: str) -> tuple[dict, ...]:
    """A tile's orientations for :meth:`CominoState.tile_turns`, made once per tile. Tuples,
    which the club's views pass through as plain data (nothing in them to translate), so a
    view of a full rack is not walked through forty small dictionaries at every page."""
    return tuple({"orientation": o, "corners": tuple(o)} for o in rotations(name))
