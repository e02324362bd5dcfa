"""perft: count the legal move sequences of a given length, as python-chess does for chess.

Chance outcomes count as moves (each distinct outcome once). Finished games contribute no
sequences beyond their end. Uses ``undo`` where the game has it, else clones.
"""

from __future__ import annotations

from collections.abc import Sequence

from .protocol import CHANCE, State


def _legal(state: State) -> Sequence:
    if state.to_move == CHANCE:
        return [m for m, _ in state.chance_outcomes()]
    return state.legal_moves()


def perft(state: State, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` moves from ``state`` (unchanged)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    moves = _legal(state)
    if depth == 1:
        return len(moves)
    total = 0
    try:
        probe = state.clone()
        probe.play(moves[0]) if moves else None
        probe.undo() if moves else None
        use_undo = True
    except NotImplementedError:
        use_undo = False
    for move in moves:
        if use_undo:
            state.play(move)
            total += perft(state, depth - 1)
            state.undo()
        else:
            child = state.clone()
            child.play(move)
            total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """perft split by first move, in notation: the tool to find where two engines differ."""
    out = []
    for move in _legal(state):
        child = state.clone()
        text = child.move_to_str(move)
        child.play(move)
        out.append((text, perft(child, depth - 1)))
    return sorted(out)
