"""The search tree of :mod:`ludoteca.bots.mcts`: its nodes and their "all moves as first"
statistics (RAVE).

Positions are not stored but replayed, and nodes hold no reference to their parent, so
a dropped tree is freed at once (see :class:`Node`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludoteca.core.protocol import CHANCE, TERMINAL, Move, State

from .steps import MoveTrie, lazy_steps_for

if TYPE_CHECKING:
    from .mcts import MCTSBot


class Node:
    """One position in the tree (the position itself is not stored: it is replayed).

    Nodes hold no reference to their parent, so a tree has no reference cycles: a dropped
    tree is freed at once, and the search can pause the cyclic garbage collector (whose full
    passes over a large tree would otherwise stall a move past its time).
    """

    __slots__ = (
        "move",
        "player",
        "children",
        "untried",
        "outcomes",
        "weights",
        "visits",
        "totals",
        "proven",
        "proof",
        "trie",
        "prefix",
        "is_step",
        "key",
        "untried_keys",
        "amaf_n",
        "amaf_w",
    )

    def __init__(self, move: Move | None, state: State, n: int, bot: MCTSBot):
        self.move = move
        self.player = state.to_move
        self.visits = 0
        self.totals = [0.0] * n
        self.proven: tuple[float, ...] | None = None
        self.proof: Node | None = None  # the child whose value proved this node
        self.children: list[Node] = []
        self.untried: list[Move] | None = []
        """Moves (or parts) not yet tried; ``None`` until the node is first searched from."""
        self.outcomes: list[Move] = []
        self.weights: list[float] = []
        self.trie: MoveTrie | None = None
        self.prefix: tuple = ()
        self.is_step = False
        self.key = -1
        """The move's index in the parent's "all moves as first" statistics (RAVE)."""
        self.untried_keys: Any = None
        """With RAVE, the indices of the ``untried`` moves, in the same order (an array)."""
        self.amaf_n: Any = None
        """Per move index: simulations through here in which the mover played it later."""
        self.amaf_w: Any = None
        """Per move index: the mover's payoffs summed over those simulations."""
        if self.player == TERMINAL:
            self.proven = bot.final_value(state)
        elif self.player == CHANCE:
            for outcome, p in state.chance_outcomes():
                self.outcomes.append(outcome)
                self.weights.append(p)
        else:
            self.untried = None  # listed lazily: most leaves are never searched from

    def list_moves(self, state: State, bot: MCTSBot) -> None:
        """List the moves of a decision node (as a trie of parts where the game has them)."""
        lazy = lazy_steps_for(state) if bot.step else None
        if lazy is not None:
            self.trie = lazy(state)
            self.untried = list(self.trie.next_steps[()])
            bot.rng.shuffle(self.untried)
            return
        moves = state.legal_moves()
        candidates = state.game.search_knowledge().candidate_moves if bot.candidates else None
        if candidates is not None:
            moves = candidates(state, moves) or moves
        stepper = bot.stepper(state)
        if stepper is not None and len(moves) > 1:
            self.trie = MoveTrie(moves, stepper)
            self.untried = list(self.trie.next_steps[()])
        else:
            self.untried = list(moves)
        bot.rng.shuffle(self.untried)

    @classmethod
    def step_child(cls, parent: Node, step, bot: MCTSBot) -> Node:
        """A node for part of a move: same position and player as ``parent``, one more part."""
        node = cls.__new__(cls)
        node.move, node.player = step, parent.player
        node.visits, node.totals = 0, [0.0] * len(parent.totals)
        node.proven = node.proof = None
        node.children, node.outcomes, node.weights = [], [], []
        node.trie, node.prefix, node.is_step = parent.trie, (*parent.prefix, step), True
        node.key = -1
        node.amaf_n = node.amaf_w = None
        assert node.trie is not None  # a node of parts always has its trie
        node.untried = list(node.trie.next_steps[node.prefix])
        bot.rng.shuffle(node.untried)
        node.untried_keys = None
        return node

    def take_untried(self, i: int) -> Move:
        """Remove and return the ``i``-th untried move (and its RAVE index)."""
        assert self.untried is not None
        if self.untried_keys is not None:
            self.untried_keys = _without(self.untried_keys, i)
        return self.untried.pop(i)

    def give_back(self, move: Move, key: int) -> None:
        """Put an untried move taken by a simulation that was then abandoned back."""
        assert self.untried is not None
        self.untried.append(move)
        if self.untried_keys is not None:
            self.untried_keys = _with(self.untried_keys, key)

    def child_for(self, move: Move) -> Node | None:
        for child in self.children:
            if child.move == move:
                return child
        return None

    def mean(self, player: int) -> float:
        return self.totals[player] / self.visits if self.visits else 0.0


def _without(keys, i: int):
    """An index array without its ``i``-th entry."""
    import numpy as np

    return np.delete(keys, i)


def _with(keys, key: int):
    """An index array with ``key`` appended."""
    import numpy as np

    return np.append(keys, key)


def _amaf_backup(marks: list[tuple[Node, int]], events, value: tuple[float, ...]) -> None:
    """Credit each node in ``marks`` (with where its moves start in ``events``) with the
    simulation's value for every move its mover played from there on ("all moves as
    first"; a move played twice counts once)."""
    later: dict[int, list[int]] = {}
    j = len(events)
    for node, start in reversed(marks):
        while j > start:
            j -= 1
            player, key = events[j]
            later.setdefault(player, []).append(key)
        keys = later.get(node.player)
        if keys:
            node.amaf_n[keys] += 1.0
            node.amaf_w[keys] += value[node.player]
