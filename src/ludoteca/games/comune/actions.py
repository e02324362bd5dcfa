"""Comune's fixed action ids for the research adapters (:mod:`ludoteca.env`): 185.

A turn places up to two pieces, so a position can have thousands of turns; one id per
turn would need 61*3 squared of them and a policy spread over every pair. Instead a turn
is a short sequence of *steps*, the same split the MCTS bot searches
(:mod:`ludoteca.bots.steps`):

- ids ``0 .. 182``: place a piece, ``cell * 3 + angle`` (the engine's placement code:
  cells indexed as in :mod:`.board`, row 1 first, ``a1`` = 0, ``e5`` = 30; angles ``-``,
  ``/``, ``\\`` = 0, 1, 2);
- ``183`` (END): end the turn after one piece;
- ``184`` (PASS): pass.

A turn is PASS; or a placement then END; or two placements, the lower angle first (the
engine's canonical order, so each two-piece turn has exactly one sequence). After the first
placement the legal steps are END and the second placements the engine allows at a higher
angle (none in Light's first turn or with one piece left in supply). The steps come from
the engine's own single placements (``placement_codes``/``place``), never from the list of
every whole turn.
"""

from __future__ import annotations

from bisect import bisect_left

from .flat import OVER
from .geometry import ANGLE_SYMBOLS, CELL_NAMES, NUM_CELLS
from .notation import decode_turn, encode_turn
from .state import second_step_codes, step_codes

PLACEMENTS = NUM_CELLS * 3
END = PLACEMENTS
PASS = PLACEMENTS + 1
SIZE = PLACEMENTS + 2


def turn_actions(move: int) -> tuple[int, ...]:
    """The steps of a turn value."""
    codes = decode_turn(move)
    if not codes:
        return (PASS,)
    if len(codes) == 1:
        return (codes[0], END)
    return codes


class ComuneDecision:
    """A Comune position's turns as steps, asked of the engine one level at a time."""

    __slots__ = ("_s", "_first", "_second")

    def __init__(self, state) -> None:
        self._s = state.slots()  # the position's array, kept: the state plays on
        self._first: list[int] | None = None
        self._second: dict[int, list[int]] = {}

    def legal(self, prefix: tuple[int, ...]) -> list[int]:
        if not prefix:
            if self._first is None:
                if self._s[OVER]:
                    self._first = []
                else:
                    self._first = step_codes(self._s)  # a new list: ours
                    self._first.append(PASS)
            return self._first
        if len(prefix) == 1 and prefix[0] < PLACEMENTS:
            first = prefix[0]
            seconds = self._second.get(first)
            if seconds is None:
                firsts = self.legal(())  # ascending: a bisection, not a scan
                at = bisect_left(firsts, first)
                if at == len(firsts) or firsts[at] != first:
                    return []
                # None: the first piece ends the turn (the opening, or no piece left)
                seconds = second_step_codes(self._s, first) or []
                seconds.append(END)
                self._second[first] = seconds
            return seconds
        return []

    def complete(self, prefix: tuple[int, ...]):
        if prefix == (PASS,):
            return encode_turn(())
        if len(prefix) == 2:
            return encode_turn(prefix[:1] if prefix[1] == END else prefix)
        return None


class ComuneActions:
    size = SIZE
    chance_size = 0
    max_steps = 2

    def encoder(self, state):
        return turn_actions

    def decision(self, state) -> ComuneDecision:
        return ComuneDecision(state)

    def warm_up(self) -> None:
        """States list a turn's steps with the compiled kernel (:mod:`.jit`: the same
        :func:`.flat.placement_codes`; loaded from numba's cache after the first)."""
        from .jit import compiled

        compiled()

    def chance_id(self, outcome) -> int:
        raise ValueError("Comune has no chance")

    def label(self, state, action: int) -> str:
        if action == END:
            return "end"
        if action == PASS:
            return "pass"
        cell, angle = divmod(action, 3)
        return CELL_NAMES[cell] + ANGLE_SYMBOLS[angle]


def action_space(game) -> ComuneActions:
    return ComuneActions()
