"""The bot protocol: every bot answers ``choose(state, seconds=, iterations=, depth=)``.

A bot honours whichever budgets it is given, never mutates the state it is handed, and is
deterministic under its seed. Chance is never the bot's to draw: at a chance node the table
plays (see :mod:`ludoteca.core.table`).

Budgets come from two places: the bot's spec (``mcts:seconds=1`` sets a default for every
move) and the call (``choose(state, seconds=0.2)`` overrides it for one move). A time budget
is measured from the moment ``choose`` is entered, so the bot's own bookkeeping counts too.
With only an iteration or depth budget a bot is fully deterministic under its seed; with a
time budget the amount of work done depends on the machine, so the move may too.
"""

from __future__ import annotations

import gc
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ludoteca.core.errors import GameError, MalformedError
from ludoteca.core.protocol import CHANCE, Game, Move, State


class BotError(GameError):
    """A bot was asked for something it cannot do (no move to choose, a game it cannot play)."""

    kind = "bot cannot play"


@dataclass(frozen=True)
class Budget:
    """How much a bot may think about one move: any of time, iterations and depth."""

    seconds: float | None = None
    iterations: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("seconds", "iterations", "depth"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int | float) or value <= 0):
                raise MalformedError(f"{name}={value}", f"budget {name} must be a positive number")

    def over(self, other: Budget) -> Budget:
        """This budget with ``other``'s fields filling the ones it leaves unset."""
        return Budget(
            seconds=self.seconds if self.seconds is not None else other.seconds,
            iterations=self.iterations if self.iterations is not None else other.iterations,
            depth=self.depth if self.depth is not None else other.depth,
        )


class Deadline:
    """A time budget measured with a monotonic clock; ``None`` seconds never expires.

    Search loops ask :meth:`expired` often. :meth:`room_for` lets a loop whose steps take a
    while (a playout in a slow game) stop *before* a step would carry it past the deadline,
    which is how a bot keeps within 5% of its time even when one step is a sizeable part of it.

    Searches stop at ``end``, a little before the budget runs out (:data:`RESERVE`): what a bot
    does after its search (choosing the move, leaving the search, an engine call that cannot
    be cut short, a busy machine's scheduler delaying the process) then fits inside the 5% a
    move may overrun instead of starting at the budget's very edge.
    """

    __slots__ = ("start", "end", "seconds")

    RESERVE = (0.03, 0.002)
    """Searches stop this share of the budget plus these seconds early (at most a tenth of it)."""

    def __init__(self, seconds: float | None, start: float | None = None) -> None:
        self.start = time.perf_counter() if start is None else start
        self.seconds = seconds
        if seconds is None:
            self.end = None
        else:
            share, fixed = self.RESERVE
            self.end = self.start + seconds - min(share * seconds + fixed, 0.1 * seconds)

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def room_for(self, step_seconds: float) -> bool:
        """Whether a step expected to take ``step_seconds`` still ends before the deadline."""
        return self.end is None or time.perf_counter() + step_seconds < self.end

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds until the deadline (negative past it); None without a time budget."""
        return None if self.end is None else self.end - time.perf_counter()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector out of a timed search.

    A collection walks every object allocated since the last one; in or right after a search
    that built a large tree it stalls for longer than the 5% a move may overrun. So the
    collector is paused during the search, and at the end everything alive is *frozen*
    (``gc.freeze``: left out of collections) so that the first collection after the move does
    not walk the new tree; the next search unfreezes it first. Search trees hold no reference
    cycles, so reference counting frees them whatever the collector does.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


class Bot(ABC):
    """A computer opponent for any game of the protocol.

    ``seed`` fixes every random choice the bot makes; the remaining keyword arguments are the
    bot's default budget (``seconds``, ``iterations``, ``depth``) and its own parameters.
    """

    name: str = "bot"
    default_budget: Budget = Budget()
    """What the bot uses when neither the spec nor the call gives a budget."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = Budget(seconds, iterations, depth)

    @abstractmethod
    def choose(
        self,
        state: State,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
    ) -> Move:
        """The move to play in ``state`` (a player's turn, not over); ``state`` is unchanged."""

    def cannot_play(self, game: Game) -> str | None:
        """Why this bot cannot play ``game`` (its options included), or ``None``: asked by
        whoever seats a bot, so a game it cannot play is refused before it starts."""
        return None

    def reset(self) -> None:  # noqa: B027 - most bots keep nothing between moves
        """Forget anything kept between moves (a search tree); called when a new game starts."""

    def warm_up(self, state: State) -> None:  # noqa: B027 - most bots need nothing ready
        """Get ready, untimed, whatever this bot's moves in ``state``'s game use that is slow
        the first time (a compiled playout kernel); nothing for most bots. Whoever times the
        bot's moves calls this first, and may call it in the background while a person
        thinks: it touches nothing the game's state or the bot's moves share."""

    # --- helpers for subclasses -----------------------------------------------------------
    def _budget(self, seconds, iterations, depth) -> Budget:
        """The budget for one call: the call's values over the spec's; the bot's default only
        when neither sets any. An ``iterations`` budget alone has no time limit, so the same
        seed plays the same moves however busy the machine is (a default time limit filled in
        beside it made a search stop early when one step ran slow)."""
        own = Budget(seconds, iterations, depth).over(self.budget)
        return own if own != Budget() else self.default_budget

    def _check(self, state: State) -> None:
        if state.is_over:
            raise BotError(state.position(), "the game is over: there is no move to choose")
        if state.to_move == CHANCE:
            raise BotError(state.position(), "chance nodes are resolved by the table, not by a bot")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} {self.budget}>"
