"""Every turn of a Comune position counted exactly over two turns: what it scores, and the
most the opponent can score with their best answer.

Comune has no captures: a turn never changes the opponent's groups, only where the opponent
may still place (an occupied cell, or a cell next to a new piece at another angle). And a
player's three counted groups grow independently, one angle each, so the best answer is
found per angle: the best legal cell for each angle (and the second best, for two pieces that
would want the same cell), then the best product of up to two of them. That makes the count
of every turn and every answer of a position (millions of turn pairs) exact in milliseconds
instead of hours, which is what lets a puzzle's answer be proven over two turns
(:mod:`ludoteca.puzzles.prove`). ``tests/games/comune/test_two_turns.py`` compares it with
the engine's own enumeration of every turn and answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import flat
from .geometry import NEIGH, cells_of
from .notation import decode_turn, encode_turn
from .state import ComuneState

Choice = tuple[int, int]
"""``(group size the placement makes, cell)``."""


@dataclass(frozen=True)
class TurnCount:
    """One turn, counted: the mover's score after it, the opponent's best score after their
    best answer (``reply``, a turn value; ``pass`` when nothing beats keeping still)."""

    move: int
    score: int
    reply_score: int
    reply: int

    @property
    def net(self) -> int:
        """The mover's lead once the opponent has answered as well as they can."""
        return self.score - self.reply_score


def _grown(s: list[int], player: int) -> tuple[list[int], list[dict[int, int]]]:
    """``player``'s largest group at each angle now, and for each cell where they may place
    at that angle the largest group after placing there."""
    now, after = [], []
    for angle in range(3):
        pieces = s[flat.PIECES + 3 * player + angle]
        now.append(flat.max_group(pieces))
        legal = flat.placement_mask(s, player, angle)
        after.append({cell: flat.max_group(pieces | (1 << cell)) for cell in cells_of(legal)})
    return now, after


def _best_answer(
    now: list[int], ranked: list[list[Choice]], closed: list[int], pairs: bool
) -> tuple[int, tuple[int, ...]]:
    """The highest score the opponent reaches in one turn with the cells in ``closed[angle]``
    taken from them, and the placement codes that reach it (none: pass)."""
    tops: list[list[Choice]] = []
    for angle in range(3):
        shut = closed[angle]
        top = []
        for size, cell in ranked[angle]:
            if not (shut >> cell) & 1:
                top.append((size, cell))
                if len(top) == 2:
                    break
        tops.append(top)
    best = now[0] * now[1] * now[2]
    codes: tuple[int, ...] = ()
    for angle in range(3):  # one piece
        if tops[angle]:
            size, cell = tops[angle][0]
            sizes = list(now)
            sizes[angle] = size
            value = sizes[0] * sizes[1] * sizes[2]
            if value > best:
                best, codes = value, (cell * 3 + angle,)
    if not pairs:
        return best, codes
    for a, b in ((0, 1), (0, 2), (1, 2)):  # two pieces at different angles, different cells
        for size_a, cell_a in tops[a]:
            for size_b, cell_b in tops[b]:
                if cell_a == cell_b:
                    continue
                sizes = list(now)
                sizes[a], sizes[b] = size_a, size_b
                value = sizes[0] * sizes[1] * sizes[2]
                if value > best:
                    best, codes = value, (cell_a * 3 + a, cell_b * 3 + b)
    return best, codes


def count_turns(state: ComuneState) -> list[TurnCount]:
    """Every legal turn of ``state`` (at the start of a turn), counted over two turns."""
    if state.is_over or state.mid_turn:
        return []
    s = state._s
    me = s[flat.TO_MOVE]
    you = 1 - me
    mine_now, mine_after = _grown(s, me)
    yours_now, yours_after = _grown(s, you)
    ranked = [sorted(((v, c) for c, v in yours_after[a].items()), reverse=True) for a in range(3)]
    supply = s[flat.SUPPLY + you]
    counted = []
    for move in state.legal_moves():
        sizes = list(mine_now)
        closed = [0, 0, 0]
        placed = 0
        for code in decode_turn(move):
            cell, angle = divmod(code, 3)
            sizes[angle] = mine_after[angle][cell]
            bit, near = 1 << cell, NEIGH[cell]
            placed += 1
            for other in range(3):
                closed[other] |= bit if other == angle else bit | near
        # after the turn: the opponent's supply is theirs, and the board is not empty
        # (Light's one-piece opening) unless this was that opening's pass
        pairs = supply >= 2 and not (placed == 0 and s[flat.OCC] == 0 and you == 0)
        codes: tuple[int, ...]
        if supply <= 0 or (placed == 0 and s[flat.PASSES] >= 1):  # no answer, or game over
            best, codes = yours_now[0] * yours_now[1] * yours_now[2], ()
        else:
            best, codes = _best_answer(yours_now, ranked, closed, pairs)
        counted.append(TurnCount(move, sizes[0] * sizes[1] * sizes[2], best, encode_turn(codes)))
    return counted
