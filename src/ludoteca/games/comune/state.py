"""A Comune position on the game protocol, plus single-placement stepping for search.

The position is one flat list of ints (see :mod:`.flat` for its slots), so ``clone`` and
``undo`` are list copies, and the rules arithmetic is the same code the compiled kernel runs.

Two ways to move:

- **whole turns** (the protocol): :meth:`ComuneState.legal_moves` lists each distinct turn
  once (``pass``, every single placement, every unordered pair at different angles) and
  :meth:`ComuneState.play` plays one. This is what records, ``perft`` and the CLI speak.
- **one placement at a time** (for tree search, where two-piece turns would make the
  branching factor ~10,000): :meth:`ComuneState.legal_placements`,
  :meth:`ComuneState.place` and :meth:`ComuneState.end_turn`. Between the two placements of a
  turn the state is *mid-turn* (:attr:`ComuneState.mid_turn`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from ludoteca.core.errors import IllegalMoveError, MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import TERMINAL, Result, State, joined_names

from . import flat, turns
from .flat import (
    OCC,
    OVER,
    PASSES,
    PENDING,
    PIECES,
    SUPPLY,
    TO_MOVE,
    end_turn,
    is_opening,
    placement_mask,
    put,
)
from .geometry import ANGLE_NAMES, ANGLE_SYMBOLS, CELL_NAMES, NEIGH, cells_of, codes_of
from .notation import (
    PASS,
    STRIDE,
    decode_turn,
    encode_turn,
    format_position,
    parse_turn,
    placement_to_str,
    turn_to_str,
)
from .turns import CompiledTurns, Turns

SIDES = (Text("light"), Text("dark"))
_TITLES = (Text("Light"), Text("Dark"))
_DRAWN = ("\u2014", "/", "\\")
"""The angles as a label draws them (a dash as long as the piece looks)."""


_Turns: type[Turns] = Turns
"""What :meth:`ComuneState.legal_moves` lists at the start of a turn: :class:`.turns.Turns`,
or :class:`.turns.CompiledTurns` once this process has compiled the kernel."""


def _plain_codes(m0: int, m1: int, m2: int) -> list[int]:
    """:func:`.flat.placement_codes` of the three masks, as a list (the plain function)."""
    out = [0] * flat.PLACEMENT_CODES
    return out[: flat.placement_codes(m0, m1, m2, out)]


codes_listing = _plain_codes
"""The placement codes of three masks, ascending (the research adapters' steps): through
the plain :func:`.flat.placement_codes`, or its compiled twin once this process has
compiled the kernel (see :func:`use_compiled`)."""


def _plain_outcome(s: list[int]) -> tuple[int, int, int]:
    """Light's score, Dark's and the winner (-1 a draw) of the state array ``s``: the plain
    :func:`.flat.score` and :func:`.flat.winner`."""
    return flat.score(s, 0), flat.score(s, 1), flat.winner(s)


_outcome = _plain_outcome
"""A finished game's scores and winner (:func:`_plain_outcome`), or the compiled kernel's
:func:`.flat.scores` once this process has compiled it: the groups' flood fills are most of
the end of a game in Python (see :func:`use_compiled`)."""


def use_compiled(kernel) -> None:
    """Step states with the compiled kernel's functions of :mod:`.flat`: the same code,
    compiled by numba (:mod:`.jit` calls this once it has compiled them), so a process that
    searches or benchmarks lists and plays turns at a fraction of the cost. Numba is slow to
    import, so a process that never asks for the kernel keeps the plain functions (passing
    :mod:`.flat` itself puts them back)."""
    global _Turns, codes_listing, _outcome
    turns.use_compiled(kernel)
    if kernel is flat:
        _Turns, codes_listing, _outcome = Turns, _plain_codes, _plain_outcome
        return
    import numpy as np  # the kernel's own arrays (numba imported numpy already)

    listing, empty, int64, room = kernel.placement_codes, np.empty, np.int64, flat.PLACEMENT_CODES

    def compiled_codes(m0: int, m1: int, m2: int) -> list[int]:
        out = empty(room, int64)  # a new one each call: states may step in several threads
        return out[: listing(m0, m1, m2, out)].tolist()

    scores, array = kernel.scores, np.array

    def compiled_outcome(s: list[int]) -> tuple[int, int, int]:
        light, dark, _, _, win = scores(array(s, int64))
        return int(light), int(dark), int(win)

    _Turns, codes_listing, _outcome = CompiledTurns, compiled_codes, compiled_outcome


def _second_masks(s: list[int]) -> tuple[int, int, int]:
    """Mid-turn: where the second piece may go at each angle: only at an angle above the
    first piece's (the canonical order of a turn's two placements), nowhere with an empty
    supply (:func:`.flat.placement_mask`)."""
    player = s[TO_MOVE]
    pending = s[PENDING]
    return (
        0,  # no angle is below the first piece's lowest
        placement_mask(s, player, 1) if pending < 1 else 0,
        placement_mask(s, player, 2) if pending < 2 else 0,
    )


def _second_codes(s: list[int]) -> list[int]:
    """Mid-turn: the second placements' codes, angle by angle (see :func:`_second_masks`)."""
    _, m1, m2 = _second_masks(s)
    return [*codes_of(m1, 1), *codes_of(m2, 2)]


NO_PLACEMENT = (0, 0, 0)
"""The placement masks of a side that cannot place (the game is over, or its supply empty)."""


def step_masks(s: list[int]) -> tuple[int, int, int]:
    """Where the side to move may place a piece now at each angle (mid-turn: the second
    piece, :func:`_second_masks`), for the state array ``s`` (the research adapters keep a
    position's array, not a state): the masks :func:`step_codes` lists."""
    if s[OVER]:
        return NO_PLACEMENT
    if s[PENDING] >= 0:
        return _second_masks(s)
    player = s[TO_MOVE]
    if s[SUPPLY + player] <= 0:
        return NO_PLACEMENT
    free = flat.FULL & ~s[OCC]  # the three angles' masks in one go, as legal_moves
    blocked = flat.BLOCKED + 3 * player
    return free & ~s[blocked], free & ~s[blocked + 1], free & ~s[blocked + 2]


def step_codes(s: list[int]) -> list[int]:
    """:meth:`ComuneState.placement_codes` of the state array ``s``: :func:`step_masks`
    listed ascending."""
    if s[OVER]:
        return []
    return codes_listing(*step_masks(s))


def pairs_allowed(s: list[int]) -> bool:
    """Whether the side to move may place two pieces this turn (the state array ``s`` at a
    turn's start): not in Light's opening, and with two pieces left in supply."""
    return s[SUPPLY + s[TO_MOVE]] >= 2 and not is_opening(s)


def second_step_masks(
    s: list[int], first: int, masks: tuple[int, int, int] | None = None
) -> tuple[int, int, int] | None:
    """Where a turn's second piece may go at each angle once ``first`` (one of the turn's
    placement codes) is placed, the state array ``s`` at the turn's start, or ``None`` where
    the first piece ends the turn. The pairs :meth:`ComuneState.legal_moves` counts: at an
    angle above the first's, on another cell, of the turn start's masks (a side's own pieces
    never restrict its placements). ``masks``: the turn start's :func:`step_masks`, if
    known."""
    if s[PENDING] >= 0:
        raise ValueError("second_codes is asked at a turn's start")
    if not pairs_allowed(s):
        return None
    _, m1, m2 = step_masks(s) if masks is None else masks
    cell, angle = divmod(first, 3)
    other = ~(1 << cell)
    return 0, m1 & other if angle < 1 else 0, m2 & other if angle < 2 else 0


def second_step_codes(
    s: list[int], first: int, masks: tuple[int, int, int] | None = None
) -> list[int] | None:
    """:meth:`ComuneState.second_codes` of the state array ``s`` (unchanged):
    :func:`second_step_masks` listed ascending."""
    seconds = second_step_masks(s, first, masks)
    return None if seconds is None else codes_listing(*seconds)


class ComuneState(State[int]):
    """One Comune position. Players: 0 = Light (moves first), 1 = Dark."""

    __slots__ = ("game", "_s", "_history", "_turn", "_last")

    def __init__(self, game, slots: list[int]) -> None:
        self.game = game
        self._s = slots
        self._history: list[tuple] = []
        self._turn: list[int] = []  # placement codes of the unfinished turn (stepping)
        self._last: tuple[int, tuple[int, ...]] | None = None  # (player, codes) of last turn

    # --- whose turn, and what can happen ------------------------------------------------
    @property
    def to_move(self) -> int:
        return TERMINAL if self._s[OVER] else self._s[TO_MOVE]

    @property
    def is_over(self) -> bool:
        return bool(self._s[OVER])

    @property
    def mid_turn(self) -> bool:
        """True between the first and the second placement of a turn played by :meth:`place`."""
        return self._s[PENDING] >= 0

    @property
    def is_opening(self) -> bool:
        """Light's first turn (empty board, Light to move): one piece at most."""
        return bool(is_opening(self._s))

    def supply(self, player: int) -> int:
        """Pieces left in ``player``'s supply (35 minus those on the board)."""
        return self._s[SUPPLY + player]

    def pieces(self, player: int, angle: int) -> int:
        """Bitboard of ``player``'s pieces at ``angle`` (bit = cell index of :mod:`.board`)."""
        return self._s[PIECES + 3 * player + angle]

    def placement_mask(self, player: int, angle: int) -> int:
        """Bitboard of the cells where ``player`` may place at ``angle`` (ignores whose turn)."""
        return placement_mask(self._s, player, angle)

    def closed_to_both(self) -> int:
        """Empty cells where neither player may place at any angle (rulebook Fig. 3)."""
        s = self._s
        free = flat.FULL & ~s[OCC]
        light = s[flat.BLOCKED] & s[flat.BLOCKED + 1] & s[flat.BLOCKED + 2]
        dark = s[flat.BLOCKED + 3] & s[flat.BLOCKED + 4] & s[flat.BLOCKED + 5]
        return free & light & dark

    def legal_moves(self) -> Sequence[int]:
        """Every distinct legal turn once: ``pass``, then single placements, then pairs.

        At the start of a turn this is a lazy :class:`~.turns.Turns`: thousands of pairs are
        counted and indexed without being listed (see there). Mid-turn (see :meth:`place`),
        the turn's possible completions instead: ``pass`` (end the turn here) and each
        second placement of :meth:`legal_placements` as a single-placement value.
        """
        s = self._s
        if s[OVER]:
            return []
        player = s[TO_MOVE]
        if s[PENDING] >= 0:
            return [PASS] + [1 + code for code in self._second_codes()]
        if s[SUPPLY + player] <= 0:
            return [PASS]
        return _Turns(step_masks(s), pairs_allowed(s))

    def legal_placements(self) -> list[tuple[int, int]]:
        """Single placements ``(cell index, angle)`` the side to move may make now.

        At the start of a turn: every legal placement (none with an empty supply). Mid-turn:
        the second placements that keep each two-piece turn reachable by exactly one order
        of steps, i.e. on another cell at an angle *greater* than the first piece's (so a
        search places the lower angle first). Empty once the game is over.
        """
        s = self._s
        if s[OVER]:
            return []
        if s[PENDING] >= 0:
            return [(code // 3, code % 3) for code in self._second_codes()]
        player = s[TO_MOVE]
        return [
            (cell, angle)
            for angle in range(3)
            for cell in cells_of(placement_mask(s, player, angle))
        ]

    def placement_codes(self) -> list[int]:
        """:meth:`legal_placements` as placement codes (``cell * 3 + angle``), ascending: the
        research adapters' steps, without a tuple per placement."""
        return step_codes(self._s)

    def _second_codes(self) -> list[int]:
        return _second_codes(self._s)

    # --- playing --------------------------------------------------------------------------
    def _push(self) -> None:
        # a tuple: clones share history entries, so an entry must never be mutated
        self._history.append((tuple(self._s), tuple(self._turn), self._last))

    def undo(self) -> None:
        """Take back the last :meth:`play`, :meth:`place` or :meth:`end_turn`."""
        if not self._history:
            raise IllegalMoveError("undo", "no move to take back")
        slots, turn, last = self._history.pop()
        self._s = list(slots)
        self._turn = list(turn)
        self._last = last

    def play(self, move: int | str) -> None:
        """Play a whole turn (value or notation); checks everything before changing anything."""
        codes = self._quick_codes(move) if type(move) is int else None
        if codes is not None:  # a legal value at the start of a turn: the common case, fast
            s = self._s
            player = s[TO_MOVE]
            self._history.append((tuple(s), (), self._last))  # _push() with no turn begun
            for code in codes:
                put(s, player, code // 3, code % 3)
            end_turn(s, bool(codes))
            self._last = (player, codes)
            return
        # notation, mid-turn, or a move to refuse: the full check, which names the rule
        text = move if isinstance(move, str) else None
        value = parse_turn(move) if text is not None else move
        codes = self._check_turn(value, text)
        s = self._s
        player = s[TO_MOVE]
        self._push()
        if s[PENDING] >= 0:  # completing a turn begun with place()
            if codes:
                put(s, player, codes[0] // 3, codes[0] % 3)
                self._turn.append(codes[0])
            self._finish_turn(player)
            return
        for code in codes:
            put(s, player, code // 3, code % 3)
        self._turn = list(codes)
        self._finish_turn(player)

    def _finish_turn(self, player: int) -> None:
        placed = tuple(self._turn)
        end_turn(self._s, bool(placed))
        self._last = (player, placed)
        self._turn = []

    def place(self, cell: int, angle: int) -> None:
        """Play one placement of the current turn (cell index, angle 0 ``-`` 1 ``/`` 2 ``\\``).

        The first placement leaves the state mid-turn, except when no second piece is
        allowed (Light's opening, or the supply is now empty): then the turn ends at once.
        A second placement ends the turn. Any legal second placement is accepted, not only
        those :meth:`legal_placements` lists. Raises ``IllegalMoveError`` and changes
        nothing if the placement is not legal.
        """
        s = self._s
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < len(NEIGH):
            raise MalformedError(cell, "a cell index is an int from 0 to 60")
        if isinstance(angle, bool) or not isinstance(angle, int) or not 0 <= angle < 3:
            raise MalformedError(angle, "an angle is 0 (-), 1 (/) or 2 (\\)")
        code = cell * 3 + angle
        shown = placement_to_str(code)
        if s[OVER]:
            raise IllegalMoveError(shown, "the game is over")
        player = s[TO_MOVE]
        if s[PENDING] >= 0 and angle == s[PENDING]:
            raise IllegalMoveError(
                shown, "two pieces placed in one turn must have different angles"
            )
        self._check_placement(player, code, shown)
        # the turn's last piece: its second, or a first where no pair is allowed
        last = s[PENDING] >= 0 or not pairs_allowed(s)
        self._push()
        put(s, player, cell, angle)
        self._turn.append(code)
        if last:
            self._finish_turn(player)
        else:
            s[PENDING] = angle

    def second_codes(self, first: int) -> list[int] | None:
        """At a turn's start, the second placements (codes, ascending) of the turn begun
        with the legal placement code ``first``, or ``None`` where that placement ends the
        turn: what :meth:`place` then :meth:`placement_codes` give, on a copy of the slots
        only (no history, no checks: ``first`` is one of :meth:`placement_codes`). The
        research adapters ask it for every first step chosen. The position is unchanged."""
        return second_step_codes(self._s, first)

    def end_turn(self) -> None:
        """End the current turn: a pass if nothing was placed, else after one placement."""
        s = self._s
        if s[OVER]:
            raise IllegalMoveError("pass", "the game is over")
        self._push()
        self._finish_turn(s[TO_MOVE])

    # --- validation -----------------------------------------------------------------------
    def _quick_codes(self, value: int) -> tuple[int, ...] | None:
        """The placement codes of a legal whole turn value at the start of a turn, or ``None``.

        The common case (a value from :meth:`legal_moves`) in a few mask tests; ``None``
        sends the move to :meth:`_check_turn`, which accepts or refuses it with its reason.
        """
        s = self._s
        if s[OVER] or s[PENDING] >= 0 or not 0 <= value < STRIDE * STRIDE:
            return None
        if value == PASS:
            return ()
        player = s[TO_MOVE]
        low, high = value % STRIDE - 1, value // STRIDE - 1
        if low < 0 or s[SUPPLY + player] <= 0:
            return None
        taken = s[OCC]  # placement_mask(), written out: free and not blocked at the angle
        blocked = flat.BLOCKED + 3 * player
        if (taken | s[blocked + low % 3]) >> low // 3 & 1:
            return None
        if high < 0:
            return (low,)
        if (
            low % 3 == high % 3
            or low // 3 == high // 3
            or s[SUPPLY + player] < 2
            or is_opening(s)
            or (taken | s[blocked + high % 3]) >> high // 3 & 1
        ):
            return None
        return (low, high)

    def _check_turn(self, value: Hashable, text: str | None) -> tuple[int, ...]:
        codes = decode_turn(value)
        shown = text if text is not None else turn_to_str(cast(int, value))
        s = self._s
        if s[OVER]:
            raise IllegalMoveError(shown, "the game is over")
        if not codes:
            return codes  # passing is always allowed (Decision)
        player = s[TO_MOVE]
        side = _TITLES[player]
        if s[PENDING] >= 0:
            if len(codes) > 1:
                raise IllegalMoveError(
                    shown, "this turn already has its first piece: one more at most"
                )
            if codes[0] % 3 == s[PENDING]:
                raise IllegalMoveError(
                    shown, "two pieces placed in one turn must have different angles"
                )
        if len(codes) == 2:
            if is_opening(s):
                raise IllegalMoveError(shown, "Light's first turn places one piece at most")
            if s[SUPPLY + player] < 2:
                raise IllegalMoveError(
                    shown,
                    "{side} has only {s} piece left in supply",
                    side=side,
                    s=s[SUPPLY + player],
                )
            x, y = codes
            if x % 3 == y % 3:
                raise IllegalMoveError(
                    shown, "two pieces placed in one turn must have different angles"
                )
            if x // 3 == y // 3:
                raise IllegalMoveError(
                    shown, "two pieces placed in one turn must stand on different cells"
                )
        for code in codes:
            self._check_placement(player, code, shown)
        return codes

    def _check_placement(self, player: int, code: int, shown: str) -> None:
        s = self._s
        cell, angle = divmod(code, 3)
        if s[SUPPLY + player] <= 0:
            raise IllegalMoveError(
                shown, "{TITLES} has no pieces left in supply", TITLES=_TITLES[player]
            )
        if s[OCC] >> cell & 1:
            raise IllegalMoveError(shown, "{CELL_NAMES} is occupied", CELL_NAMES=CELL_NAMES[cell])
        if s[flat.BLOCKED + 3 * player + angle] >> cell & 1:
            opponent = 1 - player
            culprit = next(
                (n, a)
                for n in cells_of(NEIGH[cell])
                for a in range(3)
                if a != angle and s[PIECES + 3 * opponent + a] >> n & 1
            )
            raise IllegalMoveError(
                shown,
                "{name} would stand next to the opponent's {CELL_NAMES}{ANGLE_SYMBOLS}: a piece "
                "may not be placed next to an opponent piece at a different angle",
                name=placement_to_str(code),
                CELL_NAMES=CELL_NAMES[culprit[0]],
                ANGLE_SYMBOLS=ANGLE_SYMBOLS[culprit[1]],
            )

    # --- results and scores ---------------------------------------------------------------
    @property
    def result(self) -> Result | None:
        s = self._s
        if not s[OVER]:
            return None
        light, dark, win = _outcome(s)
        scores = (light, dark)
        why = (
            Text("both players passed in succession")
            if s[PASSES] >= 2
            else Text("neither player can place a piece")
        )
        if scores[0] != scores[1]:
            detail = Text(
                "{side} wins {score} to {other}",
                {"side": _TITLES[win], "score": scores[win], "other": scores[1 - win]},
            )
        else:
            big = (flat.largest_group(s, 0), flat.largest_group(s, 1))
            if win >= 0:
                detail = Text(
                    "scores tied at {score}; {side} wins with the largest group ({size} against "
                    "{other})",
                    {
                        "score": scores[0],
                        "side": _TITLES[win],
                        "size": big[win],
                        "other": big[1 - win],
                    },
                )
            else:
                detail = Text(
                    "scores tied at {score} and largest groups at {size}: a draw",
                    {"score": scores[0], "size": big[0]},
                )
        return Result(
            winners=() if win < 0 else (win,),
            num_players=2,
            scores=(float(scores[0]), float(scores[1])),
            reason=Text("{why}; {detail}", {"why": why, "detail": detail}),
        )

    def scores(self) -> tuple[float, ...]:
        """Both current scores (Light, Dark): product of the largest group per angle."""
        return (float(flat.score(self._s, 0)), float(flat.score(self._s, 1)))

    def groups(self, player: int) -> tuple[int, int, int]:
        """The player's largest group size at each angle ``-``, ``/``, ``\\``."""
        base = PIECES + 3 * player
        return tuple(flat.max_group(self._s[base + a]) for a in range(3))

    def side_name(self, player: int) -> str:
        return SIDES[player]

    def last_move_summary(self) -> str | None:
        if self._last is None:
            return None
        player, codes = self._last
        g = self.groups(player)
        score = f"{g[0]} x {g[1]} x {g[2]} = {g[0] * g[1] * g[2]}"
        if not codes:
            return Text(
                "{side} passed; {side} now scores {score}", {"side": SIDES[player], "score": score}
            )
        return Text(
            "{side} placed {turn}; {side} now scores {score}",
            {"side": SIDES[player], "turn": turn_to_str(encode_turn(codes)), "score": score},
        )

    def describe_last_move(self, names: Sequence[str]) -> str | None:
        """The last turn for the game's log, by the player's name: each piece placed by its
        angle in words and its cell, or a pass, then the score the player now has."""
        if self._last is None:
            return None
        player, codes = self._last
        g = self.groups(player)
        fields = {
            "who": names[player],
            "score": g[0] * g[1] * g[2],
            "groups": f"{g[0]} × {g[1]} × {g[2]}",
        }
        if not codes:
            return Text("{who} passed (score {groups} = {score})", fields)
        pieces = [
            Text(
                "a {angle} piece {symbol} on {cell}",
                {
                    "angle": ANGLE_NAMES[code % 3],
                    "symbol": ANGLE_SYMBOLS[code % 3],
                    "cell": CELL_NAMES[code // 3],
                },
            )
            for code in sorted(codes, key=lambda c: (c % 3, c // 3))
        ]
        return Text(
            "{who} placed {pieces} (score {groups} = {score})",
            {**fields, "pieces": joined_names(pieces)},
        )

    # --- copies, notation -----------------------------------------------------------------
    def clone(self) -> ComuneState:
        return self._copy(self._history.copy())

    def _copy(self, history: list) -> ComuneState:
        """This position, with ``history`` as its undo history."""
        other = ComuneState.__new__(ComuneState)
        other.game = self.game
        other._s = self._s.copy()
        other._history = history
        other._turn = self._turn.copy()
        other._last = self._last
        return other

    def detached(self) -> ComuneState:
        """A copy without the undo history (``undo`` cannot go back past it).

        For whoever keeps many positions only to look ahead from them (a search keeps one
        per node it expands): the history grows with the game, the position does not (nor
        does this copy it first).
        """
        return self._copy([])

    def position(self) -> str:
        """The binding position text. (Mid-turn it shows the board with the first piece.)"""
        return format_position(self._s)

    def move_to_str(self, move: int | str) -> str:
        """Binding notation of a move value; text is parsed and given back canonical
        (``"d4r e5h"`` -> ``"e5- d4/"``), so callers may pass what a person typed."""
        return turn_to_str(parse_turn(move) if isinstance(move, str) else move)

    def str_to_move(self, text: str) -> int:
        return parse_turn(text)

    # --- what the board offers (see the protocol) --------------------------------------------
    def move_cells(self, move: int) -> tuple[str, ...]:
        return tuple(CELL_NAMES[code // 3] for code in decode_turn(self.coerce_move(move)))

    def move_outline(self, moves: Sequence[int], origin: bool) -> tuple[list[int], set[str]]:
        """At the start of a turn, from the turns' placement cells: only ``pass`` names no
        cell, and every other turn's cells (the first one's too) are those of a single
        placement, which is a turn of its own. The pairs, up to some 10,000, are not listed."""
        if isinstance(moves, Turns):
            return [PASS], {CELL_NAMES[cell] for cell in cells_of(moves.placement_cells())}
        return super().move_outline(moves, origin)

    def move_label(self, move: int) -> str:
        codes = decode_turn(self.coerce_move(move))
        if not codes:
            return Text("Pass")
        pieces = [
            Text(
                "{cell} {drawn} {angle}",
                {
                    "cell": CELL_NAMES[code // 3],
                    "drawn": _DRAWN[code % 3],
                    "angle": ANGLE_NAMES[code % 3],
                },
            )
            for code in codes
        ]
        if len(pieces) == 1:
            return pieces[0]
        return Text("{first} and {second}", {"first": pieces[0], "second": pieces[1]})

    def slots(self) -> list[int]:
        """A copy of the state array (layout in :mod:`.flat`), e.g. for the compiled kernel."""
        return self._s.copy()
