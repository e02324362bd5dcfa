"""What the computer thinks of a position: the analysis board's report and a game review's
evaluations, from one Monte-Carlo tree grown a slice at a time.

A report gives each player's expected result (the mean payoff of the searches through the
position: a win probability where draws count a half), the moves searched most with their
visits and values, and the principal variation (the most visited line, through the table's
chance outcomes as well). At a chance node it lists the outcomes with their probabilities.

The search is the strongest level's for the game (its own settings where its search
knowledge names some), so what the board says is what the club's best computer would think.
Sessions live in the process that searches (an analysis worker): :func:`step` keeps a few
trees by key so that each call searches on rather than afresh.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.registry import get as get_game

from .base import Budget
from .levels import LEVELS
from .mcts import MCTSBot, Node

TOP_MOVES = 8
PV_LENGTH = 10
KEEP_SESSIONS = 8
"""Trees kept per analysis worker; the least recently used goes first."""


@dataclass
class Session:
    state: State
    bot: MCTSBot
    root: Node
    iterations: int = 0
    seconds: float = 0.0
    used: float = field(default_factory=time.monotonic)


def analysis_bot(state: State, seed: int = 1) -> MCTSBot:
    """The MCTS of the game's strongest level (its spec's settings, without its time)."""
    from ludoteca.bots import make_bot

    spec = LEVELS["master"].spec_for(state)
    name, _, args = spec.partition(":")
    if name != "mcts":
        spec = "mcts"
    else:
        kept = [a for a in args.split(",") if a and not a.startswith(("seconds=", "iterations="))]
        spec = "mcts" + (":" + ",".join(kept) if kept else "")
    bot = make_bot(spec, seed=seed)
    assert isinstance(bot, MCTSBot)
    return bot


def start(state: State, seed: int = 1) -> Session:
    bot = analysis_bot(state, seed)
    bot.warm_up(state)
    return Session(state.clone(), bot, Node(None, state, state.num_players, bot))


def think(session: Session, seconds: float | None = None, iterations: int | None = None) -> None:
    began = time.perf_counter()
    session.bot.extend(
        session.root, session.state.clone(), Budget(seconds=seconds, iterations=iterations)
    )
    session.iterations += session.bot.last_iterations
    session.seconds += time.perf_counter() - began
    session.used = time.monotonic()


def _whole_moves(node: Node):
    """The children of ``node`` that are whole moves (through the nodes of move parts)."""
    for child in node.children:
        if child.is_step:
            yield from _whole_moves(child)
        else:
            yield child


def _value(node: Node, player: int) -> float:
    if node.proven is not None:
        return float(node.proven[player])
    return node.mean(player)


def _best(node: Node) -> Node | None:
    if node.proof is not None and not node.proof.is_step:
        return node.proof
    moves = list(_whole_moves(node))
    return max(moves, key=lambda ch: (ch.visits, _value(ch, node.player)), default=None)


def principal_variation(session: Session, length: int = PV_LENGTH) -> list[str]:
    node, state, line = session.root, session.state.clone(), []
    for _ in range(length):
        if state.is_over:
            break
        if state.to_move == CHANCE:
            child = max(node.children, key=lambda ch: ch.visits, default=None)
        else:
            child = _best(node)
        if child is None or child.visits == 0:
            break
        text = state.move_to_str(child.move)
        line.append(text if state.to_move != CHANCE else f"({text})")
        state.play(child.move)
        node = child
    return line


def report(session: Session) -> dict[str, Any]:
    state, root = session.state, session.root
    n = state.num_players
    out: dict[str, Any] = {
        "to_move": state.to_move,
        "sides": [state.side_name(p) for p in range(n)],
        "values": [round(_value(root, p), 4) for p in range(n)],
        "visits": root.visits,
        "iterations": session.iterations,
        "seconds": round(session.seconds, 2),
        "proven": root.proven is not None,
        "pv": principal_variation(session),
        "top": [],
        "chance": [],
    }
    if state.is_over:
        return out
    if state.to_move == CHANCE:
        for outcome, p in state.chance_outcomes():
            child = next((ch for ch in root.children if ch.move == outcome), None)
            out["chance"].append(
                {
                    "text": state.move_to_str(outcome),
                    "probability": round(p, 4),
                    "visits": child.visits if child else 0,
                    "values": [round(_value(child, q), 4) for q in range(n)] if child else None,
                }
            )
        return out
    mover = state.to_move
    moves = sorted(_whole_moves(root), key=lambda ch: (ch.visits, _value(ch, mover)), reverse=True)
    for child in moves[:TOP_MOVES]:
        out["top"].append(
            {
                "text": state.move_to_str(child.move),
                "label": state.move_label(child.move),
                "visits": child.visits,
                "value": round(_value(child, mover), 4),
                "proven": child.proven is not None,
            }
        )
    return out


# --- in an analysis worker: sessions kept by key ---------------------------------------------
_SESSIONS: OrderedDict[str, Session] = OrderedDict()


def position_state(game_id: str, options: dict[str, Any], position: str) -> State:
    game = get_game(game_id, **options)
    return game.from_position(position)


def step(
    key: str, game_id: str, options: dict[str, Any], position: str, seconds: float
) -> dict[str, Any]:
    """Search ``position`` for ``seconds`` more under session ``key`` (a new tree if the key
    is new or names another position) and return the report. Runs in a worker."""
    try:
        session = _SESSIONS.get(key)
        if session is None or session.state.position() != position:
            session = start(position_state(game_id, options, position))
            _SESSIONS[key] = session
        _SESSIONS.move_to_end(key)
        while len(_SESSIONS) > KEEP_SESSIONS:
            _SESSIONS.popitem(last=False)
        think(session, seconds=seconds)
        return report(session)
    except GameError as exc:
        return {"error": exc.reason}


def forget(key: str) -> None:
    _SESSIONS.pop(key, None)


def evaluate(
    game_id: str, options: dict[str, Any], position: str, iterations: int, seed: int = 1
) -> list[float]:
    """Each player's expected result in ``position`` after a search of ``iterations``
    simulations (a game review's measure of a position). Runs in a worker."""
    state = position_state(game_id, options, position)
    if state.is_over:
        assert state.result is not None
        return [float(v) for v in state.result.payoffs()]
    session = start(state, seed)
    think(session, iterations=iterations)
    return [_value(session.root, p) for p in range(state.num_players)]
