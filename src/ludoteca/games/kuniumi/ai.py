"""What the bots know of Kuniumi: how good a position looks, from the engine's bitboards.

In play every move fills exactly one empty square with the mover's colour (the God lands
there; the token left behind keeps its old square in the same colour), and the game ends as
soon as a group has no empty neighbour: its owner wins. So a position is about

- **safe moves**: the mover's God targets that do not fill the last liberty of an enemy
  group (which would hand the enemy the win). A side that runs out of safe moves must give
  the game away, so the side with more of them is better off;
- **threats**: squares whose filling would close one of a side's own groups next move (a win
  in waiting, which the other side cannot take away by filling the square itself).

The value is a logistic squash of the weighted differences, kept inside the heuristic range
of :mod:`ludoteca.core.ai`. The set-up and the choice have no heuristic (equal shares):
search and playouts judge them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ludoteca.core.ai import SearchKnowledge, squash

from . import bits
from .state import squares_of

SAFE_WEIGHT = 0.25
THREAT_WEIGHT = 0.8
TO_MOVE_BONUS = 0.3


def _liberties_once(pieces: int, empty: int) -> int:
    """Empty squares that are the only liberty of some group of ``pieces``."""
    out = 0
    rest = pieces
    while rest:
        group = bits.fill(rest & -rest, pieces)
        rest &= ~group
        libs = bits.neighbours(group) & empty
        if libs and libs & (libs - 1) == 0:
            out |= libs
    return out


def _threats(mine: int, targets: int, empty: int) -> int:
    """How many of ``targets`` would close a group of ``mine`` if ``mine`` filled them."""
    count = 0
    t = targets
    while t:
        b = t & -t
        t &= t - 1
        if bits.closed_pieces(mine | b, empty & ~b):
            count += 1
    return count


def side_features(state, side: int) -> tuple[int, int]:
    """(safe moves, threats) of ``side`` (``bits.LAND`` or ``bits.SEA``) in a play position."""
    land, sea = state.land, state.sea
    occupied = land | sea
    empty = bits.FULL & ~occupied
    mine, theirs = (land, sea) if side == bits.LAND else (sea, land)
    god = state.earth_god if side == bits.LAND else state.sea_god
    targets = bits.god_targets(god, mine, occupied)
    poisoned = _liberties_once(theirs, empty)
    return bits.popcount(targets & ~poisoned), _threats(mine, targets, empty)


def evaluate(state) -> tuple[float, ...]:
    result = state.result
    if result is not None:
        return result.payoffs()
    if state.phase != bits.PLAY:
        return squash([1.0, 1.0])
    safe_l, threat_l = side_features(state, bits.LAND)
    safe_s, threat_s = side_features(state, bits.SEA)
    x = SAFE_WEIGHT * (safe_l - safe_s) + THREAT_WEIGHT * (threat_l - threat_s)
    x += TO_MOVE_BONUS if state.side == bits.LAND else -TO_MOVE_BONUS
    land_share = 1.0 / (1.0 + math.exp(-x))
    land_player = state.player_of(bits.LAND)
    shares = [0.0, 0.0]
    shares[land_player] = land_share
    shares[1 - land_player] = 1.0 - land_share
    return squash(shares)


def mirror(square: int) -> int:
    """The square a half turn of the board takes ``square`` to (a1 <-> f6)."""
    return bits.SQUARES - 1 - square


def symmetric_setup(state, moves: Sequence[int]) -> Sequence[int]:
    """In the set-up, the placements that keep the board alike for both sides: the Sea God
    and the Sea tokens on the squares a half turn takes the Earth God and the Land tokens
    to. The other player then gains nothing by choosing a side, and the first player moves
    first. Outside the set-up, every move; where no such placement is legal, none (the
    search then considers every move)."""
    if state.phase != bits.SETUP:
        return moves
    kind = state.next_setup_kind
    occupied = state.land | state.sea
    if kind == 0:
        return moves
    if kind == 1:
        wanted = {mirror(state.earth_god.bit_length() - 1)}
        return [m for m in moves if m % bits.SQUARES in wanted]
    land_tokens = squares_of(state.land & ~state.earth_god)
    if kind == 2:
        return [
            m
            for m in moves
            if not occupied >> mirror(m % bits.SQUARES) & 1
            and mirror(m % bits.SQUARES) not in land_tokens
        ]
    sea_tokens = set(squares_of(state.sea & ~state.sea_god))
    wanted = {mirror(sq) for sq in land_tokens} - sea_tokens
    return [m for m in moves if m % bits.SQUARES in wanted]


KNOWLEDGE = SearchKnowledge(
    evaluate=evaluate,
    amaf_size=bits.AMAF_SIZE,
    amaf_index=bits.amaf_index,
    candidate_moves=symmetric_setup,
)
"""Kuniumi's search uses its evaluation (alpha-beta and greedy); MCTS plays whole playouts.

Its moves have RAVE indices (a God move by the square it fills), so ``mcts:rave=K`` works
here, but the search's default keeps it off: measured in :mod:`ludoteca.bots.levels`, it
wins at equal simulations and loses at equal time.

The first player's set-up is searched among :func:`symmetric_setup`'s placements only. With
every placement open, the set-ups our search made let OpenSpiel's MCTS, choosing the better
side, take the games: as the first player our search scored 33% over 80 games at 1,000
simulations each (``python bench/strength.py kuniumi --seat 1 --games 40 --seed S --ours
mcts:iterations=1000,candidates=0`` for seeds 11 and 12: 41% and 25%); with the set-up alike
for both sides, 51% over the same 80 games (56% and 46%). It costs nothing at play time.

Tried and dropped: implicit minimax backups of :func:`evaluate` (weight 0.3) lost 12-5-43
to the plain search at 1,000 simulations each (``ludoteca arena kuniumi
mcts:iterations=1000,mm=0.3 mcts:iterations=1000 --games 60 --seed 5``): like the cut-off
playouts, it shows the evaluation is too rough to steer the search."""
