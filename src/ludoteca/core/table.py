"""The table: whoever runs a game holds its randomness (principle 3 of ``docs/ARCHITECTURE.md``).

Players and bots never draw dice or deals; the table does, from its own seeded generator,
by the probabilities the state lists at each chance node.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from .errors import IllegalMoveError
from .playout import random_playout, sample_chance
from .protocol import CHANCE, Game, Move, Result, State

__all__ = ["Table", "draw_at", "ply_rng", "random_playout", "resolve_chance", "sample_chance"]


def now() -> str:
    """The time now as records keep it (UTC, to the second)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def ply_rng(seed: int, ply: int, purpose: str = "chance") -> random.Random:
    """The club's generator for the outcome at ``ply`` (moves played before it): derived from
    the secret seed alone, so a restarted server draws exactly what it would have drawn, and
    a record can be checked against its seed."""
    digest = hashlib.sha256(f"{purpose}:{seed}:{ply}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def draw_at(state: State, seed: int, ply: int) -> Move:
    """The chance outcome a table with ``seed`` draws at ``ply``: the one scheme every table
    uses (the club, the terminal, the arena), so a game restored at any ply draws the same."""
    return sample_chance(state, ply_rng(seed, ply))


def start_from(game: Game, seed: int | None, start: str | None) -> State:
    """The start of a game: its stored start position where it has one (so a game survives a
    change of the set-up generator), else the set-up ``seed`` gives. Records
    (:func:`ludoteca.record.start_state`, which also checks the two agree), the club and its
    bot workers all rebuild a start this way."""
    return game.from_position(start) if start is not None else game.new_state(seed=seed)


def resolve_chance(
    state: State, rng: random.Random, on_move: Callable[[str], None] | None = None
) -> None:
    """Play chance outcomes until a player (or the end) is to move."""
    while state.to_move == CHANCE:
        move = sample_chance(state, rng)
        text = state.move_to_str(move)
        state.play(move)
        if on_move is not None:
            on_move(text)


class Table:
    """A game being played: the state, the table's randomness, the log of moves, undo, the
    end, and the record (principle 3 of ``docs/ARCHITECTURE.md``: whoever runs a game holds
    its randomness).

    Every way of running a game goes through a table: the terminal, the arena, the club,
    the rules pages, the conformance harness. Chance outcomes are drawn by ONE scheme,
    :func:`ply_rng` of the table's seed and the ply (the number of moves played before), so
    a table rebuilt from its record at any ply draws exactly what it would have drawn, and a
    record can be checked against its seed. Moves are logged in binding notation, chance
    outcomes included; :func:`ludoteca.record.from_table` and :func:`ludoteca.record.to_table`
    turn a table into a record and back (records know their format; the table does not).
    """

    def __init__(
        self,
        state: State,
        *,
        seed: int | None = None,
        players: Sequence[str] = (),
        moves: Sequence[str] = (),
    ) -> None:
        """A table at ``state`` (the game's start, or the start followed by ``moves``)."""
        self.game = state.game
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        self.players = list(players)
        self._start = state.clone()
        self.state = state
        self.moves: list[str] = []
        self.ended: Result | None = None
        """A result outside the rules (resignation, time), once the game ended so."""
        self.started = now()
        """When the game began (a record's ``started``, not the time it was saved)."""
        for text in moves:
            self.play(text)

    @classmethod
    def new(cls, game: Game, seed: int | None = None, players: Sequence[str] = ()) -> Table:
        """A new game: its set-up from ``seed`` (chance outcomes from the same seed)."""
        seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        return cls(game.new_state(seed=seed), seed=seed, players=players)

    @property
    def start(self) -> State:
        """The position the game began at (read it; play on a clone)."""
        return self._start

    # --- where the game is ---------------------------------------------------------------
    @property
    def ply(self) -> int:
        """Moves played so far, chance outcomes included."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self.state.is_over

    @property
    def result(self) -> Result | None:
        """How the game ended: the rules' result, or a resignation's or time-out's."""
        return self.ended if self.ended is not None else self.state.result

    # --- playing -------------------------------------------------------------------------
    def rng(self) -> random.Random:
        """The generator for the chance outcome at the current ply."""
        return ply_rng(self.seed, self.ply)

    def draw(self) -> Move:
        """The chance outcome the table draws now (the state must be at a chance node)."""
        if self.state.to_move != CHANCE:
            raise IllegalMoveError("draw", "the table draws only at a chance node")
        return draw_at(self.state, self.seed, self.ply)

    def play(self, move: Move | str) -> str:
        """Play a move (or chance outcome) and log it; returns its notation. A refused move
        raises as :meth:`State.play` does and leaves the table as it was."""
        if self.ended is not None:
            raise IllegalMoveError(
                move if isinstance(move, str) else self.state.move_to_str(move),
                "the game is over",
            )
        value = self.state.coerce_move(move)
        text = self.state.move_to_str(value)
        self.state.play(value)
        self.moves.append(text)
        return text

    def resolve_chance(self) -> list[str]:
        """Draw and play chance outcomes until a player (or the end) is to move."""
        drawn = []
        while self.state.to_move == CHANCE and self.ended is None:
            drawn.append(self.play(self.draw()))
        return drawn

    def undo(self, plies: int = 1) -> None:
        """Take back the last ``plies`` moves (the state's own undo where it has one, else
        by replaying the log from the start)."""
        if not 0 <= plies <= self.ply:
            raise IllegalMoveError("undo", f"only {self.ply} moves can be taken back")
        self.rewind(self.ply - plies)

    def rewind(self, ply: int) -> None:
        """Go back to the position after the first ``ply`` moves."""
        if not 0 <= ply <= self.ply:
            raise IllegalMoveError("undo", f"there is no ply {ply} (0 to {self.ply})")
        kept = self.moves[:ply]
        state = self._start.clone()
        for text in kept:
            state.play(text)
        self.state, self.moves, self.ended = state, kept, None

    def position_at(self, ply: int) -> State:
        """A copy of the position after the first ``ply`` moves (for replays and analysis)."""
        if not 0 <= ply <= self.ply:
            raise IllegalMoveError("ply", f"there is no ply {ply} (0 to {self.ply})")
        state = self._start.clone()
        for text in self.moves[:ply]:
            state.play(text)
        return state

    # --- ending outside the rules --------------------------------------------------------
    def resign(self, *players: int) -> Result:
        """``players`` resign: every other player wins."""
        self._check_can_end(players)
        self.ended = Result.by_resignation(self.state, players)
        return self.ended

    def time_out(self, *players: int, abandoned: bool = False) -> Result:
        """``players`` ran out of time (or abandoned the game): see :meth:`Result.on_time`."""
        self._check_can_end(players)
        self.ended = Result.on_time(self.state, players, abandoned=abandoned)
        return self.ended

    def _check_can_end(self, players: Sequence[int]) -> None:
        if self.is_over:
            raise IllegalMoveError("resign", "the game is over")
        if not players or not all(0 <= p < self.state.num_players for p in players):
            raise IllegalMoveError("resign", f"players are seats 0 to {self.state.num_players - 1}")
