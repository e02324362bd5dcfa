"""Position evaluations: how good a position looks to each player, without searching.

An evaluation maps a state to one number per player, each in ``[0, 1]`` and summing to 1,
like :meth:`~ludoteca.core.protocol.Result.payoffs`: an estimate of each player's share of the
game. Finished games are scored by their result; heuristics stay inside ``[MARGIN, 1 - MARGIN]``
so that a won position always looks better than any unfinished one, and a lost one worse.

Each game may bring its own evaluation as a module here named after the game id (e.g.
:mod:`ludoteca.bots.evaluation.kuniumi`) defining ``evaluate(state)``; it may use only the
state's public methods (``scores()``, ``result``, ``position()``, ``legal_moves()``) and helpers
the engine documents. Games without one get :func:`generic`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache

from ludoteca.core.protocol import Game, State

Evaluation = Callable[[State], tuple[float, ...]]

MARGIN = 0.02
"""Heuristic values keep this far from 0 and 1, which belong to proven results."""


def squash(values: list[float]) -> tuple[float, ...]:
    """Shares that sum to 1, each inside ``[MARGIN, 1 - MARGIN]`` (for two or more players)."""
    n = len(values)
    if n == 1:
        return (min(1.0 - MARGIN, max(MARGIN, values[0])),)
    total = sum(values)
    shares = [v / total for v in values] if total > 0 else [1.0 / n] * n
    span = 1.0 - n * MARGIN
    return tuple(MARGIN + span * s for s in shares)


def generic(state: State) -> tuple[float, ...]:
    """The fallback: the result once over, else shares of the current scores, else equal shares.

    Shares of ``score + 1`` grow with a player's own score and shrink with everyone else's,
    which is all a one-ply search needs to prefer scoring moves.
    """
    result = state.result
    n = state.num_players
    if n == 1:
        return (solo_score(state),)
    if result is not None:
        return result.payoffs()
    scores = state.scores()
    if scores is None:
        return squash([1.0] * n)
    low = min(scores)
    return squash([s - low + 1.0 for s in scores])


def solo_score(state: State) -> float:
    """A solo game's score (its result's, once over): what a one-player search maximises.

    Every finished solo game is "won", so payoffs cannot tell a good game from a bad one.
    """
    result = state.result
    scores = result.scores if result is not None and result.scores is not None else state.scores()
    if scores is None:
        return result.payoffs()[0] if result is not None else 0.0
    return float(scores[0])


@cache
def evaluation_for(game_id: str) -> Evaluation:
    """The game's own evaluation if it has one, else :func:`generic`."""
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game_id}":
            raise
        return generic
    return module.evaluate


def evaluate(state: State) -> tuple[float, ...]:
    return evaluation_for(state.game.id)(state)


def has_own_evaluation(game: Game) -> bool:
    return evaluation_for(game.id) is not generic
