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

Near the end the bots need no heuristic: with at most :data:`EXACT_EMPTIES` empty squares
a position is solved exactly (:func:`.flat.solve`, alpha-beta over the bitboards with a
transposition table, compiled by numba), which turns the last half of the game from a
tempo fight the random playouts judge poorly into one the search plays perfectly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ludoteca.core.ai import SearchKnowledge, squash

from . import flat
from .flat import CHOOSE, DRAW, MOVE, PLAY
from .state import squares_of

if TYPE_CHECKING:
    from .state import KuniumiState

POLICY_CODES = {"uniform": flat.UNIFORM, "decisive": flat.DECISIVE, "wary": flat.WARY}
"""The kernel's code of each playout policy by name. ``"decisive"``: a playout takes a win in
one move and avoids a move that ends the game otherwise; ``"wary"``: besides, it avoids moves
that let the opponent win at once (:func:`.flat.policy_targets`)."""


def playout(
    state: KuniumiState,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """Payoffs of one random playout by the compiled kernel (state unchanged): uniform, or by
    another of :data:`POLICY_CODES` in play.

    The kernel's generator is seeded from ``rng``, so a seeded caller stays deterministic.
    With ``amaf`` a list, each action played is appended as ``(player, amaf_index)``.
    """
    if policy not in POLICY_CODES:
        raise ValueError(f"unknown Kuniumi playout policy {policy!r}")
    if state._result is not None:
        return state._result.payoffs()
    from .jit import compiled, new_trace

    k = compiled()
    trace = new_trace()
    winner, plies, _ = k.playout(
        state.land,
        state.sea,
        state.earth_god,
        state.sea_god,
        state.phase,
        state.first,
        state.side,
        k.rng_seed(rng.getrandbits(32)),
        trace,
        POLICY_CODES[policy],
    )
    if amaf is not None:
        amaf.extend(_traced(state, trace, plies))
    if winner == DRAW:
        return (0.5, 0.5)
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def _traced(state: KuniumiState, trace: Any, plies: int) -> list[tuple[int, int]]:
    """A playout's actions as ``(player, amaf_index(action))``: the set-up is the first
    player's, the choice the second's, then the players alternate from whoever is to
    move (the first player once the sides are chosen)."""
    mover = state.to_move if state.phase == PLAY else 0
    out = []
    for action in trace[:plies].tolist():
        if action < CHOOSE:
            out.append((0, action))
        elif action < MOVE:
            out.append((1, action))
        else:
            out.append((mover, flat.amaf_index(action)))
            mover = 1 - mover
    return out


SAFE_WEIGHT = 0.25
THREAT_WEIGHT = 0.8
TO_MOVE_BONUS = 0.3


def _liberties_once(pieces: int, empty: int) -> int:
    """Empty squares that are the only liberty of some group of ``pieces``."""
    out = 0
    rest = pieces
    while rest:
        group = flat.fill(rest & -rest, pieces)
        rest &= ~group
        libs = flat.neighbours(group) & empty
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
        if flat.closed_pieces(mine | b, empty & ~b):
            count += 1
    return count


def side_features(state, side: int) -> tuple[int, int]:
    """(safe moves, threats) of ``side`` (``flat.LAND`` or ``flat.SEA``) in a play position."""
    land, sea = state.land, state.sea
    occupied = land | sea
    empty = flat.FULL & ~occupied
    mine, theirs = (land, sea) if side == flat.LAND else (sea, land)
    god = state.earth_god if side == flat.LAND else state.sea_god
    targets = flat.god_targets(god, mine, occupied)
    poisoned = _liberties_once(theirs, empty)
    return flat.popcount(targets & ~poisoned), _threats(mine, targets, empty)


def evaluate(state) -> tuple[float, ...]:
    result = state.result
    if result is not None:
        return result.payoffs()
    if state.phase != flat.PLAY:
        return squash([1.0, 1.0])
    safe_l, threat_l = side_features(state, flat.LAND)
    safe_s, threat_s = side_features(state, flat.SEA)
    x = SAFE_WEIGHT * (safe_l - safe_s) + THREAT_WEIGHT * (threat_l - threat_s)
    x += TO_MOVE_BONUS if state.side == flat.LAND else -TO_MOVE_BONUS
    land_share = 1.0 / (1.0 + math.exp(-x))
    land_player = state.player_of(flat.LAND)
    shares = [0.0, 0.0]
    shares[land_player] = land_share
    shares[1 - land_player] = 1.0 - land_share
    return squash(shares)


EXACT_EMPTIES = 16
"""Positions with at most this many empty squares are solved exactly when the tree adds
them. From random endgames the solver needs some 10,000 nodes on average at 16 empties
(about 10 ms, 36,000 at most in a sample of 20), 120,000 at 18 and millions at 20."""

EXACT_WORK = 20_000
"""The solver's node limit for one position; past it the position is left to the search.
Some 20 ms here, so a timed search overruns its deadline by little more than that, and a
position the solver cannot settle costs the search little: with a limit of 200,000 one
move of a 1,000-simulation search took two minutes, of positions it mostly gave up on."""

HARDEST_WORK = 400_000
"""The solver nodes :func:`hardest` may spend on one choice, after which the moves left
are not examined."""
HARDEST_NODES_PER_SECOND = 2_000_000
"""The solver nodes :func:`hardest` counts on a second (it visits some three million: 400,000
in 0.13 s): in a timed move it spends no more than the time left allows."""

TABLE_BITS = 20
"""The solver's transposition table holds ``2 ** TABLE_BITS`` entries (24 MB a process)."""


@cache
def _solver() -> tuple[Any, ...]:
    """The compiled solver and the arrays it works in, one set a process.

    The table holds proven bounds of positions, true whoever stored them, so every search
    of the process shares it, and solving the next move's positions finds most of the work
    done. Concurrent searches at worst find the node count reset by another and give up
    early (the position is then "not known").
    """
    import numpy as np

    from .jit import compiled

    size = 1 << TABLE_BITS
    return (
        compiled().solve,
        np.zeros(size, np.int64),
        np.zeros(size, np.int64),
        np.zeros(size, np.int64),
        np.zeros(2, np.int64),
        np.zeros(flat.SOLVE_STACK, np.int64),
    )


def solved(state, spent: list[int] | None = None) -> int | None:
    """The exact value of an unfinished play position for the side to move (1 win, 0 draw,
    -1 loss), or ``None`` where the solver gave up; the nodes it took are added to
    ``spent[0]`` if given."""
    solve, tt_a, tt_b, tt_v, work, stack = _solver()
    work[0] = 0
    work[1] = EXACT_WORK
    land, sea = state.land, state.sea
    v = solve(land, sea, state.earth_god, state.sea_god, state.side, tt_a, tt_b, tt_v, work, stack)
    if spent is not None:
        spent[0] += int(work[0])
    return None if v == flat.UNKNOWN else int(v)


def warm_up_solver() -> None:
    """The solver compiled (or loaded from numba's cache) before a timed search needs it:
    compiling it takes seconds on a machine's first run, and the first endgame a search
    meets would otherwise pay for it inside a move. One node of the empty board does it."""
    solve, tt_a, tt_b, tt_v, work, stack = _solver()
    work[0] = 0
    work[1] = 1
    solve(1, 1 << 35, 1, 1 << 35, flat.LAND, tt_a, tt_b, tt_v, work, stack)


def exact_value(state) -> tuple[float, ...] | None:
    """The payoffs of perfect play from a position with at most :data:`EXACT_EMPTIES` empty
    squares (``None`` elsewhere, and where the solver gave up): see :data:`KNOWLEDGE`."""
    if state.phase != flat.PLAY or state.result is not None:
        return None
    if flat.empty_count(state.land, state.sea) > EXACT_EMPTIES:
        return None
    v = solved(state)
    if v is None:
        return None
    shares = [0.0, 0.0]
    shares[state.to_move] = (v + 1) / 2
    shares[1 - state.to_move] = (1 - v) / 2
    return tuple(shares)


def hardest(state, moves: Sequence[int], seconds: float | None = None) -> int:
    """Among moves of one proven value in a lost or drawn position, the one the opponent
    answers wrongly most often: the largest share of their replies that give us more than
    their best reply does (solved exactly; a reply the solver gives up on counts as right).

    A search that sees every move lose would otherwise play any of them, and an opponent
    that searches by sampling finds a win with one answer among fifteen less often than
    one with fifteen. At most :data:`HARDEST_WORK` solver nodes are spent on a choice, and
    with ``seconds`` (what is left of a timed move) no more than they allow: a move not
    examined to the end by then is not compared (the first that does not end the game stands
    if none was: with no time left, a move that loses at once is never the one played)."""
    me = state.to_move
    work = HARDEST_WORK
    if seconds is not None:
        work = min(work, int(max(seconds, 0.0) * HARDEST_NODES_PER_SECOND))
    best, best_share = moves[0], -1.0
    spent = [0]
    for move in moves:
        child = state.clone()
        child.play(move)
        if child.is_over:
            continue
        if best_share < 0:  # none compared yet: at least a move that does not end the game
            best = move
        if spent[0] >= work:
            break
        values = []
        for reply in child.legal_moves():
            if spent[0] >= work:
                return best
            after = child.clone()
            after.play(reply)
            if after.result is not None:
                values.append(after.result.payoffs()[me])
                continue
            v = solved(after, spent)
            if v is None:
                values.append(0.0)  # not known: as if the opponent answered right
            else:
                values.append((v + 1) / 2 if after.to_move == me else (1 - v) / 2)
        right = min(values)
        share = sum(1 for v in values if v > right) / len(values)
        if share > best_share:
            best, best_share = move, share
    return best


def mirror(square: int) -> int:
    """The square a half turn of the board takes ``square`` to (a1 <-> f6)."""
    return flat.SQUARES - 1 - square


def symmetric_setup(state, moves: Sequence[int]) -> Sequence[int]:
    """In the set-up, the placements that keep the board alike for both sides: the Sea God
    and the Sea tokens on the squares a half turn takes the Earth God and the Land tokens
    to. The other player then gains nothing by choosing a side, and the first player moves
    first. Outside the set-up, every move; where no such placement is legal, none (the
    search then considers every move)."""
    if state.phase != flat.SETUP:
        return moves
    kind = state.next_setup_kind
    occupied = state.land | state.sea
    if kind == 0:
        return moves
    if kind == 1:
        wanted = {mirror(state.earth_god.bit_length() - 1)}
        return [m for m in moves if m % flat.SQUARES in wanted]
    land_tokens = squares_of(state.land & ~state.earth_god)
    if kind == 2:
        return [
            m
            for m in moves
            if not occupied >> mirror(m % flat.SQUARES) & 1
            and mirror(m % flat.SQUARES) not in land_tokens
        ]
    sea_tokens = set(squares_of(state.sea & ~state.sea_god))
    wanted = {mirror(sq) for sq in land_tokens} - sea_tokens
    return [m for m in moves if m % flat.SQUARES in wanted]


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The eight rotations and reflections of the board, each as a table square -> square.

    The rules know only orthogonal adjacency and whole rows and columns, both of which every
    one of them keeps: a set-up and its image are the same game."""
    out = []
    for transpose in (False, True):
        for flip_rank in (False, True):
            for flip_file in (False, True):
                table = []
                for square in range(flat.SQUARES):
                    rank, file = divmod(square, 6)
                    if transpose:
                        rank, file = file, rank
                    if flip_rank:
                        rank = 5 - rank
                    if flip_file:
                        file = 5 - file
                    table.append(6 * rank + file)
                out.append(tuple(table))
    return tuple(out)


SYMMETRIES = _symmetries()


def _image(board: int, table: tuple[int, ...]) -> int:
    out = 0
    for square in squares_of(board):
        out |= 1 << table[square]
    return out


def setup_key(state) -> tuple[int, ...]:
    """The same key for a set-up board and for each of its images under :data:`SYMMETRIES`."""
    boards = (state.land, state.sea, state.earth_god, state.sea_god)
    return min(tuple(_image(b, table) for b in boards) for table in SYMMETRIES)


def distinct_setups(state, moves: Sequence[int]) -> Sequence[int]:
    """:func:`symmetric_setup`'s placements, one for each set of placements whose boards a
    rotation or reflection of the board turns into one another (the first of each, in the
    order of ``moves``): they are the same game, and the first player's search spreads its
    simulations over six squares for the Earth God instead of thirty-six. Outside the set-up,
    every move."""
    moves = symmetric_setup(state, moves)
    if state.phase != flat.SETUP:
        return moves
    seen: set[tuple[int, ...]] = set()
    out = []
    for move in moves:
        child = state.clone()
        child.play(move)
        key = setup_key(child)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


LEVEL_SPECS = {"medium": "mcts:seconds=0.25,exact=0,playout=uniform"}
"""Kuniumi's medium is the plain search: with this game's solver and wary playouts a quarter
of a second plays almost as well as a second (hard won 58-6-36 over 100 games, 61%, and
62.5% against the same without the solver), which leaves no level between; without both,
hard won 77-5-18 (79.5%), and medium still beat easy 98-2-0 (see ``docs/strength.md``)."""


KNOWLEDGE = SearchKnowledge(
    playout=playout,
    playout_policies=tuple(POLICY_CODES),
    level_specs=LEVEL_SPECS,
    evaluate=evaluate,
    amaf_size=flat.AMAF_SIZE,
    amaf_index=flat.amaf_index,
    candidate_moves=distinct_setups,
    exact_value=exact_value,
    warm_up=warm_up_solver,
    proven_choice=hardest,
    playout_policy="wary",
)
"""Kuniumi's search: its evaluation (alpha-beta and greedy), ``wary`` playouts that see a
move ahead, the endgame solved exactly, and the first player's set-ups searched once per
symmetry. A uniform playout closes a group by accident every few moves, so it judges the
tempo fight hardly better than a coin; the solver proves the short endgames the playouts
misjudge. ``mcts:exact=0`` turns the solver off, ``mcts:playout=uniform`` the wary playouts.
What each choice measured against OpenSpiel's MCTS, with the commands: ``docs/strength.md``
(Kuniumi's search)."""
