"""The arena: bots play each other in worker processes; results, ratings and records.

A tournament is a list of :class:`GameJob`, each one game with its seats and seed, played by
:func:`play_game` in a pool of worker processes, or on any ``concurrent.futures`` executor
(such as a Dask cluster's, see :mod:`ludoteca.bots.cluster`). Everything a game needs travels
in the job, so a game's outcome depends only on its job: the same command gives the same
games whatever the number of workers or machines. Records travel back with the outcomes and
are saved by the process that runs the tournament, so they land on its disk even when the
games were played on other machines.

Seating: with two-player games every pair of bots plays ``games`` games, and consecutive
games swap the seats over the *same* seed (same deal, same dice), which cancels most of the
luck of the draw. Games for more players seat every combination of bots, rotating the seats.
A solo game gives each bot the same seeds, so their mean scores compare like for like.

Ratings are PlackettLuce ratings from ``openskill`` (it handles any number of players and
draws), updated game by game in the tournament's order; a bot's 95% interval is
``mu ± 1.96 sigma``.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludoteca.core.errors import MalformedError
from ludoteca.core.protocol import CHANCE, Game
from ludoteca.core.registry import get
from ludoteca.core.table import Table
from ludoteca.record import Record, from_table, save

from .registry import make_bot, parse_spec

Z95 = 1.959963984540054

WATCH_SECONDS = 1.0
"""How often a tournament on a cluster looks at its workers while no game ends."""


@dataclass(frozen=True)
class GameJob:
    index: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: tuple[int, ...]
    """Entry index of the bot in each seat."""
    specs: tuple[str, ...]
    """Every entry's bot spec (the whole field, so a job is self-contained)."""
    labels: tuple[str, ...]
    record_dir: str | None = None
    branching: bool = False
    """Collect the number of legal moves at each decision (for ``analyze``)."""


@dataclass
class GameOutcome:
    index: int
    seed: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    """Seats (not entries) that won; empty for a draw."""
    scores: tuple[float, ...] | None
    moves: int
    reason: str
    move_seconds: list[list[float]]
    """Per seat, the time each of its moves took."""
    move_cpu_seconds: list[list[float]] = field(default_factory=list)
    """Per seat, the processor time each of its moves used (the wall time less the time the
    machine gave to other processes: on a busy machine the two tell a bot that overran from
    a process that waited for a core)."""
    branching: list[int] = field(default_factory=list)
    chance_branching: list[int] = field(default_factory=list)
    record: str | None = None
    """Where the game's record was saved (when the job has a ``record_dir``)."""
    unsaved: Record | None = None
    """The record on its way from the worker to the process that saves it."""


def seed_for(base: int, k: int) -> int:
    """The ``k``-th game seed of a tournament seeded with ``base`` (stable across versions)."""
    return random.Random(f"ludoteca-arena:{base}:{k}").randrange(2**31)


def labels_for(specs: Sequence[str]) -> tuple[str, ...]:
    """Unique labels: the spec itself, with ``#2``, ``#3`` for repeats of the same spec."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(labels)


def schedule(
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int,
    record_dir: str | None = None,
    branching: bool = False,
) -> list[GameJob]:
    """Every game of the tournament, in order (see the module text for the seating)."""
    if games < 1:
        raise MalformedError(str(games), "the number of games must be at least 1")
    for spec in specs:
        reason = make_bot(spec).cannot_play(game)  # a bad spec is refused before any work
        if reason:
            raise MalformedError(spec, reason)
    n = game.num_players
    labels = labels_for(specs)
    tables: list[tuple[int, ...]]
    if n == 1:
        tables = [(i,) for i in range(len(specs))]
    elif len(specs) < n:
        raise MalformedError(
            " ".join(specs), f"{game.id} with {n} players needs at least {n} bots, got {len(specs)}"
        )
    else:
        tables = [tuple(t) for t in itertools.combinations(range(len(specs)), n)]
    jobs: list[GameJob] = []
    for table in tables:
        for g in range(games):
            k = g // n if n > 1 else g  # n consecutive games share a seed, seats rotated
            shift = g % n
            seats = table[shift:] + table[:shift]
            jobs.append(
                GameJob(
                    index=len(jobs),
                    game=game.id,
                    options=dict(game.options),
                    seed=seed_for(seed, k),
                    seats=seats,
                    specs=tuple(specs),
                    labels=labels,
                    record_dir=record_dir,
                    branching=branching,
                )
            )
    return jobs


def play_game(job: GameJob) -> GameOutcome:
    """Play one game of the tournament, in whichever process or machine.

    The record comes back in the outcome (when the job asks for one) rather than being
    written here, because a worker on another machine cannot write to the caller's disk.
    """
    game = get(job.game, **job.options)
    table = Table.new(game, seed=job.seed, players=[job.labels[e] for e in job.seats])
    state = table.state
    bots = [
        make_bot(job.specs[entry], seed=seed_for(job.seed, 1000 + seat))
        for seat, entry in enumerate(job.seats)
    ]
    for bot in bots:
        bot.warm_up(state)
    times: list[list[float]] = [[] for _ in job.seats]
    cpu: list[list[float]] = [[] for _ in job.seats]
    branching: list[int] = []
    chance_branching: list[int] = []
    while not state.is_over:
        if table.ply > game.max_game_length:
            raise RuntimeError(f"{game.id} game {job.index} did not end: {state.position()}")
        player = state.to_move
        if player == CHANCE:
            if job.branching:
                chance_branching.append(len(state.chance_outcomes()))
            move = table.draw()
        else:
            if job.branching:
                branching.append(len(state.legal_moves()))
            started, started_cpu = time.perf_counter(), time.process_time()
            move = bots[player].choose(state)
            times[player].append(time.perf_counter() - started)
            cpu[player].append(time.process_time() - started_cpu)
        table.play(move)
    record = from_table(table)
    result = table.result
    assert result is not None
    return GameOutcome(
        index=job.index,
        seed=job.seed,
        seats=job.seats,
        winners=tuple(result.winners),
        scores=tuple(result.scores) if result.scores is not None else None,
        moves=len(record.moves),
        reason=result.reason,
        move_seconds=times,
        move_cpu_seconds=cpu,
        branching=branching,
        chance_branching=chance_branching,
        unsaved=record if job.record_dir is not None else None,
    )


def run_jobs(
    jobs: Sequence[GameJob],
    workers: int = 1,
    on_done: Callable[[GameOutcome], None] | None = None,
    executor: Executor | None = None,
) -> list[GameOutcome]:
    """Play every job, ``workers`` processes at a time or on ``executor``; outcomes in job
    order.

    However the games are played, their outcomes go through the same :func:`_collect`
    (records saved, ``on_done`` called as each game ends, outcomes sorted), and each game
    depends only on its job: the results are the same on one process, a pool or a cluster.
    """
    if executor is not None:
        done: Iterable[GameOutcome] = _as_completed(executor, jobs)
        return _collect(jobs, done, on_done)
    if workers <= 1 or len(jobs) <= 1:
        return _collect(jobs, map(play_game, jobs), on_done)
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games registered at run time (plug-ins, tests); spawn elsewhere
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(processes=workers, initializer=_ignore_ctrl_c) as pool:
        return _collect(jobs, pool.imap_unordered(play_game, jobs), on_done)


def _ignore_ctrl_c() -> None:
    """In a worker: Ctrl-C is the tournament's to handle. A terminal sends it to every
    process of the command; workers that took it each printed a traceback, and the pool is
    ended by the process that runs the tournament anyway."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during a tournament, with the outcomes of the games that had ended (in job
    order, records saved), so the caller can still report them."""

    def __init__(self, outcomes: list[GameOutcome], planned: int) -> None:
        super().__init__(f"interrupted after {len(outcomes)} of {planned} games")
        self.outcomes = outcomes
        self.planned = planned


def _as_completed(executor: Executor, jobs: Sequence[GameJob]) -> Iterator[GameOutcome]:
    """Every job submitted to ``executor`` at once, the outcomes as the games end.

    Leaving early (an error, Ctrl-C) cancels the games not yet started, so an executor shared
    with others (a cluster) is not left playing games nobody will read.
    """
    futures = [executor.submit(play_game, job) for job in jobs]
    check_alive = getattr(executor, "check_alive", None)  # a cluster whose workers all died
    pending = set(futures)
    try:
        while pending:
            done, pending = wait(pending, timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
            if not done and check_alive is not None:
                check_alive()
    finally:
        for future in futures:
            future.cancel()


def _collect(
    jobs: Sequence[GameJob],
    done: Iterable[GameOutcome],
    on_done: Callable[[GameOutcome], None] | None,
) -> list[GameOutcome]:
    """Save each finished game's record, report it, and return the outcomes in job order."""
    record_dirs = {job.index: job.record_dir for job in jobs}
    outcomes: list[GameOutcome] = []

    def keep(outcome: GameOutcome) -> None:
        record_dir = record_dirs[outcome.index]
        if outcome.unsaved is not None and record_dir is not None:
            path = Path(record_dir) / f"game-{outcome.index + 1:05d}.json"
            # written already if an interrupt came between the write and this note of it
            outcome.record = str(path if path.exists() else save(outcome.unsaved, path))
            outcome.unsaved = None

    try:
        for outcome in done:
            outcomes.append(outcome)  # counted before its record is written, so that the
            keep(outcome)  # summary of an interrupted run names every record it left
            if on_done:
                on_done(outcome)
    except KeyboardInterrupt:
        for outcome in outcomes:  # a save the interrupt cut short
            keep(outcome)
        outcomes.sort(key=lambda o: o.index)
        raise TournamentInterrupted(outcomes, len(jobs)) from None
    outcomes.sort(key=lambda o: o.index)
    return outcomes


# --- summaries ----------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 of n (n of n) the bound is exactly 0 (1), but rounding can leave it a hair
    # beyond the rate itself: the interval must always hold its rate.
    low = 0.0 if successes <= 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes >= n else max(p, min(1.0, centre + half))
    return (low, high)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval of the mean."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def rate(outcomes: Sequence[GameOutcome], entries: int) -> list[dict[str, float]]:
    """openskill PlackettLuce ratings of every entry, game by game in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(entries)]
    for o in outcomes:
        if len(o.seats) < 2:
            continue
        teams = [[ratings[e]] for e in o.seats]
        ranks = [
            1.0 if (not o.winners or seat in o.winners) else 2.0 for seat in range(len(o.seats))
        ]
        rated = model.rate(teams, ranks=ranks)
        for seat, entry in enumerate(o.seats):
            ratings[entry] = rated[seat][0]
    return [
        {
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "low": round(r.mu - Z95 * r.sigma, 3),
            "high": round(r.mu + Z95 * r.sigma, 3),
        }
        for r in ratings
    ]


def summarise(
    game: Game, specs: Sequence[str], outcomes: Sequence[GameOutcome], seed: int, games: int
) -> dict[str, Any]:
    """The JSON summary of a tournament: per bot, per pairing, per seat, and every game."""
    labels = labels_for(specs)
    n = game.num_players
    k = len(specs)
    tally = [dict(games=0, wins=0, draws=0, losses=0, points=0.0) for _ in range(k)]
    scores: list[list[float]] = [[] for _ in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    cpu: list[list[float]] = [[] for _ in range(k)]
    for o in outcomes:
        for seat, entry in enumerate(o.seats):
            t = tally[entry]
            t["games"] += 1
            if not o.winners:
                t["draws"] += 1
                t["points"] += 1.0 / len(o.seats)
            elif seat in o.winners:
                if len(o.winners) == 1:
                    t["wins"] += 1
                else:
                    t["draws"] += 1
                t["points"] += 1.0 / len(o.winners)
            else:
                t["losses"] += 1
            if o.scores is not None:
                scores[entry].append(o.scores[seat])
            times[entry].extend(o.move_seconds[seat])
            if o.move_cpu_seconds:
                cpu[entry].extend(o.move_cpu_seconds[seat])
    ratings = rate(outcomes, k) if n > 1 else [None] * k
    bots = []
    for i in range(k):
        name, params = parse_spec(specs[i])
        row: dict[str, Any] = {"label": labels[i], "spec": specs[i], **tally[i]}
        row["points"] = round(row["points"], 4)
        row["rating"] = ratings[i]
        if scores[i]:
            mean, low, high = mean_interval(scores[i])
            row["score"] = {"mean": round(mean, 4), "low": round(low, 4), "high": round(high, 4)}
        row["moves_timed"] = len(times[i])
        row["mean_move_seconds"] = (
            round(math.fsum(times[i]) / len(times[i]), 5) if times[i] else None
        )
        row["max_move_seconds"] = round(max(times[i]), 5) if times[i] else None
        row["max_move_cpu_seconds"] = round(max(cpu[i]), 5) if cpu[i] else None
        budget = params.get("seconds")
        if isinstance(budget, int | float) and times[i]:
            row["max_move_over_budget"] = round(max(times[i]) / budget, 4)
            row["moves_over_5_percent"] = sum(t > 1.05 * budget for t in times[i])
        bots.append(row)
    summary: dict[str, Any] = {
        "game": game.id,
        "options": dict(game.options),
        "players": n,
        "seed": seed,
        "games_per_table": games,
        "total_games": len(outcomes),
        "bots": bots,
    }
    if n == 2:
        summary["pairings"] = pairings(outcomes, labels)
    if n > 1:
        first_wins = sum(1 for o in outcomes if o.winners == (0,))
        low, high = wilson(first_wins, len(outcomes))
        summary["first_seat"] = {
            "wins": first_wins,
            "games": len(outcomes),
            "rate": round(first_wins / len(outcomes), 4) if outcomes else None,
            "low": round(low, 4),
            "high": round(high, 4),
        }
    summary["games"] = [
        {
            "index": o.index,
            "seed": o.seed,
            "seats": [labels[e] for e in o.seats],
            "winners": [labels[o.seats[s]] for s in o.winners],
            "scores": list(o.scores) if o.scores is not None else None,
            "moves": o.moves,
            "reason": o.reason,
            "record": o.record,
        }
        for o in outcomes
    ]
    return summary


def pairings(outcomes: Sequence[GameOutcome], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Head to head for two-player games: wins, draws, losses and A's win rate with interval."""
    table: dict[tuple[int, int], list[int]] = {}
    for o in outcomes:
        a, b = sorted(o.seats)
        row = table.setdefault((a, b), [0, 0, 0])  # a wins, draws, b wins
        if not o.winners or len(o.winners) > 1:
            row[1] += 1
        elif o.seats[o.winners[0]] == a:
            row[0] += 1
        else:
            row[2] += 1
    out = []
    for (a, b), (wa, d, wb) in sorted(table.items()):
        n = wa + d + wb
        low, high = wilson(wa, n)
        out.append(
            {
                "a": labels[a],
                "b": labels[b],
                "games": n,
                "a_wins": wa,
                "draws": d,
                "b_wins": wb,
                "a_win_rate": round(wa / n, 4),
                "a_win_low": round(low, 4),
                "a_win_high": round(high, 4),
                "a_score_rate": round((wa + d / 2) / n, 4),
            }
        )
    return out


def tournament(
    game: Game,
    specs: Sequence[str],
    *,
    games: int,
    seed: int = 1,
    workers: int = 1,
    record_dir: str | Path | None = None,
    on_done: Callable[[GameOutcome], None] | None = None,
    executor: Executor | None = None,
) -> tuple[dict[str, Any], list[GameOutcome]]:
    """Schedule, play and summarise a tournament; the summary is JSON-ready."""
    jobs = schedule(game, specs, games, seed, None if record_dir is None else str(record_dir))
    outcomes = run_jobs(jobs, workers, on_done, executor)
    return summarise(game, specs, outcomes, seed, games), outcomes
