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

import struct
from bisect import bisect_left

import numpy as np

from ludoteca.env.observation import byte_bits, unpacked_bit

from . import state as _state
from .flat import OVER
from .geometry import ANGLE_SYMBOLS, CELL_NAMES, NUM_CELLS
from .notation import decode_turn, encode_turn
from .state import second_step_codes, second_step_masks, step_masks

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


_END_BIT, _PASS_BIT = 1, 2
"""The two steps that are no placement, as bits of a fourth mask beside the three angles'."""
_NO_STEP = (0, 0, 0, 0)


def _mask_gather() -> np.ndarray:
    """Where each id's bit lies among the bits of four boards unpacked (the three angles'
    placement masks, then END and PASS): a position's PettingZoo mask in one gather."""
    cells = np.arange(NUM_CELLS)
    where = np.empty(SIZE, np.intp)
    for angle in range(3):
        where[cells * 3 + angle] = unpacked_bit(angle, cells)
    where[END] = unpacked_bit(3, _END_BIT.bit_length() - 1)
    where[PASS] = unpacked_bit(3, _PASS_BIT.bit_length() - 1)
    return where


_GATHER = _mask_gather()
_PACK_MASKS = struct.Struct("<4Q").pack
"""The four masks as the bytes of little-endian 64-bit boards (:data:`BOARDS`' order)."""
_BYTE_BITS = byte_bits(np.int8)
"""A mask's bytes in two gathers, no array of boards made and unpacked."""


class ComuneDecision:
    """A Comune position's turns as steps, asked of the engine one level at a time.

    Each step's legal ids are kept as the engine's masks (where a piece may go at each
    angle, and whether END or PASS may come), which give the ids listed, the PettingZoo
    mask in one gather and the check of a step, so a step the agent picks from the mask
    is checked without listing the ids."""

    __slots__ = ("_s", "_start", "_first", "_second", "_first_masks", "_second_masks")

    def __init__(self, state) -> None:
        self._s = state.slots()  # the position's array, kept: the state plays on
        self._start: tuple[int, int, int] | None = None
        self._first: list[int] | None = None
        self._second: dict[int, list[int]] = {}
        self._first_masks: tuple[int, int, int, int] | None = None
        self._second_masks: dict[int, tuple[int, int, int, int]] = {}

    def _masks(self, prefix: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """The masks of the step after ``prefix``, or ``None`` for a prefix no turn has."""
        if not prefix:
            return self._turn_start_masks()
        if len(prefix) == 1 and 0 <= prefix[0] < PLACEMENTS:
            first = prefix[0]
            masks = self._second_masks.get(first)
            if masks is None:
                cell, angle = divmod(first, 3)
                if not (self._turn_start_masks()[angle] >> cell) & 1:
                    return None
                # None: the first piece ends the turn (the opening, or no piece left)
                seconds = second_step_masks(self._s, first, self._start_masks())
                masks = (0, 0, 0, _END_BIT) if seconds is None else (*seconds, _END_BIT)
                self._second_masks[first] = masks
            return masks
        return None

    def _start_masks(self) -> tuple[int, int, int]:
        """The turn start's placement masks (:func:`.state.step_masks`), which both steps'
        listings read: the second piece's are the first's less its cell, at higher angles."""
        start = self._start
        if start is None:
            start = self._start = step_masks(self._s)
        return start

    def _turn_start_masks(self) -> tuple[int, int, int, int]:
        masks = self._first_masks
        if masks is None:
            masks = _NO_STEP if self._s[OVER] else (*self._start_masks(), _PASS_BIT)
            self._first_masks = masks
        return masks

    def legal(self, prefix: tuple[int, ...]) -> list[int]:
        # listed straight from the engine (OpenSpiel asks every position's list); the
        # masks are made only where a mask or a check is asked first (PettingZoo)
        if not prefix:
            if self._first is None:
                if self._s[OVER]:
                    self._first = []
                else:
                    firsts = self._first = _state.codes_listing(*self._start_masks())  # ours
                    firsts.append(PASS)
            return self._first
        if len(prefix) == 1 and 0 <= prefix[0] < PLACEMENTS:
            first = prefix[0]
            seconds = self._second.get(first)
            if seconds is None:
                firsts = self.legal(())  # ascending: a bisection, not a scan
                at = bisect_left(firsts, first)
                if at == len(firsts) or firsts[at] != first:
                    return []
                # None: the first piece ends the turn (the opening, or no piece left)
                seconds = second_step_codes(self._s, first, self._start_masks()) or []
                seconds.append(END)
                self._second[first] = seconds
            return seconds
        return []

    def allows(self, prefix: tuple[int, ...], action: int) -> bool:
        """Whether ``action`` is a legal step after ``prefix`` (read from the masks)."""
        masks = self._masks(prefix)
        if masks is None or not 0 <= action < SIZE:
            return False
        if action < PLACEMENTS:
            cell, angle = divmod(action, 3)
            return bool((masks[angle] >> cell) & 1)
        return bool(masks[3] & (_END_BIT if action == END else _PASS_BIT))

    def mask(self, prefix: tuple[int, ...]) -> np.ndarray:
        """PettingZoo's mask of the step after ``prefix``: an ``int8`` array of
        :data:`SIZE`, 1 at each legal id (a new array)."""
        boards = np.frombuffer(_PACK_MASKS(*(self._masks(prefix) or _NO_STEP)), np.uint8)
        return _BYTE_BITS.take(boards, axis=0).take(_GATHER)

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
    decision_masks = True

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
