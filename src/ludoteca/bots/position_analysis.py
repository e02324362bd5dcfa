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
TREE_NODES = 60_000
"""The most nodes one analysis tree may hold. A Comune node with its RAVE statistics costs
some 2.7 kB (:data:`ludoteca.bots.mcts.MAX_NODES`), so a full tree is about 160 MB; Comune's
search reaches it in some ten seconds of the 30 a run may take, and the simulations after
that refine the values of the moves already in the tree without adding to it. Without this
bound every *start* on the same socket grew the same tree on: 244 to 684 MB in 150 s."""
WORKER_NODES = 150_000
"""The most nodes all the trees kept in one analysis worker may hold together (some 400 MB
of Comune trees): the least recently used trees are dropped to keep under it."""
TREE_SECONDS = 60.0
"""The most search time one tree gets, over all the runs that grew it: a run asks for at
most 30 s (:data:`ludoteca.web.analysis.live.MAX_SECONDS`), and starting again on the same
position goes on with the same tree, up to this."""


@dataclass
class Session:
    state: State
    bot: MCTSBot
    root: Node
    iterations: int = 0
    nodes_cap: int = TREE_NODES
    granted: float = 0.0
    """Search time asked for this tree so far (a search stops a little short of its time, so
    the time measured would approach the cap without reaching it)."""
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


def start(state: State, seed: int = 1, max_nodes: int | None = None) -> Session:
    bot = analysis_bot(state, seed)
    if max_nodes is not None:
        bot.max_nodes = max(1, min(bot.max_nodes, max_nodes))
    bot.warm_up(state)
    return Session(
        state.clone(), bot, Node(None, state, state.num_players, bot), nodes_cap=bot.max_nodes
    )


def tree_nodes(session: Session) -> int:
    """An upper bound of the nodes in the session's tree, without walking it: each
    simulation adds at most one node (:data:`ludoteca.bots.mcts.MAX_NODES`)."""
    return min(session.root.visits + 1, session.nodes_cap)


def spent(session: Session) -> bool:
    """Whether the tree has had all the search it may have (:data:`TREE_SECONDS`)."""
    return session.granted >= TREE_SECONDS - 1e-9


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
        "spent": spent(session),
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
            _SESSIONS.pop(key, None)  # the old tree goes before the new one grows
            session = start(position_state(game_id, options, position), max_nodes=TREE_NODES)
            _SESSIONS[key] = session
        _SESSIONS.move_to_end(key)
        _make_room(keep=key)
        if not spent(session):
            slice_seconds = min(seconds, TREE_SECONDS - session.granted)
            session.granted += slice_seconds
            think(session, seconds=slice_seconds)
        return report(session)
    except GameError as exc:
        return {"error": exc.reason}


def _make_room(keep: str) -> None:
    """Drop the least recently used trees (never ``keep``'s) until the worker holds at most
    :data:`KEEP_SESSIONS` trees whose nodes could reach at most :data:`WORKER_NODES`: the
    kept tree's full size counts, since it may grow to it in this step."""

    def total() -> int:
        return sum(s.nodes_cap if k == keep else tree_nodes(s) for k, s in _SESSIONS.items())

    while len(_SESSIONS) > 1 and (len(_SESSIONS) > KEEP_SESSIONS or total() > WORKER_NODES):
        oldest = next(iter(_SESSIONS))
        if oldest == keep:
            _SESSIONS.move_to_end(keep)
            oldest = next(iter(_SESSIONS))
        _SESSIONS.pop(oldest)


def worker_nodes() -> int:
    """The nodes all kept trees hold at most (for tests and the benchmark)."""
    return sum(tree_nodes(s) for s in _SESSIONS.values())


def forget(key: str) -> None:
    """Drop ``key``'s tree (its socket closed) and give the freed memory back to the
    system where the C library can: a dropped tree is freed at once (nodes hold no cycles),
    but the allocator would otherwise keep the pages for the next tree."""
    if _SESSIONS.pop(key, None) is not None:
        release_memory()


def release_memory() -> None:
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc: the pages stay with the process for its next tree


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
