"""What the bots know of Comino: playouts that take the best-scoring of several placements.

Comino's search plays out with the ``scoring`` policy (:func:`playout`): each placement of
a playout is the highest-scoring of :data:`SCORING_DRAWS` (ten) drawn at random. Uniform
playouts place tiles no player would, so a simulation says little about who is ahead;
playouts closer to how people play say more per simulation, and here the closer the
better. At 300 simulations a move, 40 games each (``ludoteca arena comino
mcts:iterations=300,best_of=A mcts:iterations=300,best_of=B --games 40 --jobs 1 --seed 5``): the
best of three beat the best of two 26-1-13, five beat three 24-0-16, ten beat five 24-1-15.

Against OpenSpiel's ``MCTSBot`` (random rollouts, UCT c=sqrt 2, solver) at 1,000
simulations each, seats alternating, the search with these playouts scored
84-0-16 over 100 games (84.0%, 95% interval 75.6-89.9%; 49 of 50 as the second player, 35
of 50 as the first): the games of ``python bench/strength.py comino --games 100 --jobs 1
--seed 1 --ours mcts:iterations=1000,best_of=10 --theirs-simulations 1000``, whose run
stopped after 88 (75-0-13), and its last 12 (9-0-3) by ``--first 89 --games 12`` with
``--ours mcts:iterations=1000`` (``best_of=10`` plays exactly as the ``scoring``
default), where the plain search is about level with it. Ten draws cost
time, but at the same quarter of a second a move it still beat the plain search 39-2-19
(66.7%; ``ludoteca arena comino mcts:seconds=0.25,playout=uniform mcts:seconds=0.25
--games 60 --jobs 1 --seed 7``, on a shared machine).

**The playouts are compiled** (:mod:`.flat`, :mod:`.jit`). In pure Python, nine tenths of
a search's time went to them and a one-second search ran some 1,200 simulations from the
start of a game, about as many as OpenSpiel's ``MCTSBot`` with its random rollouts, so at
equal time the edge was the playouts' sense alone: 84.0% over 100 games, as at equal
simulations. Compiled, the same search runs 8,000-9,500 simulations in that second (the
engine's own turn, which the tree replays, is now most of the cost), and ``hard`` scored
90-1-9 (90.5%, 95% interval 83.2-94.8%; 81% as the first player, 100% as the second) against
OpenSpiel calibrated to the same second (1,385 simulations; ``python bench/strength.py
comino --games 100 --jobs 2 --ours hard --equal-time 1 --seed 1``). More draws per placement
did not pay for their time: with the best of twenty, the same second won 77 of the 100
first-seat games (``--seat 1 --ours mcts:seconds=1,best_of=20 --theirs-simulations 1385``),
39 of the 50 that ``hard`` had played in the run above, where it won 40.5.

The standard levels therefore play these playouts, master included. Master used to play
out with the better of two placements (``mcts:seconds=4,best_of=2``, measured when the
other levels played uniform playouts); against hard with these playouts it scored only
51-0-49 (``ludoteca arena comino hard master --games 100 --jobs 2 --seed 54``), and the
standard ``mcts:seconds=4`` 24-0-16 (60%, ``ludoteca arena comino hard mcts:seconds=4
--games 40 --jobs 2 --seed 55``), so it plays the standard search, without ``best_of``
(at four seconds, over 100 games against hard: 65-2-33, 66%, seed 98, with the playouts in
pure Python; compiled, 57-2-41, 58%, on the same seed), now for eight seconds
(:data:`LEVEL_SPECS`). The exploration constant stays the search's own: a lower one did not
help (see :mod:`ludoteca.bots.levels`).

Trying a position's placements best-scoring first and no more of them than its visits allow
(progressive widening, ``1 + sqrt(n)`` children after ``n`` visits, each placement's points
worked out by the compiled kernel) did not pay either: the deeper tree replays more engine
turns, a third fewer simulations a second, and at one second it won 78 of 100 first-seat games
against OpenSpiel (``--seat 1 --theirs-simulations 1385 --seed 1``), 39 of the 50 that hard
had played in the run above, where it won 40.5. Not kept.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ludoteca.core.ai import SearchKnowledge

if TYPE_CHECKING:
    from .state import CominoState

PLAYOUT_POLICIES = ("uniform", "scoring")
"""``"scoring"``: each placement of a playout the highest-scoring of :data:`SCORING_DRAWS`
drawn at random (the search's default)."""

SCORING_DRAWS = 10
"""Placements drawn per turn by the ``"scoring"`` playout (see above for the measurements
that chose it)."""


def playout(
    state: CominoState,
    rng: random.Random,
    *,
    policy: str = "uniform",
    best_of: int = 1,
    amaf: list[tuple[int, int]] | None = None,
) -> tuple[float, ...]:
    """The payoffs of one random playout through the compiled kernel (:mod:`.jit`; a
    position its grid cannot hold through :mod:`.kernel`), the state unchanged.

    Uniform; with ``best_of`` k > 1 each placement is the highest-scoring of k drawn at
    random (see :mod:`.kernel`), and the ``"scoring"`` policy is the same with
    :data:`SCORING_DRAWS` (an explicit ``best_of`` wins). Comino keeps no "all moves as
    first" statistics (its knowledge has no ``amaf_size``), so nothing is appended to
    ``amaf``.
    """
    from .jit import playout_scores

    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown Comino playout policy {policy!r}")
    if best_of <= 1 and policy == "scoring":
        best_of = SCORING_DRAWS
    scores = playout_scores(state, rng, best_of=best_of)
    if scores is None:  # a position the compiled grid cannot hold
        from .kernel import playout_from_state

        scores = playout_from_state(state, rng, best_of=best_of)
    s1, s2 = scores
    if s1 == s2:
        return (0.5, 0.5)
    return (1.0, 0.0) if s1 > s2 else (0.0, 1.0)


LEVEL_SPECS: dict[str, str] = {"medium": "mcts:seconds=0.05", "master": "mcts:seconds=8"}
"""Comino's medium searches a twentieth of a second and its master eight seconds; easy and
hard are the standard levels.

Once the playouts were compiled, a quarter of a second held some 2,000 simulations, and the
step between levels four times apart shrank: hard beat that medium 58-2-40 (59%; ``ludoteca
arena comino medium hard --games 100 --jobs 2 --seed 52``; the first player won 22 of the
100, and between players that close the seat decides most games). A twentieth of a second
holds some 430 simulations, about what medium searched in a quarter of a second before, and
hard beat it 80-1-19 (80.5%, ``ludoteca arena comino mcts:seconds=0.05 hard --games 100
--jobs 2 --seed 52``) while it beat easy 96-1-3 (96.5%, ``ludoteca arena comino easy
mcts:seconds=0.05 --games 100 --jobs 2 --seed 51``).

At the top the same: the standard master's four seconds beat hard only 57-2-41 (58%,
``ludoteca arena comino hard mcts:seconds=4 --games 100 --jobs 2 --seed 98``). Eight seconds
beat it 63-2-35 over the same 100 games (64.0%, 95% interval 54.2-72.7%; ``ludoteca arena
comino hard mcts:seconds=8 --games 100 --jobs 2 --seed 98``): 45.5 of 50 as the second player,
18.5 of 50 as the first, its slowest move 7.76 s of its 8; 100 more games (``--seed 99``)
ended the same, 63-2-35, so over 200 games 64.0% (57.1-70.3%). Close to the 65% of the other
games' steps, and a master's game of eleven moves still takes about a minute of its thought
(5.7 s a move on average: proven positions near the end are played at once). Twelve seconds
did no better: 21-2-16 (56%) over the first 39 games of the same seed (``ludoteca arena comino
hard mcts:seconds=12 --games 100 --jobs 2 --seed 98``, stopped there), 4.5 of 19 as the first
player. The first seat caps the step: over the 200 games master won 89.5 of its 100 as the
second player but 38.5 of 100 as the first, and against OpenSpiel eight seconds won 25 of 30
first-seat games where hard's one second won 27 of the same deals (see the README's strength
section)."""


def warm_up() -> None:
    """Compile (or load from numba's cache) the search's playout before any timed move,
    whatever position the caller warms up with (a game still being dealt plays out without
    it). Imported late: numba takes a third of a second to import."""
    from .jit import warm_up as compile_playout

    compile_playout()


KNOWLEDGE = SearchKnowledge(
    playout=playout,
    playout_policies=PLAYOUT_POLICIES,
    best_of_playouts=True,
    level_specs=LEVEL_SPECS,
    playout_policy="scoring",
    warm_up=warm_up,
)
