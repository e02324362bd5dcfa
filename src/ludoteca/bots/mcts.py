"""Monte-Carlo tree search (UCT) for every game of the protocol.

- **Any number of players.** Each node keeps the summed payoffs of every player
  (:meth:`~ludoteca.core.protocol.Result.payoffs`), and the player to move at a node picks
  the child that is best *for that player*. A game where one player moves several times in a
  row (phases of one turn) needs nothing special.
- **Chance.** At a chance node the search draws outcomes by their probabilities with its own
  seeded generator (never the table's), and keeps one child per outcome seen.
- **Solver.** A finished position is a proven value. A node is proven when its mover has a
  proven child that gives them everything (payoff 1), or when every child is proven (the
  mover takes the best; a chance node the probability-weighted mean). Proven children are not
  searched again, proven wins are played at once and proven losses avoided.
- **Tree reuse.** The tree is kept between moves; on the next call the node of the new
  position is looked up a few plies below the move the bot chose (below the old root if
  it chose none there) and becomes the new root.
- **Moves in parts.** Where a game's moves are made of parts (a Comune turn of two
  placements, see :mod:`ludoteca.bots.steps`), the tree grows one part at a time, so what
  it learns about a first placement is shared by every turn that starts with it.
- **Playouts** go through the game's :attr:`ludoteca.core.ai.SearchKnowledge.playout` (the
  leaf evaluation, one signature for every game): its fastest path, by default a uniform
  random game through the protocol. With ``cutoff=K`` (the default where the game's search
  knowledge sets one, :attr:`ludoteca.core.ai.SearchKnowledge.cutoff`) they stop after K
  moves and the game's evaluation (:mod:`ludoteca.bots.evaluation`) judges the position
  instead: in long score games (Hexagone) a short look ahead scored by the scores
  says more than a noisy whole game. With ``best_of=k`` (games whose knowledge sets
  ``best_of_playouts``, Comino) each playout move is the best-scoring of k drawn at random,
  closer to how people play.
- **RAVE** (``rave=K``, the game's default where its search knowledge sets one): a decision
  node keeps, for every move index (:attr:`ludoteca.core.ai.SearchKnowledge.amaf_index`),
  how the simulations through it went in which its mover played that move *later*, in the
  tree or in the playout ("all moves as first"). A child's mean is blended with that
  statistic by ``sqrt(K / (3 n + K))`` after ``n`` visits. Untried moves are added best
  statistic first, and only while that statistic is at least the best child's score, so at
  a node of a hundred placements the simulations go to the ones that did well elsewhere
  instead of one to each in turn. Games whose moves mean much the same whenever they are
  played (Comune's placements) gain most; playouts report their moves through
  ``playout(..., amaf=list)``.
- **Candidate moves** (``candidates=0`` turns them off): where a game's search knowledge
  knows some legal moves to be no better than others, the tree considers only the rest
  (Kuniumi's first player places a set-up alike for both sides).
- **Exact values** (``exact=0`` turns them off): where a game's search knowledge has an
  exact solver (:attr:`ludoteca.core.ai.SearchKnowledge.exact_value`, Kuniumi's endgame),
  each node the tree adds is asked first, and one it can solve is proven at once. This is
  work beyond the simulations: an equal-simulation comparison says so. In a position proven
  lost or drawn, the game's knowledge may pick among the moves that keep that value
  (:attr:`ludoteca.core.ai.SearchKnowledge.proven_choice`), since any of them is as good
  against perfect play and some give a fallible opponent more ways to go wrong.
- **Playout policies** (``playout=NAME``, one of the knowledge's ``playout_policies``; the
  game's default where its search knowledge names one): besides uniform random moves, a
  game may offer playouts with some sense of the game, such as Comune's ``grow``.
- **Bounded memory.** A tree stops growing at ``max_nodes`` nodes (:data:`MAX_NODES`);
  further simulations still run, from the leaves they reach, and refine the values of the
  nodes already there. The root's visits bound the tree's size (each simulation adds at
  most one node), so the check costs nothing.
- **Solo games** (one player) maximise the score (:func:`~ludoteca.bots.evaluation.solo_score`),
  since every finished solo game is "won".
Budgets: ``seconds``, ``iterations`` (simulations), ``depth`` (deepest tree node expanded;
playouts continue below it); how a time budget is kept is told in
:mod:`ludoteca.bots.mcts_budget`.

The search is split by part: the tree (:mod:`~ludoteca.bots.mcts_tree`), leaf values
(:mod:`~ludoteca.bots.mcts_playouts`), the tree policy (:mod:`~ludoteca.bots.mcts_select`),
the solver and the move played (:mod:`~ludoteca.bots.mcts_solver`) and tree reuse
(:mod:`~ludoteca.bots.mcts_reuse`); the simulation loop and the bot are here.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ludoteca.core.ai import Playout
from ludoteca.core.errors import MalformedError
from ludoteca.core.playout import random_payoffs
from ludoteca.core.protocol import CHANCE, TERMINAL, Move, State

from . import progress
from .base import Bot, BotError, Budget, Deadline, gc_paused
from .mcts_budget import HELD_SHARE, TAIL_SHARE, TYPICAL_WEIGHT
from .mcts_playouts import Playouts, default_cutoff, warm_up
from .mcts_reuse import TreeReuse
from .mcts_select import Selection
from .mcts_solver import Solver
from .mcts_tree import Node, _amaf_backup

__all__ = [
    "EXPLORATION",
    "HELD_SHARE",
    "MAX_NODES",
    "TAIL_SHARE",
    "MCTSBot",
    "Node",
    "default_cutoff",
    "simulation_rate",
    "warm_up",
]

EXPLORATION = 0.7
"""UCT's exploration constant where neither the bot nor the game sets one: about
``sqrt(2) / 2``, the textbook ``sqrt(2)`` for payoffs in ``[0, 1]`` instead of ``[-1, 1]``."""

MAX_NODES = 400_000
"""The default cap on a tree's size (``max_nodes=`` overrides). A Comune node costs some
1.2 kB (a 100,000-node tree added 113 MB), so a full tree holds about half a gigabyte; a
Comune search adds some 17,000 nodes a second on this machine, so only searches of half a
minute and more meet the cap (``python bench/mcts_memory.py`` measures a run of games). With
RAVE (Comune's default) a node that simulations pass through holds 1.5 kB more of
statistics, and nodes come some three times more slowly."""


class MCTSBot(Selection, Solver, TreeReuse, Playouts, Bot):
    """UCT with chance nodes, n players, a solver and tree reuse (see the module text)."""

    name = "mcts"
    default_budget = Budget(seconds=1.0)

    def __init__(
        self,
        seed=None,
        *,
        c: float | None = None,
        reuse: int = 1,
        step: int = 1,
        cutoff: int | None = None,
        max_nodes: int = MAX_NODES,
        best_of: int = 1,
        playout: str | None = None,
        rave: float | None = None,
        candidates: int = 1,
        exact: int = 1,
        **budget,
    ) -> None:
        super().__init__(seed, **budget)
        self.own_c = None if c is None else float(c)
        """UCT's exploration constant as given; ``None``: the game's
        (:attr:`ludoteca.core.ai.SearchKnowledge.exploration`), else :data:`EXPLORATION`."""
        self.c = EXPLORATION if c is None else float(c)
        self.reuse = _switch("reuse", reuse)
        self.step = _switch("step", step)
        self.cutoff = None if cutoff is None else int(cutoff)
        """If positive, playouts stop after this many moves and the evaluation judges;
        ``None``: the game's default (:func:`default_cutoff`; 0, whole playouts, elsewhere)."""
        self.max_nodes = _at_least_one("max_nodes", max_nodes)
        self.best_of = _at_least_one("best_of", best_of)
        """Playouts in which each move is the best-scoring of this many drawn at random (1:
        uniform), in games whose knowledge sets ``best_of_playouts`` (see
        :mod:`ludoteca.games.comino.ai` for what it is worth)."""
        self.playout = None if playout is None else str(playout)
        """The playout policy (one of the knowledge's ``playout_policies``); ``None``: the game's
        own (:attr:`ludoteca.core.ai.SearchKnowledge.playout_policy`)."""
        self.candidates = _switch("candidates", candidates)
        """Whether the tree considers only the moves the game's knowledge names as candidates
        (:attr:`ludoteca.core.ai.SearchKnowledge.candidate_moves`; 0: every legal move)."""
        self.exact = _switch("exact", exact)
        """Whether nodes the tree adds are valued by the game's exact solver where it has one
        (:attr:`ludoteca.core.ai.SearchKnowledge.exact_value`; 0: never)."""
        self._exact: Any = None
        self.rave = None if rave is None else float(rave)
        """RAVE's equivalence parameter k: a child's "all moves as first" mean weighs
        ``sqrt(k / (3 n + k))`` against its own mean after ``n`` visits (0: off); ``None``:
        the game's (:attr:`ludoteca.core.ai.SearchKnowledge.rave`)."""
        if self.rave is not None and not 0 <= self.rave < math.inf:
            raise MalformedError(f"rave={rave}", "rave is a number of simulations, 0 or more")
        self._policy = "uniform"
        self._playout: Playout = random_payoffs
        self._plain = True
        self._rave = 0.0
        self._amaf_size = 0
        self._amaf_index: Any = None
        self._events: list[tuple[int, int]] | None = None
        self._cutoff = 0
        self._root: Node | None = None
        self._root_state: State | None = None
        self._chosen: Node | None = None
        self._deadline = Deadline(None)
        self._interruptible = False
        self.last_iterations = 0
        """Simulations run by the last :meth:`choose` (for benchmarks and tests)."""
        self.last_fast = 0
        """How many of them played out through the game's fast playout."""
        self.last_seconds = 0.0
        """How long the last :meth:`choose` took, by the clock its time budget is kept by."""
        self.last_reused = 0
        """Visits the last :meth:`choose` inherited from the previous tree."""

    def reset(self) -> None:
        self._root = self._chosen = None
        self._root_state = None

    def warm_up(self, state: State) -> None:
        """The game's fast playout, compiled (or loaded from numba's cache) once a process,
        if this search plays whole playouts through it: playouts cut short (Hexagone's) and
        solo playouts go move by move through the engine, and compiling a kernel they never
        run would keep the first move of ``ludoteca play`` waiting for nothing."""
        cutoff = self.cutoff if self.cutoff is not None else default_cutoff(state)
        if cutoff > 0 or state.num_players == 1:
            return
        warm_up(state)

    def tree_size(self) -> int:
        """Nodes in the tree kept from the last move (0 if none): for memory benchmarks."""
        size, stack = 0, [self._root] if self._root is not None else []
        while stack:
            node = stack.pop()
            size += 1
            stack.extend(node.children)
        return size

    # --- the search -----------------------------------------------------------------------
    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        deadline = Deadline(budget.seconds)
        self._check(state)
        with gc_paused():  # a collection runs after the move, never inside its time
            root = self._reuse(state, deadline) if self.reuse else None
            # the old tree (if not reused) is freed here, at the start of the budget, where
            # the search accounts for the time it took, not after the search
            self._root = self._root_state = self._chosen = None
            if root is None:
                root = Node(None, state, state.num_players, self)
            self.last_reused = root.visits
            root_state = state.clone()
            self._search(root, root_state, budget, deadline)
            self._root, self._root_state = root, root_state
            move = self._best_move(root, state)
        self.last_seconds = deadline.elapsed()
        return move

    def search(self, state: State, budget: Budget) -> Node:
        """Run a fresh search from ``state`` and return the root (for analysis and tests)."""
        root = Node(None, state, state.num_players, self)
        with gc_paused():
            self._search(root, state.clone(), budget, Deadline(budget.seconds))
        return root

    def extend(self, root: Node, root_state: State, budget: Budget) -> None:
        """Search on from ``root`` (the tree of ``root_state``) within ``budget``: an analysis
        grows one tree a slice at a time, reporting between slices."""
        with gc_paused():
            self._search(root, root_state, budget, Deadline(budget.seconds))

    def _search(self, root: Node, root_state: State, budget: Budget, deadline: Deadline) -> None:
        self.last_iterations = self.last_fast = 0
        limit = budget.iterations
        max_depth = budget.depth
        solo = root_state.num_players == 1
        self._deadline = deadline
        own = self.cutoff
        self._cutoff = own if own is not None else default_cutoff(root_state)
        self._policy = self._playout_policy(root_state)
        self._set_rave(root_state)
        self._exact = root_state.game.search_knowledge().exact_value if self.exact else None
        if self.own_c is None:
            game_c = root_state.game.search_knowledge().exploration
            self.c = EXPLORATION if game_c is None else game_c
        self._playout = root_state.game.search_knowledge().playout
        self._plain = self.best_of == 1 and self._policy == "uniform" and not self._rave
        if self.best_of > 1:  # the best of k uniform draws, in place of the policy
            if not root_state.game.search_knowledge().best_of_playouts:
                raise BotError(
                    root_state.game.id,
                    "best_of needs playouts that can pick the best of several moves, "
                    "which this game does not have",
                )
            self._policy = "uniform"
        # Each simulation is planned before it starts (see the module text): whole playouts
        # while the slowest step so far fits before the deadline; then, if a typical
        # simulation is a sizeable share of the budget, playouts that give up at the deadline
        # (an abandoned simulation leaves no trace); else the search ends.
        tail = math.inf if budget.seconds is None else TAIL_SHARE * budget.seconds
        most = math.inf if budget.seconds is None else HELD_SHARE * budget.seconds
        slowest = 0.0  # the longest step of this search with a whole playout
        typical = 0.0  # their moving average, which a few delayed ones barely move
        self._interruptible = False
        if root.proven is not None and root.proof is None and root.player not in (CHANCE, TERMINAL):
            # A reused node the game's exact solver valued as a leaf: its value is known but
            # not the move that keeps it, so it is searched (its children are solved as they
            # are added). Left proven, the search did not run and a random move was played:
            # in Kuniumi endgames proven won, often one that lost at once.
            root.proven = None
        last = time.perf_counter()
        # a caller waiting on this search may want the leading move now and then (progress):
        # told after the first simulation that gives one, then every REPORT_SHARE of the time
        report = progress.sink() if budget.seconds is not None else None
        every = progress.REPORT_SHARE * (budget.seconds or 0.0)
        next_report = last
        while root.proven is None and (limit is None or self.last_iterations < limit):
            # short simulations: the longest step was a wait, of which only so much is kept
            whole = deadline.room_for(slowest if typical > tail else min(slowest, most))
            if not whole and (typical <= tail or deadline.expired()):
                break
            self._interruptible = not whole
            grow = root.visits + 1 < self.max_nodes  # a tree has at most visits + 1 nodes
            if not self._iterate(root, root_state.clone(), max_depth, solo, grow):
                break
            self.last_iterations += 1
            now = time.perf_counter()
            if whole:  # a step from the end of the last one: the loop's own work counts
                took = now - last
                slowest = max(took, slowest)
                typical += (took - typical) * TYPICAL_WEIGHT if typical else took
            last = now
            if report is not None and now >= next_report:
                next_report = now + every
                leading = self._leading_move(root)
                if leading is not None:
                    report(leading)

    def _iterate(
        self, root: Node, state: State, max_depth: int | None, solo: bool, grow: bool = True
    ) -> bool:
        """One simulation; ``False`` if its playout was abandoned (the tree is as before).

        With ``grow`` false (the tree is at its cap) it adds no node: where it would, it plays
        out from there instead."""
        value: tuple[float, ...] | None  # None: the playout was abandoned at the deadline
        node = root
        path = [root]
        n = state.num_players
        grown: tuple[Node, Move | None] | None = None  # (parent, item to give back) if grown
        events = self._events = [] if self._rave else None  # (player, move index) for RAVE
        marks: list[tuple[Node, int]] = []  # nodes with RAVE statistics, and their moves' start
        while True:
            if node.proven is not None:
                value = node.proven
                break
            if max_depth is not None and len(path) > max_depth:
                value = self.playout_value(state)
                break
            if not grow and node.player != CHANCE and self._at_frontier(node):
                if node.trie is not None:
                    state.play(self._completion(node.trie, node.prefix))
                value = self.playout_value(state)
                break
            if node.player == CHANCE:
                move = self.rng.choices(node.outcomes, node.weights)[0]
                state.play(move)
                child = node.child_for(move)
                if child is None and not grow:
                    value = self.playout_value(state)
                    break
                if child is None:
                    child = Node(move, state, n, self)
                    node.children.append(child)
                    grown = (node, None)
                    path.append(child)
                    value = self._leaf_value(child, state)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.list_moves(state, self)
            if events is not None:
                marks.append((self._with_amaf(node), len(events)))
            pick, best = self._to_expand(node, solo) if node.untried and grow else (None, None)
            if pick is not None:
                move = node.take_untried(pick)
                grown = (node, move)
                child, value = self._add_child(node, move, state, events)
                path.append(child)
                break
            parent, node = node, best or self._select(node, solo)
            if events is not None:
                events.append((parent.player, node.key))
            if not node.is_step:
                state.play(node.move)
            path.append(node)
        if value is None:
            if grown is not None:
                parent, item = grown
                parent.children.pop()
                if item is not None:
                    parent.give_back(item, path[-1].key)
            return False
        if marks:
            _amaf_backup(marks, events, value)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i in range(n):
                totals[i] += value[i]
        for visited in reversed(path):
            if visited.proven is None and not self._try_prove(visited, solo):
                break
        return True

    def _add_child(
        self, node: Node, move, state: State, events: list | None
    ) -> tuple[Node, tuple[float, ...] | None]:
        """Add the child of the decision ``node`` for its untried ``move`` (a part of one
        where the node has a trie), play there in ``state`` and value it (``None``: the
        playout was abandoned). A part is valued by a random completion of the move."""
        key = -1
        if events is not None:
            key = self._amaf_index(move)
            events.append((node.player, key))
        if node.trie is not None:
            prefix = (*node.prefix, move)
            full = node.trie.moves.get(prefix)
            if full is None:
                child = Node.step_child(node, move, self)
                child.key = key
                node.children.append(child)
                state.play(self._completion(node.trie, prefix))
                return child, self.playout_value(state)
            move = full
        state.play(move)
        child = Node(move, state, len(node.totals), self)
        child.key = key
        if child.proven is None and self._exact is not None and child.player != CHANCE:
            child.proven = self._exact(state)
        node.children.append(child)
        return child, self._leaf_value(child, state)


def _switch(name: str, value) -> bool:
    """An on/off parameter: 1 or 0 (``True``/``False`` from Python)."""
    if value not in (0, 1):
        raise MalformedError(f"{name}={value}", f"{name} is 1 (on) or 0 (off)")
    return bool(value)


def _at_least_one(name: str, value) -> int:
    """A count parameter that must be 1 or more."""
    if int(value) < 1:
        raise MalformedError(f"{name}={value}", f"{name} must be at least 1")
    return int(value)


def simulation_rate(game, seconds: float = 1.0, seed: int = 1) -> dict[str, float]:
    """MCTS simulations per second from the game's start (for ``ludoteca bench --mcts``).

    Chance at the start is resolved first and the playout path warmed up, so the figure is
    the search's steady rate, not the compiler's.
    """
    from ludoteca.core.table import resolve_chance

    state = game.new_state(seed=seed)
    resolve_chance(state, random.Random(seed))
    bot = MCTSBot(seed=seed, reuse=0)
    bot.warm_up(state)
    start = time.perf_counter()
    bot.choose(state, seconds=seconds)
    elapsed = time.perf_counter() - start
    return {
        "mcts_simulations": bot.last_iterations,
        "mcts_seconds": round(elapsed, 4),
        "mcts_simulations_per_s": round(bot.last_iterations / elapsed, 1),
    }
