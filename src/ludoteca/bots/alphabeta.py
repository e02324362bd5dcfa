"""Alpha-beta search with iterative deepening, for two-player games.

Values are taken from the root player's point of view (minimax rather than negamax), so a
player moving several times in a row, as in Kuniumi's set-up, needs nothing special. A chance
node, should the search meet one, is worth the probability-weighted mean of its outcomes
(expectiminimax, searched with a full window). Leaves are scored by the game's evaluation
(:mod:`ludoteca.bots.evaluation`): the difference of the two players' shares, inside
``(-1, 1)``; a finished game is worth ``±(WIN - ply)`` so faster wins and slower losses are
preferred.

Iterative deepening searches depth 1, 2, 3, ... until the budget runs out and plays the best
move of the last completed depth; a transposition table (keyed by the binding position text)
orders the moves of each iteration by the previous one's best. Budgets: ``seconds`` (checked
at every node), ``depth`` (deepest full iteration), ``iterations`` (positions searched).
"""

from __future__ import annotations

from ludoteca.core.protocol import CHANCE, Move, State

from .base import Bot, BotError, Budget, Deadline, gc_paused
from .evaluation import evaluate

WIN = 1000.0
PROVEN = WIN / 2
"""Values beyond ``±PROVEN`` are finished games found by the search; heuristics stay in (-1, 1)."""
EXACT, LOWER, UPPER = 0, 1, 2


class _OutOfBudget(Exception):
    """Raised inside the search when the time or node budget runs out."""


class AlphaBetaBot(Bot):
    name = "alphabeta"
    default_budget = Budget(seconds=1.0)

    def __init__(self, seed=None, **budget) -> None:
        super().__init__(seed, **budget)
        self.last_depth = 0
        """The deepest iteration the last :meth:`choose` completed."""
        self.last_value = 0.0
        """Its value for the mover: beyond ``PROVEN`` a proven win, below ``-PROVEN`` a loss."""
        self.last_nodes = 0

    def choose(self, state: State, *, seconds=None, iterations=None, depth=None) -> Move:
        budget = self._budget(seconds, iterations, depth)
        self._deadline = Deadline(budget.seconds)
        self._check(state)
        if state.num_players != 2:
            raise BotError(
                state.game.id, f"alphabeta plays two-player games; this one has {state.num_players}"
            )
        self._me = state.to_move
        self._node_limit = budget.iterations
        self._nodes = 0
        self._table: dict[str, tuple[int, float, int, Move | None]] = {}
        self._use_undo = _supports_undo(state)
        root = state.clone()
        moves = list(root.legal_moves())
        self.rng.shuffle(moves)
        best = moves[0]
        self.last_depth, self.last_value = 0, 0.0
        max_depth = budget.depth if budget.depth is not None else state.game.max_game_length
        with gc_paused():
            for d in range(1, max_depth + 1):
                self._cut = False
                try:
                    value, scored = self._root_search(root, moves, d)
                except _OutOfBudget:
                    break
                scored.sort(key=lambda mv: -mv[0])  # stable: ties keep the seeded order
                moves = [m for _, m in scored]
                best, self.last_depth, self.last_value = moves[0], d, value
                if abs(value) >= PROVEN or not self._cut:
                    break  # proven, or the whole game tree was searched
            self._table.clear()
        self.last_nodes = self._nodes
        return best

    # --- search ---------------------------------------------------------------------------
    def _root_search(self, root: State, moves: list[Move], depth: int):
        alpha, beta = -2 * WIN, 2 * WIN
        scored: list[tuple[float, Move]] = []
        for move in moves:
            value = self._child_value(root, move, depth - 1, alpha, beta, 1)
            scored.append((value, move))
            alpha = max(alpha, value)
        # moves after the first were searched with a narrowed window: their scores are bounds,
        # which is all the ordering of the next iteration needs
        return alpha, scored

    def _child_value(self, state: State, move: Move, depth: int, alpha, beta, ply: int) -> float:
        if self._use_undo:
            state.play(move)
            try:
                return self._search(state, depth, alpha, beta, ply)
            finally:
                state.undo()
        child = state.clone()
        child.play(move)
        return self._search(child, depth, alpha, beta, ply)

    def _tick(self) -> None:
        self._nodes += 1
        if self._deadline.expired() or (
            self._node_limit is not None and self._nodes > self._node_limit
        ):
            raise _OutOfBudget

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        result = state.result
        if result is not None:
            pay = result.payoffs()
            diff = pay[self._me] - pay[1 - self._me]
            return diff * (WIN - ply)
        if depth <= 0:
            self._cut = True
            e = evaluate(state)
            return e[self._me] - e[1 - self._me]
        if state.to_move == CHANCE:
            return sum(
                p * self._child_value(state, outcome, depth - 1, -2 * WIN, 2 * WIN, ply + 1)
                for outcome, p in state.chance_outcomes()
            )
        key = state.position()
        entry = self._table.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_flag, first = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        moves = state.legal_moves()
        if first is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        maximising = state.to_move == self._me
        a0, b0 = alpha, beta
        best_value = -3 * WIN if maximising else 3 * WIN
        best_move = None
        for move in moves:
            value = self._child_value(state, move, depth - 1, alpha, beta, ply + 1)
            if maximising:
                if value > best_value:
                    best_value, best_move = value, move
                alpha = max(alpha, value)
            else:
                if value < best_value:
                    best_value, best_move = value, move
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best_value <= a0:
            flag = UPPER
        elif best_value >= b0:
            flag = LOWER
        else:
            flag = EXACT
        self._table[key] = (depth, best_value, flag, best_move)
        return best_value


def _supports_undo(state: State) -> bool:
    probe = state.clone()
    moves = probe.legal_moves()
    if not moves:
        return False
    try:
        probe.play(moves[0])
        probe.undo()
    except NotImplementedError:
        return False
    return probe.position() == state.position()
