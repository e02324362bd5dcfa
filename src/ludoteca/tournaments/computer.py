"""Tournaments of the computer levels (``ludoteca tournament``): the formats of the club,
played by bots on this machine's processes or on a Dask cluster's workers.

Each game is an arena :class:`~ludoteca.bots.arena.GameJob` (everything it needs travels with
it, so it plays the same anywhere) played by :func:`~ludoteca.bots.arena.play_game`; the
pairings come from the same functions the club uses. A Swiss or round-robin plays a round's
games at once and pairs the next round from their results; an arena pairs the free players
again as each game ends, until its time is up (games under way then are played out).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludoteca.bots.arena import GameJob, GameOutcome, labels_for, play_game, seed_for
from ludoteca.bots.registry import make_bot
from ludoteca.core.errors import MalformedError
from ludoteca.core.protocol import Game
from ludoteca.record import save
from ludoteca.tournaments.arena import arena_points, pair_arena
from ludoteca.tournaments.results import Played, bye, points_for
from ludoteca.tournaments.roundrobin import MAX_PLAYERS, MIN_PLAYERS, smallest_table, tables
from ludoteca.tournaments.standings import standings
from ludoteca.tournaments.swiss import pair_swiss


def swiss_rounds(players: int) -> int:
    """The usual number of Swiss rounds: enough to single out a winner (log2 of the field)."""
    return max(1, math.ceil(math.log2(max(players, 2))))


class Inline(Executor):
    """Plays each game as it is submitted, in this process (``--jobs 1``)."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to whoever reads the result
            future.set_exception(exc)
        return future


@dataclass
class ComputerTournament:
    """One tournament of bot specs: its plan, and the games as they end."""

    game: Game
    specs: Sequence[str]
    form: str
    seed: int
    rounds: int | None = None
    minutes: float | None = None
    out: Path | None = None
    played: list[Played] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    on_game: Callable[[Played], None] | None = None

    def __post_init__(self) -> None:
        self.labels = labels_for(self.specs)
        for spec in self.specs:
            reason = make_bot(spec).cannot_play(self.game)
            if reason:
                raise MalformedError(spec, reason)
        n = self.game.num_players
        if self.form in ("swiss", "arena") and n != 2:
            raise MalformedError(
                self.form,
                f"{self.form} pairs two-player games; {self.game.id} here has {n} players "
                "(-o players=2 where the game allows it)",
            )
        if self.form == "round-robin" and not MIN_PLAYERS <= len(self.specs) <= MAX_PLAYERS:
            raise MalformedError(
                " ".join(self.specs),
                f"a round-robin is for {MIN_PLAYERS} to {MAX_PLAYERS} players",
            )
        if len(self.specs) < max(n, 2):
            raise MalformedError(" ".join(self.specs), f"at least {max(n, 2)} players are needed")
        self._games = 0

    # --- playing -----------------------------------------------------------------------------
    def run(self, executor: Executor) -> None:
        if self.form == "arena":
            self._arena(executor)
            return
        if self.form == "swiss":
            for r in range(1, (self.rounds or swiss_rounds(len(self.specs))) + 1):
                ranking = [s.player for s in standings(self.labels, self.played)]
                pairs, given = pair_swiss(ranking, self.played, r)
                if given is not None:
                    self._record(bye(r, given))
                self._play_round(executor, r, pairs)
            return
        schedule = tables(self.labels, self.game.num_players, self._smallest(), self.seed)
        for r, at in enumerate(schedule, start=1):
            self._play_round(executor, r, [t for t in at if len(t) > 1])

    def _smallest(self) -> int:
        """The fewest players at a round-robin table (:func:`smallest_table`), if the game
        takes a ``players`` option and plays with that many (Hexagone at four and three)."""
        n = self.game.num_players
        least = smallest_table(n)
        if "players" in self.game.options and least >= self.game.min_players:
            return least
        return n

    def _play_round(self, executor: Executor, r: int, seats: Sequence[tuple]) -> None:
        futures = [executor.submit(play_game, self._job(t)) for t in seats]
        for future, t in zip(futures, seats, strict=True):
            self._finished(r, t, future.result())

    def _arena(self, executor: Executor) -> None:
        ends = time.monotonic() + 60 * (self.minutes or 1.0)
        running: dict[Future, tuple] = {}
        free: list[Hashable] = list(self.labels)
        while True:
            if time.monotonic() < ends:
                lines = arena_points(self.played)
                ranking = [
                    s.player
                    for s in standings(
                        self.labels, self.played, {p: x.points for p, x in lines.items()}
                    )
                ]
                for pair in pair_arena(free, ranking, self.played):
                    running[executor.submit(play_game, self._job(pair))] = pair
                    free = [p for p in free if p not in pair]
            if not running:
                return
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in done:
                pair = running.pop(future)
                self._finished(0, pair, future.result())
                free += list(pair)

    def _job(self, seats: tuple) -> GameJob:
        self._games += 1
        options = dict(self.game.options)
        if len(seats) != self.game.num_players:  # a smaller table of a round-robin
            options["players"] = len(seats)
        return GameJob(
            index=self._games - 1,
            game=self.game.id,
            options=options,
            seed=seed_for(self.seed, self._games),
            seats=tuple(self.labels.index(p) for p in seats),
            specs=tuple(self.specs),
            labels=self.labels,
            record_dir=str(self.out / "games") if self.out is not None else None,
        )

    def _finished(self, r: int, seats: tuple, outcome: GameOutcome) -> None:
        if outcome.unsaved is not None and self.out is not None:
            name = f"game-{outcome.index + 1:05d}.json"
            self.records.append(str(save(outcome.unsaved, self.out / "games" / name)))
        self._record(Played(r, seats, points_for(len(seats), outcome.winners), outcome.reason))

    def _record(self, played: Played) -> None:
        self.played.append(played)
        if self.on_game is not None:
            self.on_game(played)

    # --- the outcome ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        extra = None
        if self.form == "arena":
            extra = {p: x.points for p, x in arena_points(self.played).items()}
        lines = standings(self.labels, self.played, extra)
        return {
            "game": self.game.id,
            "options": dict(self.game.options),
            "format": self.form,
            "seed": self.seed,
            "players": list(self.labels),
            "standings": [
                {
                    "rank": s.rank,
                    "player": s.player,
                    "points": s.points,
                    "buchholz": s.buchholz,
                    "sonneborn_berger": s.sonneborn_berger,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                }
                for s in lines
            ],
            "games": [
                {"round": g.round, "players": list(g.players), "points": list(g.points)}
                | ({"bye": True} if g.is_bye else {"reason": g.reason})
                for g in self.played
            ],
            "records": self.records,
        }
