"""The conformance harness: the same checks for every game, written once against the protocol.

A game's test module calls :func:`check_playout` for many seeds (and any fixed positions it
likes with :func:`check_state`). Failures raise ``AssertionError`` naming the game, seed and
position, so a failing playout can be reproduced from the message alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .errors import GameError, IllegalMoveError
from .protocol import CHANCE, TERMINAL, Game, Move, State
from .table import Table

GARBAGE = ["", "   ", "zz99", "@@", "\x00", "pass pass pass", "9999999999999999999999", "é"]


def _fail(state: State, what: str) -> AssertionError:
    return AssertionError(f"{state.game.id}: {what}\n  at position {state.position()!r}")


def _has_undo(state: State) -> bool:
    """Whether the game implements undo, found out on a clone so ``state`` never changes."""
    return type(state).undo is not State.undo


def check_state(state: State, rng: random.Random, seen_moves: set[str] | None = None) -> None:
    """Every per-position check; leaves ``state`` unchanged.

    In order: the position text round trip, the end (or its absence), the moves offered
    (chance outcomes or legal moves) and their notation, independent clones and undo, and
    the refusal of illegal and malformed input."""
    before = state.position()
    copy = _check_position(state, before)
    if _check_end(state):
        return
    moves = _chance_moves(state) if state.to_move == CHANCE else _player_moves(state, copy)
    texts = _check_notation(state, moves)
    _check_clone_and_undo(state, rng.choice(moves), before)
    _check_refusals(state, sorted((seen_moves or set()) - set(texts))[:5], before)
    if seen_moves is not None:
        seen_moves.update(texts)


def _check_position(state: State, before: str) -> State:
    """The position round trip; the parsed copy behaves the same."""
    copy = state.game.from_position(before)
    if copy.position() != before:
        raise _fail(state, f"position round trip gave {copy.position()!r}")
    if copy.to_move != state.to_move or copy.is_over != state.is_over:
        raise _fail(state, "parsed position differs in to_move or is_over")
    return copy


def _check_end(state: State) -> bool:
    """A finished game has a result, no mover and no moves; an unfinished one no result.
    ``True`` when the game is over (nothing more to check)."""
    if state.is_over:
        if state.to_move != TERMINAL:
            raise _fail(state, f"game over but to_move is {state.to_move}")
        if state.result is None:
            raise _fail(state, "game over without a result")
        if state.legal_moves():
            raise _fail(state, "game over but legal moves listed")
        return True
    if state.result is not None:
        raise _fail(state, "result before the game is over")
    return False


def _chance_moves(state: State) -> list:
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise _fail(state, "chance node without outcomes")
    total = math.fsum(p for _, p in outcomes)
    if abs(total - 1.0) > 1e-9:
        raise _fail(state, f"chance probabilities sum to {total}")
    if any(p <= 0 for _, p in outcomes):
        raise _fail(state, "a chance outcome has probability <= 0")
    return [m for m, _ in outcomes]


def _player_moves(state: State, copy: State) -> Sequence:
    if not 0 <= state.to_move < state.num_players:
        raise _fail(state, f"to_move {state.to_move} is not a player")
    moves = state.legal_moves()
    if not moves:
        raise _fail(state, "game not over but no legal move")
    if sorted(map(copy.move_to_str, copy.legal_moves())) != sorted(map(state.move_to_str, moves)):
        raise _fail(state, "parsed position lists other legal moves")
    return moves


def _check_notation(state: State, moves: Sequence) -> list[str]:
    texts = [state.move_to_str(m) for m in moves]
    if len(set(texts)) != len(texts):
        raise _fail(state, "a move is listed twice (or two moves share a notation)")
    for m, t in zip(moves, texts, strict=True):
        if state.str_to_move(t) != m:
            raise _fail(state, f"notation round trip failed for {t!r}")
    return texts


def _check_clone_and_undo(state: State, move: Move, before: str) -> None:
    """Clones are independent, and undo (where present) restores the position."""
    clone = state.clone()
    clone.play(move)
    if state.position() != before:
        raise _fail(state, "playing on a clone changed the original")
    if _has_undo(state):
        state.play(move)
        state.undo()
        if state.position() != before:
            raise _fail(state, f"undo after {state.move_to_str(move)} did not restore")


def _check_refusals(state: State, illegal: list[str], before: str) -> None:
    """Illegal moves (legal elsewhere in the game) and garbage are refused and leave the
    state untouched."""
    for text, what in [*((t, "illegal move") for t in illegal), *((t, "garbage") for t in GARBAGE)]:
        try:
            state.play(text)
        except GameError:
            pass
        else:
            accepted = "was accepted" if what == "illegal move" else "was accepted as a move"
            raise _fail(state, f"{what} {text!r} {accepted}")
        if state.position() != before:
            refused = "refused move" if what == "illegal move" else "refused garbage"
            raise _fail(state, f"{refused} {text!r} changed the state")


def check_playout(game: Game, seed: int, *, every: int = 1) -> State:
    """One random game from ``game.new_state(seed)`` with every check on every ``every``-th
    position; then the record round trip. Returns the final state."""
    from ludoteca.record import Record, from_table, replay  # local: record imports core

    rng = random.Random(f"players:{seed}")  # the players' choices and the checks
    table = Table.new(game, seed=seed, players=[f"random{i}" for i in range(game.num_players)])
    state = table.state
    seen: set[str] = set()
    count = 0
    while not state.is_over:
        if count % every == 0:
            check_state(state, rng, seen)
        table.play(table.draw() if state.to_move == CHANCE else rng.choice(state.legal_moves()))
        count += 1
        if count > game.max_game_length:
            raise _fail(state, f"seed {seed}: not over after {count} moves")
    check_state(state, rng, seen)
    try:
        state.play(table.moves[-1] if table.moves else "pass")
    except IllegalMoveError:
        pass
    except GameError:
        pass
    else:
        raise _fail(state, "a move was accepted after the end")
    record = from_table(table)
    again = replay(Record.loads(record.dumps()))
    if again.position() != state.position():
        raise _fail(state, f"seed {seed}: record replay ended at {again.position()!r}")
    return state
