"""Leaf values of :mod:`ludoteca.bots.mcts`: playouts (fast, move by move, cut short), the
playout policy, RAVE's statistics, and the compile-once warm-up of a game's playout."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core.ai import Playout
from ludoteca.core.protocol import State

from .base import BotError, Deadline
from .evaluation import evaluate, solo_score
from .mcts_tree import Node
from .policies import random_move_for, unchecked_play_for
from .steps import stepper_for


class Playouts:
    """The values a search gives its leaves (a part of :class:`~ludoteca.bots.mcts.MCTSBot`)."""

    rng: random.Random
    step: bool
    best_of: int
    playout: str | None
    rave: float | None
    _policy: str
    _playout: Playout
    _plain: bool
    _rave: float
    _amaf_size: int
    _amaf_index: Any
    _events: list[tuple[int, int]] | None
    _cutoff: int
    _deadline: Deadline
    _interruptible: bool
    last_fast: int

    def final_value(self, state: State) -> tuple[float, ...]:
        if state.num_players == 1:
            return (solo_score(state),)
        assert state.result is not None
        return state.result.payoffs()

    def playout_value(self, state: State) -> tuple[float, ...] | None:
        """The value of one random playout from ``state`` (which may be changed).

        ``None`` when the playout was abandoned at the deadline (see :meth:`_search`).
        """
        if state.is_over:
            return self.final_value(state)
        if self._interruptible or self._cutoff > 0:
            return self._interruptible_playout(state)
        if state.num_players == 1 and self._plain:  # the score counts, which payoffs do not
            draw, play, rng = random_move_for(state), unchecked_play_for(state), self.rng
            while not state.is_over:
                play(draw(state, rng))
            return self.final_value(state)
        self.last_fast += 1
        return tuple(
            self._playout(
                state, self.rng, policy=self._policy, best_of=self.best_of, amaf=self._events
            )
        )

    def _interruptible_playout(self, state: State) -> tuple[float, ...] | None:
        """A random playout move by move: it gives up at the deadline, and with a cutoff it
        stops after ``cutoff`` moves and lets the game's evaluation judge the position."""
        rng = self.rng
        draw, play = random_move_for(state), unchecked_play_for(state)
        left = self._cutoff if self._cutoff > 0 else -1
        while not state.is_over:
            if self._deadline.expired():
                return None
            if left == 0:
                return evaluate(state)
            play(draw(state, rng))
            left -= 1
        return self.final_value(state)

    def _playout_policy(self, state: State) -> str:
        """The playout policy of a search from ``state``: the bot's, else the game's."""
        knowledge = state.game.search_knowledge()
        policy = self.playout or knowledge.playout_policy
        if policy not in knowledge.playout_policies:
            raise BotError(
                state.game.id,
                f"playout={policy} is not a playout of this game "
                f"(it has: {', '.join(knowledge.playout_policies)})",
            )
        return policy

    def _set_rave(self, state: State) -> None:
        """Whether this search keeps "all moves as first" statistics, and how."""
        knowledge = state.game.search_knowledge()
        self._rave = knowledge.rave if self.rave is None else self.rave
        if self._rave and not knowledge.amaf_size:
            if self.rave is not None:
                raise BotError(state.game.id, "rave needs move statistics this game lacks")
            self._rave = 0.0
        self._amaf_size, self._amaf_index = knowledge.amaf_size, knowledge.amaf_index

    def _with_amaf(self, node: Node) -> Node:
        """The decision ``node``, given its RAVE statistics when a simulation first passes
        through it (most leaves never see one, so they hold none: 1.5 kB a node in Comune)."""
        if node.amaf_n is not None:
            return node
        import numpy as np

        size = self._amaf_size
        node.amaf_n, node.amaf_w = np.zeros(size, np.float32), np.zeros(size, np.float32)
        assert node.untried is not None
        index = self._amaf_index
        keys = [index(move) for move in node.untried]
        node.untried_keys = np.array(keys, dtype=np.intp)
        return node

    def stepper(self, state: State):
        return stepper_for(state) if self.step else None

    def _leaf_value(self, node: Node, state: State) -> tuple[float, ...] | None:
        return node.proven if node.proven is not None else self.playout_value(state)


def default_cutoff(state: State) -> int:
    """The game's playout cutoff from its search knowledge (0: whole playouts)."""
    return state.game.search_knowledge().cutoff_for(state.num_players)


_warmed: set[str] = set()


def warm_up(state: State) -> None:
    """Run one playout of ``state``'s game untimed, once per process.

    A game's fast playout path may be compiled on first use (numba), which takes far longer
    than a move's budget; whoever runs timed games (the arena, a server) calls this first so
    that no move pays for it. The game's endgame solver, where its search knowledge has one
    (:attr:`~ludoteca.core.ai.SearchKnowledge.warm_up`), is compiled here too.
    """
    key = state.game.id
    if key in _warmed or state.is_over:
        return
    knowledge = state.game.search_knowledge()
    knowledge.playout(state.clone(), random.Random(0))
    prepare = knowledge.warm_up
    if prepare is not None:  # the game's endgame solver, compiled too
        prepare()
    _warmed.add(key)
