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
playouts continue below it). Without any, ``default_budget`` applies. A time budget is
checked before every simulation, and the search decides there, from what it has measured
in this search only, how the simulation plays out:

- with the game's fast playout while the longest step of this search so far (a simulation
  and the loop's own work, timed from the end of the one before) still fits before the
  deadline. On a busy machine that step is the longest the scheduler has kept the process
  waiting, and the search keeps that much in hand to the end (a maximum that decayed let
  moves overrun on a loaded machine: ``docs/performance.md``, time per move);
- after that, in a game whose typical simulation takes a sizeable share of the budget
  (:data:`TAIL_SHARE`), with playouts that go move by move and give up at the deadline, so
  the end of the budget is used without one long playout carrying the move past its time;
  in a game whose simulations are short the search simply stops there.

Nothing about playout times is kept from one search to the next: a busy moment on a shared
machine costs at most the rest of the search it happened in, never the later ones
(``python bench/budgets.py`` measures both).
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

from .base import Bot, BotError, Budget, Deadline, gc_paused
from .evaluation import evaluate, solo_score
from .policies import random_move_for, unchecked_play_for
from .steps import MoveTrie, lazy_steps_for, stepper_for

TAIL_SHARE = 0.05
"""A search whose typical simulation takes more than this share of the time budget finishes
its budget with playouts that stop at the deadline (see the module text).

The share is the 5% a move may overrun. Below it, stopping when the longest step no longer
fits gives away little (on a busy machine, the longest wait for the processor); above it,
that would give away a sizeable part of the budget. It is the *typical* simulation, not the
longest, that decides: on a machine so busy that the process got a fifth of a core, a Comune
search's longest step (one the scheduler held up) exceeded 5% of the 0.25 s of ``medium``
while the typical one took under a millisecond, and finishing such a search move by move
only exposed its last simulations to the next wait, past the deadline (``python
bench/budgets.py --games comune --levels medium``)."""

HELD_SHARE = 0.1
"""At most this share of the budget is kept in hand for the longest step (see the module
text) in a game whose simulations are short: a machine busy enough to hold the process up
for longer would otherwise leave little of the search. Over 80 Comune ``medium`` moves with
the load average at 13-17 on two cores, the slowest took 0.247 s with a tenth kept at most
and 0.244-0.260 s with no limit (measured as ``python bench/budgets.py --games comune
--levels medium --moves 80`` measures): no clear difference on a machine that noisy, and
the search keeps at least nine tenths of its time."""

EXPLORATION = 0.7
"""UCT's exploration constant where neither the bot nor the game sets one: about
``sqrt(2) / 2``, the textbook ``sqrt(2)`` for payoffs in ``[0, 1]`` instead of ``[-1, 1]``."""

TYPICAL_WEIGHT = 1 / 16
"""The weight of each new simulation time in the moving average of a typical one."""

REUSE_DEPTH = 6
"""How many plies below the bot's own last move the new position is looked for."""
REUSE_NODES = 3000
"""How many tree nodes the look-up may replay before giving up and starting afresh."""
MAX_NODES = 400_000
"""The default cap on a tree's size (``max_nodes=`` overrides). A Comune node costs some
1.2 kB (a 100,000-node tree added 113 MB), so a full tree holds about half a gigabyte; a
Comune search adds some 17,000 nodes a second on this machine, so only searches of half a
minute and more meet the cap (``python bench/mcts_memory.py`` measures a run of games). With
RAVE (Comune's default) a node that simulations pass through holds 1.5 kB more of
statistics, and nodes come some three times more slowly."""


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


class MCTSBot(Bot):
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

    # --- values ---------------------------------------------------------------------------
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

    def _completion(self, trie: MoveTrie, prefix: tuple) -> Move:
        """A random legal move that begins with the parts ``prefix``."""
        while prefix not in trie.moves:
            prefix = (*prefix, self.rng.choice(trie.next_steps[prefix]))
        return trie.moves[prefix]

    def _leaf_value(self, node: Node, state: State) -> tuple[float, ...] | None:
        return node.proven if node.proven is not None else self.playout_value(state)

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
        node = root
        self._chosen = None
        choice = self._proven_choice(root, state)
        if choice is not None:
            self._chosen = choice
            return choice.move
        while True:
            child = self._best_child(node)
            if child is None:
                if node.trie is not None:
                    return self._completion(node.trie, node.prefix)
                return self.rng.choice(state.legal_moves())  # nothing searched yet
            if not child.is_step:
                self._chosen = child
                return child.move
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

    # --- tree reuse -----------------------------------------------------------------------
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


def default_cutoff(state: State) -> int:
    """The game's playout cutoff from its search knowledge (0: whole playouts)."""
    return state.game.search_knowledge().cutoff_for(state.num_players)


def _same_game(a: State, b: State) -> bool:
    return a.game.id == b.game.id and a.game.options == b.game.options


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


def _proven(node: Node) -> tuple[float, ...]:
    """A node's proven value, for a node known to be proven."""
    assert node.proven is not None
    return node.proven
