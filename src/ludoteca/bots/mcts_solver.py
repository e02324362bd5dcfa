"""The solver of :mod:`ludoteca.bots.mcts` and the move it plays: nodes proven by their
children, proven wins played at once, proven losses avoided, and among moves that keep a
proven loss or draw the one the game's knowledge prefers."""

from __future__ import annotations

import math
import random

from ludoteca.core.protocol import CHANCE, Move, State

from .base import Deadline
from .mcts_tree import Node
from .steps import MoveTrie


class Solver:
    """Proven values and the choice of the move (a part of :class:`~ludoteca.bots.mcts.MCTSBot`)."""

    rng: random.Random
    _chosen: Node | None
    _deadline: Deadline

    def _try_prove(self, node: Node, solo: bool) -> bool:
        """Mark ``node`` proven if its children settle its value; say whether it is now."""
        if node.player == CHANCE:
            if len(node.children) < len(node.outcomes):
                return False
            values = [ch.proven for ch in node.children if ch.proven is not None]
            if len(values) < len(node.children):
                return False
            weight = dict(zip(node.outcomes, node.weights, strict=True))
            n = len(node.totals)
            node.proven = tuple(
                math.fsum(
                    weight[ch.move] * v[i] for ch, v in zip(node.children, values, strict=True)
                )
                for i in range(n)
            )
            return True
        p = node.player
        best: Node | None = None
        best_value: tuple[float, ...] = ()
        for child in node.children:
            value = child.proven
            if value is None:
                continue
            if not solo and value[p] >= 1.0:
                node.proven, node.proof = value, child
                return True
            if best is None or value[p] > best_value[p]:
                best, best_value = child, value
        if node.untried is None or node.untried or best is None:
            return False
        if any(ch.proven is None for ch in node.children):
            return False
        node.proven, node.proof = best_value, best
        return True

    def _best_move(self, root: Node, state: State) -> Move:
        """The move to play: best children downwards until a whole move is reached.

        The node of that move is kept (``_chosen``): the next search looks for its position
        below it first (see :meth:`_reuse`)."""
        self._chosen = None
        choice = self._proven_choice(root, state)
        if choice is not None:
            self._chosen = choice
            return choice.move
        node, chosen = self._descend(root)
        if chosen is not None:
            self._chosen = chosen
            return chosen.move
        if node.trie is not None:
            return self._completion(node.trie, node.prefix)
        return self.rng.choice(state.legal_moves())  # nothing searched yet

    def _leading_move(self, root: Node) -> Move | None:
        """The move the search would play now, by best children alone, or ``None`` where
        none leads yet (or only the first parts of one do): what a search tells a caller
        as it goes (:mod:`ludoteca.bots.progress`). Unlike :meth:`_best_move` it draws
        nothing (the bot's generator is left as it was) and asks the game's knowledge
        nothing, so telling it changes nothing of the search."""
        _, chosen = self._descend(root)
        return None if chosen is None else chosen.move

    def _descend(self, root: Node) -> tuple[Node, Node | None]:
        """Best children downwards from ``root``: the node of the whole move reached, with the
        last node passed; or, where no child leads below some node (nothing searched there
        yet), that node and ``None``."""
        node = root
        while True:
            child = self._best_child(node)
            if child is None or not child.is_step:
                return node, child
            node = child

    def _proven_choice(self, root: Node, state: State) -> Node | None:
        """In a position proven lost or drawn, the child the game's knowledge picks among those
        that keep the proven value (:attr:`ludoteca.core.ai.SearchKnowledge.proven_choice`);
        ``None`` where it has no say."""
        proven, proof = root.proven, root.proof
        if proven is None or proof is None or proof.is_step or state.num_players == 1:
            return None
        chooser = state.game.search_knowledge().proven_choice
        p = root.player
        if chooser is None or proven[p] >= 1.0:
            return None
        equal = [ch for ch in root.children if ch.proven is not None and ch.proven[p] == proven[p]]
        if len(equal) < 2:
            return None
        move = chooser(state, [ch.move for ch in equal], self._deadline.left())
        return root.child_for(move)

    def _best_child(self, root: Node) -> Node | None:
        """The proven best if the root is proven; else the most visited unproven child, unless a
        proven child is known to be at least as good as that child's mean."""
        if root.proof is not None:
            return root.proof
        p = root.player
        unproven = [ch for ch in root.children if ch.proven is None]
        proven = [ch for ch in root.children if ch.proven is not None]
        robust = max(unproven, key=lambda ch: (ch.visits, ch.mean(p)), default=None)
        safest = max(proven, key=lambda ch: _proven(ch)[p], default=None)
        if robust is None:
            return safest
        if safest is not None and _proven(safest)[p] >= robust.mean(p):
            return safest
        return robust

    def _completion(self, trie: MoveTrie, prefix: tuple) -> Move:
        """A random legal move that begins with the parts ``prefix``."""
        while prefix not in trie.moves:
            prefix = (*prefix, self.rng.choice(trie.next_steps[prefix]))
        return trie.moves[prefix]


def _proven(node: Node) -> tuple[float, ...]:
    """A node's proven value, for a node known to be proven."""
    assert node.proven is not None
    return node.proven
