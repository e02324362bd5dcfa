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

from ludoteca.core.ai import SearchKnowledge, squash

from . import bits

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


KNOWLEDGE = SearchKnowledge(evaluate=evaluate, amaf_size=bits.AMAF_SIZE, amaf_index=bits.amaf_index)
"""Kuniumi's search uses its evaluation (alpha-beta and greedy); MCTS plays whole playouts.

Its moves have RAVE indices (a God move by the square it fills), so ``mcts:rave=K`` works
here, but the search's default keeps it off: measured in :mod:`ludoteca.bots.levels`, it
wins at equal simulations and loses at equal time."""
