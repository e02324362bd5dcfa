"""Position evaluations: how good a position looks to each player, without searching.

An evaluation maps a state to one number per player, each in ``[0, 1]`` and summing to 1,
like :meth:`~ludoteca.core.protocol.Result.payoffs`: an estimate of each player's share of the
game. Finished games are scored by their result; heuristics stay inside ``[MARGIN, 1 - MARGIN]``
so that a won position always looks better than any unfinished one, and a lost one worse.

Each game may bring its own evaluation in its search knowledge
(:attr:`ludoteca.core.ai.SearchKnowledge.evaluate`, written in the game's ``ai.py``). Games
without one get :func:`generic`.
"""

from __future__ import annotations

from ludoteca.core.ai import MARGIN, Evaluation, solo_score, squash
from ludoteca.core.protocol import Game, State

__all__ = ["MARGIN", "Evaluation", "evaluate", "evaluation_for", "generic", "solo_score", "squash"]


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


def evaluation_for(game: Game) -> Evaluation:
    """The game's own evaluation if it declares one, else :func:`generic`."""
    return game.search_knowledge().evaluate or generic


def evaluate(state: State) -> tuple[float, ...]:
    return evaluation_for(state.game)(state)


def has_own_evaluation(game: Game) -> bool:
    return evaluation_for(game) is not generic
