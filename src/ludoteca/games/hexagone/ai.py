"""What the bots know of Hexagone: its evaluation, playout policy, cutoffs and levels.

**Evaluation: each player's chance of finishing with the most captured pieces.**

The game is won on captured pieces, but a lead is only worth what is still to be captured:
three pieces ahead with seventy left in play is nearly even, with fifteen left nearly won.
So a player's value is a logistic of their lead over the best other player, measured in
standard deviations of what the rest of the game can still swing, which grows like the
square root of the pieces left (block and pool; the game ends once the block is down to
ten). Without this scale (shares of the current scores, the generic evaluation) a big lead
flattens every choice: one more capture barely moves a value already near 1, and the search
stops caring how many it takes.

The width comes from a logistic fit of who won against (lead, pieces left) over 89,590
turn starts of two-player games played by random swaps that take a capture when one exists:
widths of 0.8 and 0.9 per square-rooted piece fitted best (mean log-loss 0.458 and 0.459).
With this evaluation judging playouts cut after 6 moves, MCTS at 0.1 s a move scored 76.5%
against greedy over 100 games, against 61.5% with shares of the scores and 20-move playouts
(see :data:`CUTOFF`). The solo puzzle keeps its score.

**Playouts** draw their moves with :func:`ludoteca.games.hexagone.kernel.random_move` (reform
placements are checked by a search, so listing every legal move is the slow part) and play
them unchecked with ``apply``. Two-player games last some 330 moves, and a random playout to
the end says little, so playouts are cut (:data:`CUTOFF`) and judged by the evaluation.

**Levels** (measured in ``docs/strength.md``): for two to four players, greedy play with
noise below master, and a short search at master; the solo puzzle keeps the standard levels.
"""

from __future__ import annotations

import math
import random

from ludoteca.core.ai import SearchKnowledge, solo_score, squash
from ludoteca.core.protocol import Move, State

from .geometry import NEIGHBOURS
from .state import OVER, SMALL_BLOCK, HexagoneState

SPREAD = 0.9
"""Width of the logistic per square root of the pieces left."""
SETTLE = 2.0
"""Pieces added under the root, so the last captures still have some spread."""


def evaluate(state: HexagoneState) -> tuple[float, ...]:
    n = state.num_players
    if n == 1:
        return (solo_score(state),)
    result = state.result
    if result is not None:
        return result.payoffs()
    scores = state.scores()
    left = max(sum(state.counts) + sum(state.pool) - SMALL_BLOCK, 0)
    width = SPREAD * math.sqrt(left + SETTLE)
    values = []
    for i, own in enumerate(scores):
        best_other = max(s for j, s in enumerate(scores) if j != i)
        values.append(1.0 / (1.0 + math.exp(-(own - best_other) / width)))
    return squash(values)


CUTOFF = 6
"""Moves a playout plays in the game for two to four before the evaluation judges.

Measured in two-player Hexagone: with whole playouts MCTS at 0.25 s a move lost all 4 games to
greedy. Cut short and judged by :func:`evaluate`, at 0.1 s a move over 100 games against
greedy (``ludoteca arena hexagone --players 2 greedy mcts:seconds=0.1,cutoff=K --games 100
--seed 91``): cut at 3 moves it scored 68%, at 6 moves 76.5%, at 10 moves 75%, at 20 moves
59%. Playouts in which each swap is the first capturing one of six drawn (instead of
uniform) did worse: 47.5% at 6 moves, 36.5% at 20, at under half the playouts a second."""

SOLO_CUTOFF = 20
"""The same in the solo puzzle, scored by captures: over 60 seeded games at 0.1 s a move MCTS
averaged 31.4 captures cut at 20 and 30.2 cut at 6 (greedy 21.6; ``ludoteca arena hexagone
--players 1 mcts:seconds=0.1,cutoff=6 mcts:seconds=0.1,cutoff=20 greedy --games 60 --seed
43``)."""

PLANNER_HORIZON = 2
"""Rolls a planner's rollout looks ahead: in the solo puzzle one base-policy rollout to the
end costs tens of milliseconds; two rolls ahead, valued with :func:`pairs`, leave room for
many more rounds in a budget a person waits for."""

LEVEL_SPECS = {
    "easy": "greedy:noise=0.6",
    "medium": "greedy:noise=0.25",
    "hard": "greedy",
    "master": "mcts:seconds=0.25",
}
"""The levels with two to four players (why: ``docs/strength.md``)."""


def pairs(state: State) -> float:
    """Pairs of touching pieces of one colour in the block: what a solo position prepares
    for later captures (the planner's potential)."""
    cells = state.cells  # type: ignore[attr-defined]
    half = NEIGHBOURS[0], NEIGHBOURS[2], NEIGHBOURS[4]  # each pair once
    get = cells.get
    return float(sum(1 for c, k in cells.items() for d in half if get(c + d) == k))


def random_move(state: HexagoneState, rng: random.Random) -> Move:
    """One move by the uniform random policy, without listing every reform placement."""
    from .kernel import random_move as draw

    return draw(state, rng)


def playout(
    state: HexagoneState,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """Payoffs of one uniform random playout, played by the compiled kernel (:mod:`.jit`,
    imported only when first asked: numba is slow to import); the state is unchanged.
    Uniform only, without move statistics (the knowledge offers no more)."""
    if state.phase == OVER:
        result = state.result
        assert result is not None
        return result.payoffs()
    from .jit import fast_playout

    return fast_playout(state, rng)


KNOWLEDGE = SearchKnowledge(
    playout=playout,
    evaluate=evaluate,  # type: ignore[arg-type]
    random_move=random_move,  # type: ignore[arg-type]
    unchecked_play="apply",
    cutoff=CUTOFF,
    solo_cutoff=SOLO_CUTOFF,
    planner_horizon=PLANNER_HORIZON,
    planner_potential=pairs,
    level_specs=LEVEL_SPECS,
)
