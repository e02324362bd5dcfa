"""The table: whoever runs a game holds its randomness (DESIGN principle 3).

Players and bots never draw dice or deals; the table does, from its own seeded generator,
by the probabilities the state lists at each chance node.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING

from .errors import IllegalMoveError
from .protocol import CHANCE, Game, Move, Result, State

if TYPE_CHECKING:
    from ludoteca.record import Record


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


def sample_chance(state: State, rng: random.Random) -> Move:
    """Draw one chance outcome by its probability with ``rng``.

    Exactly what ``rng.choices(moves, weights=weights, k=1)[0]`` draws (the same cumulative
    sums, one ``rng.random()``, the same bisection), so seeded games and records keep their
    outcomes; written out because a random game draws at every chance node and ``choices``
    checks and builds more than one draw needs."""
    outcomes = state.chance_outcomes()
    cumulative = list(accumulate([p for _, p in outcomes]))
    total = cumulative[-1] + 0.0
    if not total > 0.0:
        raise ValueError("chance outcomes must have a positive total probability")
    return outcomes[bisect(cumulative, rng.random() * total, 0, len(cumulative) - 1)][0]


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


class Table:
    """A game being played: the state, the table's randomness, the log of moves, undo, the
    end, and the record (DESIGN principle 3: whoever runs a game holds its randomness).

    Every way of running a game goes through a table: the terminal, the arena, the club,
    the rules pages, the conformance harness. Chance outcomes are drawn by ONE scheme,
    :func:`ply_rng` of the table's seed and the ply (the number of moves played before), so
    a table rebuilt from its record at any ply draws exactly what it would have drawn, and a
    record can be checked against its seed. Moves are logged in binding notation, chance
    outcomes included; :meth:`record` and :meth:`from_record` turn a table into a record and
    back, the latter through :func:`ludoteca.record.start_state`, the only way to rebuild a
    record's start.
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
        from ludoteca.record import now

        self.started = now()
        """When the game began (a record's ``started``, not the time it was saved)."""
        for text in moves:
            self.play(text)

    @classmethod
    def new(cls, game: Game, seed: int | None = None, players: Sequence[str] = ()) -> Table:
        """A new game: its set-up from ``seed`` (chance outcomes from the same seed)."""
        seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        return cls(game.new_state(seed=seed), seed=seed, players=players)

    @classmethod
    def from_record(cls, record: Record) -> Table:
        """The table a record describes, its moves replayed and its result checked
        (:func:`ludoteca.record.replay`); a finished record's resignation or time-out is kept."""
        from ludoteca.record import replay, start_state

        final = replay(record)  # every check a record gets, with the field and reason if refused
        table = cls(start_state(record), seed=record.seed, players=record.players)
        table.state, table.moves = final, list(record.moves)
        table.started = record.started or table.started
        result = record.typed_result()
        if result is not None and result.ended != "rules":
            table.ended = result
        return table

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

    # --- records -------------------------------------------------------------------------
    def record(self, *, reason: str | None = None) -> Record:
        """This game as a record: start, seed, players, every move, and the result if over
        (``reason`` says why a game in progress stopped)."""
        from ludoteca.record import Record, result_to_json

        record = Record.begin(self._start, seed=self.seed, players=self.players)
        record.started = self.started
        record.moves = list(self.moves)
        if self.is_over:
            record.finish(self.state, result=self.result, reason=reason)
        elif reason is not None:
            record.result = result_to_json(self.state, None, reason=reason)
        return record
