"""One Hexagone position and the turn sequence: roll, swap, capture, second roll, reform.

Phases (the ``phase`` field of the position):

- ``roll``: a chance node; the outcomes are the rolls naming a colour in the block;
- ``swap``: the player to move exchanges two pieces allowed by ``dice``;
- ``second``: the first roll of the turn captured nothing: ``again`` or ``stop``;
- ``main``: a capture split the block into sections, several of the largest size: the mover
  names the main block;
- ``reform``: the mover places the pool's pieces back one at a time;
- ``over``: the game has ended; the result is read from the captured piles.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import Any

from ludoteca.core.errors import IllegalMoveError, MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE, TERMINAL, Result, State, joined_names

from . import flat
from .flat import NO_CAPTURE_LIMIT, SMALL_BLOCK, SOLO_ROLLS
from .geometry import NEIGHBOURS, cell_to_str, group, sections, touching
from .notation import (
    AGAIN,
    COLOURS,
    MAIN,
    PLACE,
    ROLL,
    ROLLS,
    STOP,
    SWAP,
    move_to_str,
    parse_move,
)
from .reform import ReformSearch

_NEAR = frozenset(NEIGHBOURS)
_UP = tuple(sorted(d for d in NEIGHBOURS if d > 0))
"""The three neighbours above a cell in move order: each touching pair met once, in order."""
_BITS = bytes.maketrans(b"01", b"\x00\x01")
"""The digits of ``bin`` as the bytes 0 and 1, for :func:`itertools.compress`."""
ALIVE = 14
"""Where :attr:`HexagoneState._ends` keeps the pairs whose two pieces are on the table."""

PHASES = ("roll", "swap", "second", "main", "reform", "over")
"""The phases by name, each at the number :mod:`.flat` gives it (one numbering for both)."""
ROLL_PHASE = PHASES[flat.ROLL_PHASE]
SWAP_PHASE = PHASES[flat.SWAP_PHASE]
SECOND = PHASES[flat.SECOND]
MAIN_PHASE = PHASES[flat.MAIN_PHASE]
REFORM = PHASES[flat.REFORM]
OVER = PHASES[flat.OVER]

REASON_SMALL = Text("the block has 10 or fewer pieces")
REASON_NO_TRIPLE = Text("no colour has three pieces left in the block")
REASON_STALE = Text("{count} turns in a row without a capture", {"count": NO_CAPTURE_LIMIT})
REASON_SOLO = Text("all {count} rolls are played", {"count": SOLO_ROLLS})
REASON_REFORM = Text("the block cannot be reformed")


_TURN_FIELDS = (
    "phase",
    "dice",
    "rolled",
    "rolls_left",
    "since",
    "player",
    "reason",
    "_choices",
    "_summary",
)
"""Where the game is in its turn, besides the pieces: what a move's snapshot keeps (with the
pieces it changes) and undo restores."""

_turn = attrgetter(*_TURN_FIELDS)


class HexagoneState(State[tuple]):
    """Mutable position; :meth:`play` validates fully before changing anything."""

    __slots__ = (
        "game",
        "cells",
        "counts",
        "pool",
        "captured",
        "pieces_kept",
        "colours_kept",
        *_TURN_FIELDS,
        "_search",
        "_legal",
        "_pairs",
        "_ends",
        "_cross",
        "_history",
    )

    def __init__(
        self,
        game,
        cells: dict[int, int],
        *,
        phase: str = ROLL_PHASE,
        dice: tuple[int, int] | None = None,
        pool: list[int] | None = None,
        captured: list[list[int]] | None = None,
        rolled: int = 0,
        rolls_left: int | None = None,
        since: int = 0,
        player: int = 0,
        reason: str | None = None,
    ) -> None:
        self.game = game
        self.cells = cells
        self.counts = [0] * 7
        for k in cells.values():
            self.counts[k] += 1
        self.phase = phase
        self.dice = dice
        self.pool = pool if pool is not None else [0] * 7
        self.captured = (
            captured if captured is not None else [[0] * 7 for _ in range(game.num_players)]
        )
        self.rolled = rolled
        self.rolls_left = rolls_left
        self.since = since
        self.player = player
        self.reason = reason
        self._choices: list[int] | None = None
        self._search: ReformSearch | None = None
        self._legal: list | None = None
        self._pairs: tuple[list[tuple], dict[int, int], dict[int, int]] | None = None
        self._ends: list[int] = []
        self._cross: tuple[dict[int, int], list[tuple]] | None = None
        """The cells of the table when the pairs were listed, each with its index in order,
        and every two of them as a swap, in move order: for a double's swaps."""
        self._summary: tuple | None = None
        self._history: list[tuple] = []
        self.pieces_kept: dict = {}
        """What is worked out from where the pieces lie (the cells, in their order), the
        captured piles and the pool, never from the colours on the table: a fresh ``dict``
        whenever a piece comes onto or leaves the table, a pile or the pool changes, and
        shared by the clones, whose pieces are the same until one of them moves one. A swap
        that captures nothing moves colours, not pieces, and keeps it: the observation keeps
        its frame and piles in it (:mod:`.observation`) at the cost of a ``dict`` at a
        capture, a placement or an undo of either, not at every move."""
        self.colours_kept: dict = {}
        """The same for what depends on the colours on the table too: fresh also at every
        swap (a roll, ``again`` and ``stop`` keep it, and so do a move's steps under way in
        the research adapters). The observation keeps its board's ones in it."""

    # --- protocol: whose turn -------------------------------------------------------------
    @property
    def to_move(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == ROLL_PHASE:
            return CHANCE
        return self.player

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def num_players(self) -> int:
        return len(self.captured)

    @property
    def solo(self) -> bool:
        return len(self.captured) == 1

    # --- legal moves ----------------------------------------------------------------------
    def legal_moves(self) -> list:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list:
        phase = self.phase
        if phase == ROLL_PHASE:
            counts = self.counts
            return [m for m in ROLLS if counts[m[1]] or counts[m[2]]]
        if phase == SWAP_PHASE:
            return self._swaps()
        if phase == SECOND:
            return [(AGAIN,), (STOP,)]
        if phase == MAIN_PHASE:
            return [(MAIN, c) for c in self.main_choices()]
        if phase == REFORM:
            return [(PLACE, k, c) for k, c in self.search().legal_placements()]
        return []

    def _swaps(self) -> list:
        """The legal swaps in move order: the moves :meth:`swap_flags` marks."""
        moves, flags = self.swap_flags()
        return list(compress(moves, flags))

    def swap_flags(self) -> tuple[list[tuple], bytes]:
        """The legal swaps as flags over a list of swaps in move order: ``(moves, flags)``,
        the legal swaps being ``compress(moves, flags)`` (``flags`` may be shorter than
        ``moves``: the rest are not legal). The research adapters read their ids off the
        same flags, without a move listed per legal swap.

        A mixed roll's swaps are read off the touching pairs (:meth:`touching_pairs`, in
        move order and kept while no piece comes or goes) as bit masks: the pairs with an end
        of a rolled colour, less those with both ends of one colour, is a few operations on
        ints, and :func:`~itertools.compress` picks their moves without a Python loop over
        the pairs. A double's swaps are read the same way off all pairs of pieces
        (:meth:`_double_swaps`)."""
        a, b = self.dice  # type: ignore[misc]
        if a == b:
            return self._double_swaps(a)
        moves = self.touching_pairs()
        ends = self._ends
        low_a, high_a, low_b, high_b = ends[a], ends[a + 7], ends[b], ends[b + 7]
        mask = (
            (low_a | high_a | low_b | high_b)
            & ~(low_a & high_a | low_b & high_b)  # both pieces of one rolled colour
            & ends[ALIVE]
        )
        return moves, bin(mask)[:1:-1].encode().translate(_BITS)

    def touching_pairs(self) -> list[tuple]:
        """Every two touching pieces as a swap move, in move order; pair ``i`` is bit ``i`` of
        the masks of :attr:`_ends`.

        A swap exchanges colours, not places, so the pairs are kept until a piece comes or
        goes, and the masks follow the colours: ``_ends[k]`` holds the pairs whose lower
        cell has colour ``k``, ``_ends[7 + k]`` those whose higher cell has it, and
        ``_ends[ALIVE]`` those whose two pieces are on the table (a capture strikes off the
        pairs of the pieces taken; their bits may stay in the colour masks)."""
        if self._pairs is None:
            cells = self.cells
            moves = [(SWAP, c, n) for c in sorted(cells) for d in _UP if (n := c + d) in cells]
            low: dict[int, int] = dict.fromkeys(cells, 0)
            high = dict(low)
            bit = 1
            for _, c, n in moves:
                low[c] |= bit
                high[n] |= bit
                bit <<= 1
            ends = [0] * 15
            for c, k in cells.items():
                ends[k] |= low[c]
                ends[k + 7] |= high[c]
            ends[ALIVE] = (1 << len(moves)) - 1
            self._pairs = (moves, low, high)
            self._ends = ends
            self._cross = None
        return self._pairs[0]

    def _double_swaps(self, a: int) -> tuple[list[tuple], bytes]:
        """A double's swaps in move order, as flags over every two pieces (see
        :meth:`swap_flags`): every piece of colour ``a`` with every piece of another colour,
        some two hundred moves.

        Every two cells of the table as a swap in move order (:attr:`_cross`, made when a
        double first needs them and kept while :meth:`touching_pairs` is) are the bits of
        one mask: the swaps are the pairs with exactly one end of colour ``a``, the exclusive
        or of the masks of the pairs at each piece of colour ``a`` (:func:`_stars`; a pair
        with both ends of colour ``a`` is met twice and drops out), less the pairs of pieces
        taken since. :func:`~itertools.compress` then picks them with no Python loop."""
        self.touching_pairs()
        cells = self.cells
        cross = self._cross
        if cross is None:
            order = sorted(self._pairs[1])  # type: ignore[index]  # the cells when listed
            n = len(order)
            lows = chain.from_iterable(map(repeat, order, range(n - 1, -1, -1)))
            highs = chain.from_iterable([order[i + 1 :] for i in range(n)])
            cross = self._cross = (
                {c: i for i, c in enumerate(order)},
                list(zip(repeat(SWAP), lows, highs)),
            )
        where, moves = cross
        stars = _stars(len(where))
        mask = 0
        for c, k in cells.items():
            if k == a:
                mask ^= stars[where[c]]
        if len(cells) < len(where):  # pieces taken since the pairs were listed
            for c, i in where.items():
                if c not in cells:
                    mask &= ~stars[i]
        return moves, bin(mask)[:1:-1].encode().translate(_BITS)

    def swap_list(self) -> list:
        """The legal swaps in no particular order (playouts need no sorting)."""
        a, b = self.dice  # type: ignore[misc]
        cells = self.cells
        if a == b:
            mine = [c for c, k in cells.items() if k == a]
            others = [c for c, k in cells.items() if k != a]
            return [(SWAP, x, y) if x < y else (SWAP, y, x) for x in mine for y in others]
        out = []
        get = cells.get
        rolled = (a, b)
        for c, k in cells.items():
            if k not in rolled:
                continue
            for d in NEIGHBOURS:
                n = c + d
                j = get(n)
                if j is None or j == k:
                    continue
                if c < n:
                    out.append((SWAP, c, n))
                elif j not in rolled:  # two rolled colours: the pair is met from its lower cell
                    out.append((SWAP, n, c))
        return out

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        return list(self.roll_outcomes())

    def roll_outcomes(self) -> Sequence[tuple[tuple, float]]:
        """:meth:`chance_outcomes` without a copy: the list kept for the colours in the block,
        one list per set of colours for the life of the process (shared: do not change it).
        Its identity names the roll's outcomes, so the research adapters key what they work
        out of a roll by it, with no list copied or hashed (none outside a roll)."""
        if self.phase != ROLL_PHASE:
            return ()
        c = self.counts
        present = (
            (c[0] > 0)
            + 2 * (c[1] > 0)
            + 4 * (c[2] > 0)
            + 8 * (c[3] > 0)
            + 16 * (c[4] > 0)
            + 32 * (c[5] > 0)
        )  # which die colours are in the block, as a bit mask
        outcomes = _OUTCOMES.get(present)
        if outcomes is None:
            rolls = self.legal_moves()
            weights = [1 if m[1] == m[2] else 2 for m in rolls]
            total = sum(weights)
            outcomes = _OUTCOMES[present] = [
                (m, w / total) for m, w in zip(rolls, weights, strict=True)
            ]
        return outcomes

    def main_choices(self) -> list[int]:
        """The main blocks the mover may name: lowest cells of the largest sections whose
        reform can be completed."""
        if self._choices is None:
            self._choices = _feasible_mains(self.cells)
        return list(self._choices)

    def search(self) -> ReformSearch:
        """The reform search on the current block and pool (kept across placements)."""
        if self._search is None:
            self._search = ReformSearch(self.cells, self.pool)
        return self._search

    # --- notation -------------------------------------------------------------------------
    def move_to_str(self, move) -> str:
        """Binding notation of a move value; text is parsed and given back canonical."""
        if isinstance(move, str):
            return move_to_str(self.str_to_move(move))
        return move_to_str(move)

    # --- what the board offers (see the protocol) --------------------------------------------
    def move_cells(self, move) -> tuple[str, ...]:
        m, _ = self._coerce(move)
        if m[0] == SWAP:
            return (cell_to_str(m[1]), cell_to_str(m[2]))
        if m[0] == MAIN:
            return (cell_to_str(m[1]),)
        if m[0] == PLACE:
            return (cell_to_str(m[2]),)
        return ()

    def move_label(self, move) -> str:
        m, _ = self._coerce(move)
        kind = m[0]
        if kind == SWAP:
            return Text("Swap {a} and {b}", {"a": cell_to_str(m[1]), "b": cell_to_str(m[2])})
        if kind == MAIN:
            return Text("Keep the section of {cell}", {"cell": cell_to_str(m[1])})
        if kind == PLACE:
            return Text(
                "Place {colour} on {cell}",
                {"colour": COLOUR_WORDS[m[1]], "cell": cell_to_str(m[2])},
            )
        if kind == ROLL:
            return Text("Roll {a} and {b}", {"a": COLOUR_WORDS[m[1]], "b": COLOUR_WORDS[m[2]]})
        return {AGAIN: Text("Roll again"), STOP: Text("Stop (end the turn)")}[kind]

    def str_to_move(self, text: str):
        move = parse_move(text)
        if move[0] == MAIN and self.phase == MAIN_PHASE and move[1] in self.cells:
            # any cell names its section; the move value is the section's lowest cell
            for part in sections(self.cells):
                if move[1] in part:
                    return (MAIN, part[0])
        return move

    def _coerce(self, move) -> tuple[tuple, str | None]:
        if isinstance(move, str):
            return self.str_to_move(move), move
        if not _well_formed(move):
            raise MalformedError(move, "not a Hexagone move value")
        return move, None

    # --- playing --------------------------------------------------------------------------
    def play(self, move) -> None:
        if type(move) is tuple and self._quick_legal(move):
            # a legal move value, the common case: checked in a few lookups
            self._history.append(self._snapshot(move))
            self.apply(move, logged=True)
            return
        m, text = self._coerce(move)
        why = self.illegal_reason(m)
        if why is not None:
            raise IllegalMoveError(text if text is not None else move_to_str(m), why)
        self._history.append(self._snapshot(m))
        self.apply(m, logged=True)

    def _quick_legal(self, m: tuple) -> bool:
        """Is ``m`` a legal move value? ``False`` also for whatever needs a closer look: the
        full check (:meth:`illegal_reason`) then accepts it or names the rule it breaks.

        The rules' tests written out for the moves of a random game, without building the
        words of a refusal: a move from :meth:`legal_moves` is accepted in a few lookups."""
        n = len(m)
        if n == 3:
            kind, x, y = m
            if type(x) is not int or type(y) is not int or type(kind) is not int:
                return False
            phase = self.phase
            if kind == SWAP:
                if phase != SWAP_PHASE or not x < y:
                    return False
                cells = self.cells
                k1, k2 = cells.get(x), cells.get(y)
                if k1 is None or k2 is None or k1 == k2:
                    return False
                a, b = self.dice  # type: ignore[misc]
                if a == b:
                    return k1 == a or k2 == a
                return (y - x) in _NEAR and (k1 in (a, b) or k2 in (a, b))
            if kind == ROLL:
                counts = self.counts
                return phase == ROLL_PHASE and 0 <= x <= y < 6 and bool(counts[x] or counts[y])
            if kind == PLACE:
                if phase != REFORM or not 0 <= x < 7:
                    return False
                legal = self._legal  # listed for this position: the search was done there
                return m in legal if legal is not None else self.search().placement_ok(x, y)
            return False
        if n == 1 and (m[0] == AGAIN or m[0] == STOP) and type(m[0]) is int:
            return self.phase == SECOND
        return False

    def _snapshot(self, m: tuple) -> tuple:
        """What :meth:`undo` restores after ``m``. The pieces are copied only for moves that
        move pieces other than by a swap: a roll, ``again`` and ``stop`` move none (``None``),
        and a swap is undone by swapping back (its two cells), unless it captures: then
        :meth:`_apply_swap` puts copies in (:meth:`_pieces`) before anything is taken."""
        kind = m[0]
        if kind == SWAP:
            pieces: tuple | None = (m[1], m[2])
        elif kind in _KEEPS_PIECES:
            pieces = None
        else:
            pieces = self._pieces()
        return (pieces, *_turn(self))

    def _set_turn(self, values: tuple) -> None:
        """The fields of the turn (:data:`_TURN_FIELDS`, in order) from ``values``, as
        :func:`_turn` read them for a move's snapshot."""
        (
            self.phase,
            self.dice,
            self.rolled,
            self.rolls_left,
            self.since,
            self.player,
            self.reason,
            self._choices,
            self._summary,
        ) = values

    def _pieces(self) -> tuple:
        """Copies of the piece lists: cells, counts, pool and captured piles."""
        captured = [list(p) for p in self.captured]
        return dict(self.cells), list(self.counts), list(self.pool), captured

    def undo(self) -> None:
        """Take back the last move played through :meth:`play` (snapshots are small)."""
        if not self._history:
            raise IllegalMoveError("undo", "there is no move to take back")
        snap = self._history.pop()
        pieces = snap[0]
        if pieces is not None:
            if len(pieces) == 2:  # a swap that captured nothing
                self._exchange(*pieces)
            else:
                self.cells = dict(pieces[0])
                self.counts = list(pieces[1])
                self.pool = list(pieces[2])
                self.captured = [list(p) for p in pieces[3]]
                self._pairs = None
                self.pieces_kept = {}
                self.colours_kept = {}
        self._set_turn(snap[1:])
        self._search = None
        self._legal = None

    def illegal_reason(self, m: tuple) -> str | None:
        """Why the rules forbid ``m`` here, or ``None`` when it is legal."""
        phase = self.phase
        if phase == OVER:
            return Text("the game is over")
        kind = m[0]
        if phase != _MOVE_PHASE[kind]:
            return Text("it is not the moment for that: {help}", {"help": _PHASE_HELP[phase]})
        if kind == ROLL:
            a, b = m[1], m[2]
            if not (self.counts[a] or self.counts[b]):
                return Text(
                    "neither {a} nor {b} is in the block: such a roll is retaken",
                    {"a": COLOURS[a], "b": COLOURS[b]},
                )
            return None
        if kind == SWAP:
            return self._swap_reason(m[1], m[2])
        if kind == MAIN:
            if m[1] not in self.main_choices():
                return Text(
                    "the main block must be one of the largest sections whose reform can be "
                    "completed: {choices}",
                    {"choices": ", ".join(f"main {cell_to_str(c)}" for c in self.main_choices())},
                )
            return None
        if kind == PLACE:
            return self._place_reason(m[1], m[2])
        return None

    def _swap_reason(self, c1: int, c2: int) -> str | None:
        cells = self.cells
        for c in (c1, c2):
            if c not in cells:
                return Text("there is no piece on {cell}", {"cell": cell_to_str(c)})
        k1, k2 = cells[c1], cells[c2]
        if k1 == k2:
            return Text("the two pieces have the same colour (such a swap changes nothing)")
        a, b = self.dice  # type: ignore[misc]
        if a == b and (k1 == a or k2 == a):
            return None
        rolled = COLOURS[a] if a == b else Text("{a} or {b}", {"a": COLOURS[a], "b": COLOURS[b]})
        if not touching(c1, c2):
            if a == b:
                return Text(
                    "the pieces do not touch and neither is {rolled}, the doubled colour",
                    {"rolled": rolled},
                )
            return Text("the pieces do not touch (only a double swaps across the block)")
        if k1 in (a, b) or k2 in (a, b):
            return None
        return Text("neither piece has a rolled colour ({rolled})", {"rolled": rolled})

    def _place_reason(self, k: int, c: int) -> str | None:
        search = self.search()
        if not self.pool[k]:
            return Text("the pool has no {colour} piece", {"colour": COLOURS[k]})
        if c in self.cells:
            return Text("{cell} is not empty", {"cell": cell_to_str(c)})
        if search.touch.get(c, 0) < 2:
            return Text(
                "a piece on {cell} would touch fewer than two pieces", {"cell": cell_to_str(c)}
            )
        if search.touches(c, k):
            return Text(
                "a piece on {cell} would touch a piece of its own colour {colour}",
                {"cell": cell_to_str(c), "colour": COLOURS[k]},
            )
        if not search.placement_ok(k, c):
            return Text("after this placement the rest of the pool could not be placed")
        return None

    def apply(self, m: tuple, logged: bool = False) -> None:
        """Play a legal move value (no checks: :meth:`play` checks first). ``logged``: the
        last snapshot of :meth:`undo`'s history is this move's (see :meth:`_snapshot`)."""
        self._legal = None
        self._summary = (self.player, m, None)
        kind = m[0]
        if kind == SWAP:
            self._apply_swap(m[1], m[2], logged)
        elif kind == ROLL:
            self.dice = (m[1], m[2])
            self.rolled += 1
            if self.rolls_left is not None:
                self.rolls_left -= 1
            self.phase = SWAP_PHASE
        elif kind == PLACE:
            k, c = m[1], m[2]
            search = self.search()
            search.commit(k, c)
            self.cells[c] = k
            self._pairs = None
            self.pieces_kept = {}
            self.colours_kept = {}
            self.counts[k] += 1
            self.pool[k] -= 1
            if not any(self.pool):
                self._search = None
                self._end_turn(captured=True)
        elif kind == MAIN:
            self._choose_main(m[1])
        elif kind == AGAIN:
            self.phase = ROLL_PHASE
        else:
            self._end_turn(captured=False)

    def _apply_swap(self, c1: int, c2: int, logged: bool = False) -> None:
        pairs = self._pairs
        k1, k2 = self._exchange(c1, c2)
        cells = self.cells
        self.dice = None
        taken: list[int] = []
        for c in (c1, c2):
            if _may_capture(cells, c):
                g = group(cells, c)
                if len(g) >= 3:
                    taken.extend(g)
        if not taken:
            if self.solo or self.rolled >= 2:
                self._end_turn(captured=False)
            else:
                self.phase = SECOND
            return
        if logged:  # swapping back will not undo this: the pieces as they were before
            snap = self._history[-1]
            pieces = self._pieces()
            pieces[0][c1], pieces[0][c2] = k1, k2
            self._history[-1] = (pieces, *snap[1:])
        pile = self.captured[self.player]
        self.pieces_kept = {}
        if pairs is not None:  # the touching pairs less those of the taken pieces
            _, low, high = pairs
            alive = self._ends[ALIVE]
            for c in taken:
                alive &= ~(low[c] | high[c])
            self._ends[ALIVE] = alive
        got = [0] * 7
        for c in taken:
            k = cells.pop(c)
            self.counts[k] -= 1
            pile[k] += 1
            got[k] += 1
        self._summary = (self.player, (SWAP, c1, c2), got)
        self._after_capture(taken)

    def _exchange(self, c1: int, c2: int) -> tuple[int, int]:
        """Exchange the pieces on ``c1`` and ``c2``; their colours before."""
        cells = self.cells
        k1, k2 = cells[c1], cells[c2]
        cells[c1], cells[c2] = k2, k1
        self.colours_kept = {}
        pairs = self._pairs
        if pairs is not None:  # each of the two cells' pairs now has the other's colour there
            _, low, high = pairs
            ends = self._ends
            lows, highs = low[c1] ^ low[c2], high[c1] ^ high[c2]
            ends[k1] ^= lows
            ends[k2] ^= lows
            ends[k1 + 7] ^= highs
            ends[k2 + 7] ^= highs
        return k1, k2

    def _after_capture(self, taken: list[int]) -> None:
        if _still_whole(self.cells, taken):
            self._end_turn(captured=True)
            return
        parts = sections(self.cells)
        if len(parts) <= 1:
            self._end_turn(captured=True)
            return
        size = len(max(parts, key=len))
        largest = [p for p in parts if len(p) == size]
        if len(largest) == 1:
            search = _reform_search(self.cells, largest[0])
            if search.possible():
                self._choose_main(largest[0][0], largest[0])
                self._search = search  # its cells and pool are now the state's: keep it
            else:
                self._reform_impossible(largest[0])
            return
        choices = [p[0] for p in largest if _reform_search(self.cells, p).possible()]
        if not choices:
            self._reform_impossible(None)
            return
        self.phase = MAIN_PHASE
        self._choices = choices

    def _reform_impossible(self, main: list[int] | None) -> None:
        """The game ends: the capture counts (``since_capture`` is 0) and, where the main
        block is known, the other sections' pieces have left the table for the pool — the
        rules' order of events (**Decision (ended games)**). With a tie of sections none of
        which can be reformed, no main block exists and the sections stay on the table."""
        self.since = 0
        if main is not None:
            self._to_pool(set(main))
        self._finish(REASON_REFORM)

    def _choose_main(self, lowest: int, part: list[int] | None = None) -> None:
        if part is None:
            part = next(p for p in sections(self.cells) if p[0] == lowest)
        self._to_pool(set(part))
        self._choices = None
        self._search = None
        self.phase = REFORM

    def _to_pool(self, keep: set[int]) -> None:
        """Every piece outside the main block ``keep`` leaves the table for the pool."""
        cells = self.cells
        self._pairs = None
        self.pieces_kept = {}
        self.colours_kept = {}
        for c in [c for c in cells if c not in keep]:
            k = cells.pop(c)
            self.counts[k] -= 1
            self.pool[k] += 1

    def _end_turn(self, *, captured: bool) -> None:
        self.since = 0 if captured else self.since + 1
        self.dice = None
        if len(self.cells) <= SMALL_BLOCK:
            self._finish(REASON_SMALL)
        elif max(self.counts) < 3:
            self._finish(REASON_NO_TRIPLE)
        elif self.since >= NO_CAPTURE_LIMIT:
            self._finish(REASON_STALE)
        elif self.rolls_left == 0:
            self._finish(REASON_SOLO)
        else:
            self.player = (self.player + 1) % len(self.captured)
            self.phase = ROLL_PHASE
            self.rolled = 0

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason
        self.dice = None
        self.rolled = 0

    # --- results --------------------------------------------------------------------------
    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """Players in rank order, tied players together: most captured, then most of one colour."""
        keys = {p: (sum(pile), max(pile)) for p, pile in enumerate(self.captured)}
        order = sorted(keys, key=lambda p: (-keys[p][0], -keys[p][1], p))
        out: list[list[int]] = []
        for p in order:
            if out and keys[out[-1][0]] == keys[p]:
                out[-1].append(p)
            else:
                out.append([p])
        return tuple(tuple(g) for g in out)

    @property
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        ranking = self.ranking()
        return Result(
            winners=ranking[0],
            num_players=len(self.captured),
            scores=self.scores(),
            reason=self.reason or self.derived_reason(),
            ranking=ranking,
        )

    def derived_reason(self) -> str:
        """Why a finished position is finished, read from the position alone."""
        if any(self.pool) or len(sections(self.cells)) > 1:
            return REASON_REFORM
        if len(self.cells) <= SMALL_BLOCK:
            return REASON_SMALL
        if max(self.counts) < 3:
            return REASON_NO_TRIPLE
        if self.since >= NO_CAPTURE_LIMIT:
            return REASON_STALE
        if self.rolls_left == 0:
            return REASON_SOLO
        return REASON_REFORM

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(pile) for pile in self.captured)

    def last_move_summary(self) -> str | None:
        """What the last move did, for people; built only when asked (playouts never ask)."""
        if self._summary is None:
            return None
        player = self._summary[0]
        return self._told(Text("you") if self.solo else Text("player {n}", {"n": player + 1}))

    def describe_last_move(self, names: Sequence[str]) -> str | None:
        """The last move for the game's log, the player who made it (or rolled) by name."""
        if self._summary is None:
            return None
        player = self._summary[0]
        return self._told(names[player] if 0 <= player < len(names) else Text("you"))

    def _told(self, who: str) -> Text:
        """The last move in words, ``who`` doing it: rolls and captured pieces by colour
        name, never by the notation's letters."""
        assert self._summary is not None
        _player, m, got = self._summary
        kind = m[0]
        fields: dict[str, object] = {"who": who}
        if kind == ROLL:
            if m[1] == m[2]:
                return Text(
                    "{who} rolled a double {colour}", {**fields, "colour": COLOUR_WORDS[m[1]]}
                )
            return Text(
                "{who} rolled {a} and {b}",
                {**fields, "a": COLOUR_WORDS[m[1]], "b": COLOUR_WORDS[m[2]]},
            )
        if kind == SWAP:
            fields.update(a=cell_to_str(m[1]), b=cell_to_str(m[2]))
            if got is None:
                return Text("{who} swapped {a} and {b}, no capture", fields)
            piles = [
                Text("{count} {colour}", {"count": got[k], "colour": COLOUR_WORDS[k]})
                for k in range(7)
                if got[k]
            ]
            return Text(
                "{who} swapped {a} and {b} and captured {taken}",
                {**fields, "taken": joined_names(piles)},
            )
        if kind == PLACE:
            return Text(
                "{who} placed a {colour} piece on {cell}",
                {**fields, "colour": COLOUR_WORDS[m[1]], "cell": cell_to_str(m[2])},
            )
        if kind == MAIN:
            return Text(
                "{who} kept the section of {cell} as the main block",
                {**fields, "cell": cell_to_str(m[1])},
            )
        if kind == AGAIN:
            return Text("{who} takes the second roll", fields)
        return Text("{who} stops", fields)

    def side_name(self, player: int) -> str:
        return Text("player{n}", {"n": player + 1})

    # --- copies and text ------------------------------------------------------------------
    def clone(self) -> HexagoneState:
        """An independent copy. Search clones at every simulation, so each field is copied
        by name here: through :data:`_TURN_FIELDS` (as snapshots are) it took twice as long."""
        other = HexagoneState.__new__(HexagoneState)
        other.game = self.game
        other.cells = dict(self.cells)
        other.counts = list(self.counts)
        other.pool = list(self.pool)
        other.captured = [list(p) for p in self.captured]
        other.phase = self.phase
        other.dice = self.dice
        other.rolled = self.rolled
        other.rolls_left = self.rolls_left
        other.since = self.since
        other.player = self.player
        other.reason = self.reason
        other._choices = self._choices
        other._search = None
        other._legal = self._legal
        other._pairs = self._pairs
        other._ends = list(self._ends)
        other._cross = self._cross
        other._summary = self._summary
        other._history = list(self._history)
        other.pieces_kept = self.pieces_kept
        other.colours_kept = self.colours_kept
        return other

    def position(self) -> str:
        return position_text(self)


_ARITY = {ROLL: 3, SWAP: 3, AGAIN: 1, STOP: 1, MAIN: 2, PLACE: 3}
_MOVE_PHASE = {
    ROLL: ROLL_PHASE,
    SWAP: SWAP_PHASE,
    AGAIN: SECOND,
    STOP: SECOND,
    MAIN: MAIN_PHASE,
    PLACE: REFORM,
}
"""The phase in which each kind of move is played."""
_KEEPS_PIECES = frozenset((ROLL, AGAIN, STOP))
"""Moves that move no piece (their undo snapshots hold no pieces)."""
_OUTCOMES: dict[int, list[tuple[tuple, float]]] = {}
"""Chance outcomes by the set of die colours present in the block (a bit mask): they
depend on nothing else, and a random game asks for them at every roll."""


_STARS: dict[int, list[int]] = {}


def _stars(n: int) -> list[int]:
    """For ``n`` cells in order, cell ``i``'s pairs as a mask over all pairs in move order:
    pair ``(i, j)``, ``i < j``, is bit ``i * (2n - i - 1) / 2 + j - i - 1``. Depends on
    ``n`` alone, so each size is worked out once."""
    stars = _STARS.get(n)
    if stars is None:
        base = [i * (2 * n - i - 1) // 2 for i in range(n)]
        stars = [((1 << (n - 1 - i)) - 1) << base[i] for i in range(n)]  # pairs (i, j > i)
        for j in range(n):
            for i in range(j):
                stars[j] |= 1 << (base[i] + j - i - 1)  # pairs (i < j, j)
        _STARS[n] = stars
    return stars


def _still_whole(cells: dict[int, int], taken: list[int]) -> bool:
    """Is a block that was in one piece still in one piece after ``taken`` left it?

    Yes if the pieces that touched the taken ones are connected among themselves: any path
    through the taken cells can go round them that way. Usually they are (a capture seldom
    cuts the block), and that is seen from a dozen cells instead of the whole block; when
    they are not, ``False`` leaves the answer to :func:`~.geometry.sections`."""
    rim = set()
    for c in taken:
        for d in NEIGHBOURS:
            n = c + d
            if n in cells:
                rim.add(n)
    if not rim:
        return not cells
    return len(sections(rim)) == 1


def _may_capture(cells: dict[int, int], c: int) -> bool:
    """Can the group of ``c``'s colour through ``c`` have three pieces or more? Only if ``c``
    touches two pieces of its colour, or one that touches another: most swaps capture
    nothing, and this says so without building the group."""
    k = cells[c]
    get = cells.get
    first = 0
    for d in NEIGHBOURS:
        if get(c + d) == k:
            if first:
                return True
            first = c + d
    if not first:
        return False
    for d in NEIGHBOURS:  # a loop, not any() over a generator: this runs at every swap
        n = first + d
        if n != c and get(n) == k:
            return True
    return False


def _well_formed(move) -> bool:
    """Is ``move`` shaped like a move value (see :mod:`.notation`)? Legality is not checked."""
    if type(move) is not tuple or not move or any(type(v) is not int for v in move):
        return False
    kind = move[0]
    if _ARITY.get(kind) != len(move):
        return False
    if kind == ROLL:
        return 0 <= move[1] <= move[2] < 6
    if kind == SWAP:
        return move[1] < move[2]
    if kind == PLACE:
        return 0 <= move[1] < 7
    return True


def _reform_search(cells: dict[int, int], main: list[int]) -> ReformSearch:
    keep = set(main)
    pool = [0] * 7
    for c, k in cells.items():
        if c not in keep:
            pool[k] += 1
    return ReformSearch({c: cells[c] for c in main}, pool, own=True)


def _feasible_mains(cells: dict[int, int]) -> list[int]:
    parts = sections(cells)
    if len(parts) < 2:
        return []
    size = len(max(parts, key=len))
    return [p[0] for p in parts if len(p) == size and _reform_search(cells, p).possible()]


COLOUR_WORDS = (
    Text("red"),
    Text("orange"),
    Text("yellow"),
    Text("green"),
    Text("blue"),
    Text("purple"),
    Text("white"),
)
"""The colours in words, in the order of :data:`~.notation.COLOURS`, for labels."""

PHASE_PROMPTS = {
    SWAP_PHASE: Text("Swap two pieces: click one, then another (see the dice)."),
    SECOND: Text("No capture: roll again or stop?"),
    MAIN_PHASE: Text("The block is split: click a cell of the section that stays."),
    REFORM: Text("Place the pool's pieces: click a highlighted empty cell."),
}
"""What the player to move does now, in words a page shows."""

PHASE_PROMPTS_TOUCH = {
    SWAP_PHASE: Text("Swap two pieces: tap one, then another (see the dice)."),
    SECOND: PHASE_PROMPTS[SECOND],
    MAIN_PHASE: Text("The block is split: tap a cell of the section that stays."),
    REFORM: Text("Place the pool's pieces: tap a highlighted empty cell."),
}
"""The same for a finger on a touch screen."""

_PHASE_HELP = {
    ROLL_PHASE: Text("the dice are to be rolled (roll XY)"),
    SWAP_PHASE: Text("the player to move swaps two pieces (swap q,r q,r)"),
    SECOND: Text("the player chooses to roll again or stop (again / stop)"),
    MAIN_PHASE: Text("the mover names the main block (main q,r)"),
    REFORM: Text("the mover places pool pieces (place C q,r)"),
    OVER: Text("the game is over"),
}


def _letters(counts: list[int]) -> list[str]:
    return [COLOURS[k] for k in range(7) for _ in range(counts[k])]


def position_object(state: HexagoneState) -> dict[str, Any]:
    return {
        "captured": [_letters(p) for p in state.captured],
        "cells": {cell_to_str(c): COLOURS[k] for c, k in sorted(state.cells.items())},
        "dice": None if state.dice is None else COLOURS[state.dice[0]] + COLOURS[state.dice[1]],
        "phase": state.phase,
        "pool": _letters(state.pool),
        "rolled_this_turn": state.rolled,
        "rolls_left": state.rolls_left,
        "since_capture": state.since,
        "to_move": state.player,
    }


def position_text(state: HexagoneState) -> str:
    return json.dumps(position_object(state), sort_keys=True, separators=(",", ":"))
