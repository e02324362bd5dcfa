"""Which child :mod:`ludoteca.bots.mcts` goes down to: UCT, blended with RAVE's "all moves as
first" statistics where a node keeps them, and which untried move it adds next."""

from __future__ import annotations

import math

from .mcts_tree import Node


class Selection:
    """The tree policy (a part of :class:`~ludoteca.bots.mcts.MCTSBot`)."""

    c: float
    _rave: float

    @staticmethod
    def _at_frontier(node: Node) -> bool:
        """Whether a capped tree ends at the decision ``node``: nothing below it to select
        (its moves untried, or every child it has already proven)."""
        return node.untried is None or all(ch.proven is not None for ch in node.children)

    def _select(self, node: Node, solo: bool) -> Node:
        best, _ = self._best_scored(node, solo)
        assert best is not None, "a node whose children are all proven is proven"
        return best

    def _best_scored(self, node: Node, solo: bool) -> tuple[Node | None, float]:
        """The unproven child UCT (with RAVE where the node keeps its statistics) would
        select, and its score; ``(None, -inf)`` if there is none."""
        p = node.player
        log_n = math.log(node.visits) if node.visits else 0.0
        c = self.c * (self._solo_scale(node) if solo else 1.0)
        best, best_score = None, float("-inf")
        sqrt = math.sqrt
        if node.amaf_n is None:
            for child in node.children:
                if child.proven is None:
                    visits = child.visits
                    score = child.totals[p] / visits + c * sqrt(log_n / visits)
                    if score > best_score:
                        best, best_score = child, score
            return best, best_score
        amaf_n, amaf_w, k = node.amaf_n.tolist(), node.amaf_w.tolist(), self._rave
        for child in node.children:
            if child.proven is not None:
                continue
            visits = child.visits
            mean = child.totals[p] / visits
            seen = amaf_n[child.key]
            if seen:
                beta = sqrt(k / (3 * visits + k))
                mean += beta * (amaf_w[child.key] / seen - mean)
            score = mean + c * sqrt(log_n / visits)
            if score > best_score:
                best, best_score = child, score
        return best, best_score

    def _to_expand(self, node: Node, solo: bool) -> tuple[int | None, Node | None]:
        """Whether to add an untried move of ``node`` now: ``(its index in untried, None)``,
        or ``(None, the child to select instead)``.

        Without RAVE statistics every move is added once, the last of the (shuffled) list
        first, before any child is selected again. With them the untried move with the best
        "all moves as first" mean is the candidate (a move never seen later in a simulation
        first of all), and it is added only while that mean is at least the score the best
        child would be selected by: at a node of a hundred placements, the simulations go
        to the moves that did well elsewhere, not one to each move in turn.
        """
        untried = node.untried
        assert untried
        if node.amaf_n is None:
            return len(untried) - 1, None
        import numpy as np

        seen = node.amaf_n[node.untried_keys]
        means = np.divide(
            node.amaf_w[node.untried_keys], seen, where=seen > 0, out=np.full(len(seen), 2.0)
        )
        pick = int(means.argmax())
        if means[pick] > 1.0 or not node.children:
            return pick, None
        best, score = self._best_scored(node, solo)
        if best is None or means[pick] >= score:
            return pick, None
        return None, best

    @staticmethod
    def _solo_scale(node: Node) -> float:
        """Exploration in a solo game scales with the spread of the scores seen here."""
        means = [ch.mean(0) for ch in node.children]
        return max(1.0, max(means) - min(means)) if means else 1.0
