"""The table: whoever runs a game holds its randomness (DESIGN principle 3).

Players and bots never draw dice or deals; the table does, from its own seeded generator,
by the probabilities the state lists at each chance node.
"""

from __future__ import annotations

import hashlib
import random

from .protocol import CHANCE, Move, State


def ply_rng(seed: int, ply: int, purpose: str = "chance") -> random.Random:
    """The club's generator for the outcome at ``ply`` (moves played before it): derived from
    the secret seed alone, so a restarted server draws exactly what it would have drawn, and
    a record can be checked against its seed."""
    digest = hashlib.sha256(f"{purpose}:{seed}:{ply}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def sample_chance(state: State, rng: random.Random) -> Move:
    """Draw one chance outcome by its probability with ``rng``."""
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(moves, weights=weights, k=1)[0]


def resolve_chance(state: State, rng: random.Random, on_move=None) -> None:
    """Play chance outcomes until a player (or the end) is to move."""
    while state.to_move == CHANCE:
        move = sample_chance(state, rng)
        text = state.move_to_str(move)
        state.play(move)
        if on_move is not None:
            on_move(text)


def random_playout(state: State, rng: random.Random, max_moves: int | None = None) -> int:
    """Play uniformly random moves (chance by its probabilities) to the end; return the count.

    The reference random policy of the protocol, used by the conformance harness and the
    ``api`` benchmark path.
    """
    count = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            move = sample_chance(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        state.play(move)
        count += 1
        if max_moves is not None and count > max_moves:
            raise AssertionError(
                f"{state.game.id}: game not over after {count} moves: {state.position()}"
            )
    return count
