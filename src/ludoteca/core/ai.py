"""What a game tells a search about itself: the shape of per-game search knowledge.

The bots in :mod:`ludoteca.bots` are written for any game. Where a game needs more than the
protocol to be searched well (an evaluation of unfinished positions, a faster way to draw a
random move, turns searched one part at a time, playouts cut short, level settings that suit
it), the game declares it in a :class:`SearchKnowledge` returned by
:meth:`ludoteca.core.protocol.Game.search_knowledge`, written in the game's own ``ai.py``.
The bots read that object and never name a game, as OpenSpiel hands a game's specifics to
its ``MCTSBot`` as objects; a fifth game brings its knowledge in its own package.

This module also holds the small helpers an evaluation is built from (:func:`squash`,
:func:`solo_score`), so that a game's ``ai.py`` depends on the core only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .playout import random_payoffs

if TYPE_CHECKING:
    from .protocol import Move, State

Evaluation = Callable[["State"], tuple[float, ...]]
"""A state -> one share per player in ``[0, 1]``, summing to 1 (like ``Result.payoffs``)."""

Stepper = Callable[["Move"], tuple[Hashable, ...]]
"""A move -> its parts, searched one at a time; the sequences must be prefix-free."""


class Playout(Protocol):
    """One playout from a state, which it leaves unchanged: the payoffs of the game played
    to its end (see :meth:`ludoteca.core.protocol.Result.payoffs`), by ``policy`` (one of
    :attr:`SearchKnowledge.playout_policies`), each move the best-scoring of ``best_of``
    drawn at random where :attr:`SearchKnowledge.best_of_playouts`, appending
    ``(player, amaf_index)`` to ``amaf`` for each move it plays where the game keeps
    "all moves as first" statistics (:attr:`SearchKnowledge.amaf_size`)."""

    def __call__(
        self,
        state: Any,
        rng: random.Random,
        *,
        policy: str = "uniform",
        best_of: int = 1,
        amaf: list[tuple[int, int]] | None = None,
    ) -> tuple[float, ...]: ...


MARGIN = 0.02
"""Heuristic values keep this far from 0 and 1, which belong to proven results."""


@dataclass(frozen=True)
class SearchKnowledge:
    """Everything game-specific a search may use; every field defaults to the generic way.

    Fields are read once per search or bot, so a game builds this once (a module constant in
    its ``ai.py``) and the bots keep a reference.
    """

    evaluate: Evaluation | None = None
    """How good an unfinished position looks to each player; ``None``: the generic
    evaluation (shares of the scores, see :func:`ludoteca.bots.evaluation.generic`)."""

    random_move: Callable[[State, random.Random], Move] | None = None
    """Draws one move by the uniform random policy (chance: by probability) without listing
    every legal move, where listing is the slow part; ``None``: choose from ``legal_moves``."""

    unchecked_play: str | None = None
    """The name of a state method that plays a move known to be legal without checking it
    or keeping it for undo (for playouts on throw-away clones); ``None``: ``play``."""

    steps: Stepper | None = None
    """Splits a move into parts so the tree shares what it learns about a first part among
    every move that starts with it (turns of several placements)."""

    lazy_steps: Callable[[State], Any] | None = None
    """Builds, for a position, an object with ``next_steps[prefix]`` and ``moves.get(prefix)``
    listing the parts directly from the engine (cheaper than listing whole moves); preferred
    to :attr:`steps` when present. See :class:`LazySteps` and :class:`LazyMoves`."""

    candidate_moves: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None
    """The legal moves a tree search considers in a position, where the game knows some to
    be no better than others (e.g. a set-up whose sides are alike); an empty answer means
    all of them. ``None``: every legal move."""

    exact_value: Callable[[Any], tuple[float, ...] | None] | None = None
    """The value of a position under perfect play (one payoff per player), where the game
    can work it out cheaply, typically an endgame solver near the end; ``None`` from it: not
    known here. A tree search marks the nodes it adds with it as proven. ``None``: the game
    has no such solver."""

    warm_up: Callable[[], None] | None = None
    """Compiles (or loads from numba's cache) what :attr:`exact_value` runs, untimed: a
    search calls it with its fast playout's warm-up, so that the first position it solves
    in a timed move does not pay for the compiler. ``None``: nothing to prepare."""

    proven_choice: Callable[[Any, Sequence[Any], float | None], Any] | None = None
    """Where the search has proven its position lost or drawn, picks among the moves that
    keep that value (``state, moves, seconds -> move``) the one a fallible opponent is
    likeliest to answer badly, within ``seconds``, what is left of the move's time budget
    (None: no time budget): the pick comes after the search, inside the move's time.
    ``None``: the search's own pick."""

    playout: Playout = random_payoffs
    """The playout search runs millions of times (the leaf evaluation of MCTS, as OpenSpiel's
    ``Evaluator``): a game's fastest path (a compiled kernel); the default plays uniformly
    at random through the protocol."""

    playout_policies: tuple[str, ...] = ("uniform",)
    """The policies :attr:`playout` takes as ``policy=NAME``: ``"uniform"`` (every legal
    move alike) and any the game adds."""

    best_of_playouts: bool = False
    """Whether :attr:`playout` takes ``best_of=k``: each move the best-scoring of k drawn at
    random instead of a uniform one."""

    playout_policy: str = "uniform"
    """The policy of MCTS playouts (one of :attr:`playout_policies`): ``"uniform"``,
    or a game's own policy with some sense of the game, which makes each simulation say more
    about a position than a uniform one for a little more time."""
    amaf_size: int = 0
    """How many move indices :attr:`amaf_index` gives (0: the game keeps no "all moves as
    first" statistics, and its search no RAVE)."""
    amaf_index: Callable[[Any], int] | None = None
    """A move, or part of one, as an index below :attr:`amaf_size`: moves alike enough that
    playing one later says something of playing the other now share it. :attr:`playout`
    with ``amaf=list`` appends ``(player, index)`` for each move it plays."""
    rave: float = 0.0
    """The search's RAVE equivalence parameter for this game (0: off)."""
    exploration: float | None = None
    """UCT's exploration constant for this game's search; ``None``: the search's own."""
    cutoff: int = 0
    """Playouts stop after this many moves and :attr:`evaluate` judges (0: to the end)."""

    solo_cutoff: int | None = None
    """The cutoff when one player plays (a solo puzzle); ``None``: :attr:`cutoff`."""

    planner_horizon: int = 0
    """Chance events a planner's rollout looks ahead (0: to the end of the game)."""

    planner_potential: Callable[[State], float] | None = None
    """What a solo position prepares for later scoring, a small bonus in the planner."""

    level_specs: Mapping[str, str] = field(default_factory=dict)
    """Level name -> the bot spec that level plays in this game (two or more players),
    where the standard one does not suit it."""

    solo_level_specs: Mapping[str, str] = field(default_factory=dict)
    """The same for the game with one player."""

    def cutoff_for(self, num_players: int) -> int:
        if num_players == 1 and self.solo_cutoff is not None:
            return self.solo_cutoff
        return self.cutoff

    def level_spec(self, level: str, num_players: int, standard: str) -> str:
        specs = self.solo_level_specs if num_players == 1 else self.level_specs
        return specs.get(level, standard)


GENERIC = SearchKnowledge()
"""What a game that declares nothing gets."""


def squash(values: list[float]) -> tuple[float, ...]:
    """Shares that sum to 1, each inside ``[MARGIN, 1 - MARGIN]`` (for two or more players)."""
    n = len(values)
    if n == 1:
        return (min(1.0 - MARGIN, max(MARGIN, values[0])),)
    total = sum(values)
    shares = [v / total for v in values] if total > 0 else [1.0 / n] * n
    span = 1.0 - n * MARGIN
    return tuple(MARGIN + span * s for s in shares)


def solo_score(state: State) -> float:
    """A solo game's score (its result's, once over): what a one-player search maximises.

    Every finished solo game is "won", so payoffs cannot tell a good game from a bad one.
    """
    result = state.result
    scores = result.scores if result is not None and result.scores is not None else state.scores()
    if scores is None:
        return result.payoffs()[0] if result is not None else 0.0
    return float(scores[0])


class LazySteps(dict):
    """``prefix -> next parts``, each entry asked of the engine the first time it is used
    (for :attr:`SearchKnowledge.lazy_steps`)."""

    def __init__(self, fill: Callable[[tuple], list[Hashable]]) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, prefix: tuple) -> list[Hashable]:
        parts = self[prefix] = self.fill(prefix)
        return parts


class LazyMoves:
    """``prefix -> whole move`` for the prefixes that complete a move."""

    def __init__(self, complete: Callable[[tuple], Move | None]) -> None:
        self.complete = complete

    def get(self, prefix: tuple, default: Any = None) -> Any:
        move = self.complete(prefix)
        return default if move is None else move

    def __contains__(self, prefix: tuple) -> bool:
        return self.complete(prefix) is not None

    def __getitem__(self, prefix: tuple) -> Move:
        move = self.complete(prefix)
        if move is None:
            raise KeyError(prefix)
        return move
