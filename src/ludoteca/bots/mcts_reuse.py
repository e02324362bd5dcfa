"""Tree reuse in :mod:`ludoteca.bots.mcts`: the tree is kept between moves, and the node of the
new position, looked up a few plies below the move the bot chose, becomes the new root."""

from __future__ import annotations

from ludoteca.core.protocol import State

from .base import Deadline
from .mcts_tree import Node

REUSE_DEPTH = 6
"""How many plies below the bot's own last move the new position is looked for."""
REUSE_NODES = 3000
"""How many tree nodes the look-up may replay before giving up and starting afresh."""


class TreeReuse:
    """Finding the new root in the old tree (a part of :class:`~ludoteca.bots.mcts.MCTSBot`)."""

    _root: Node | None
    _root_state: State | None
    _chosen: Node | None

    def _reuse(self, state: State, deadline: Deadline) -> Node | None:
        """The node of ``state`` in the previous tree, detached as a new root, or ``None``.

        Looked for below the move this bot chose last, where the game goes on; only a bot that
        chose nothing there (a game joined midway) looks below the old root. In Comune the
        old root's other moves made up most of the tree: looking among them took the whole
        tenth of the budget the look-up may take, on every move, and found nothing.
        """
        old, old_state, chosen = self._root, self._root_state, self._chosen
        self._root = self._root_state = self._chosen = None
        if old is None or old_state is None or not _same_game(old_state, state):
            return None
        target = state.position()
        if old_state.position() == target:
            return old
        frontier: list[tuple[Node, State]] = [(old, old_state)]
        if chosen is not None:
            after = old_state.clone()
            after.play(chosen.move)
            if after.position() == target:
                return chosen
            frontier = [(chosen, after)]
        examined = 0
        budget_share = None if deadline.seconds is None else 0.1 * deadline.seconds
        for _ in range(REUSE_DEPTH):
            next_frontier: list[tuple[Node, State]] = []
            for node, node_state in frontier:
                for child in sorted(node.children, key=lambda ch: -ch.visits):
                    examined += 1
                    if examined > REUSE_NODES or (
                        budget_share is not None and deadline.elapsed() > budget_share
                    ):
                        return None
                    if child.is_step:  # part of a move: same position, look further down
                        next_frontier.append((child, node_state))
                        continue
                    probe = node_state.clone()
                    probe.play(child.move)
                    if probe.position() == target:
                        return child
                    if child.children:
                        next_frontier.append((child, probe))
            frontier = next_frontier
            if not frontier:
                break
        return None


def _same_game(a: State, b: State) -> bool:
    return a.game.id == b.game.id and a.game.options == b.game.options
