"""Puzzles made offline: positions from self-play of the computer's ``easy`` level (with a
share of random moves, so the games wander where people's do) and from finished games'
records, each tried by :func:`.prove.prove`; the proven ones are kept, once each.

Work is split by game seed over ``jobs`` local processes; each job stops at its share of the
count or at the deadline, so a run is bounded however rare a game's puzzles are.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.registry import get as get_game
from ludoteca.puzzles.prove import Puzzle, prove

RANDOM_SHARE = 0.3
"""The share of self-play moves chosen at random (the rest are the ``easy`` level's)."""
KUNIUMI_EMPTIES = 14
"""Kuniumi positions are tried from this many empty squares down: the solver proves them in
milliseconds (see ``games.kuniumi.ai.EXACT_EMPTIES``)."""
OPTIONS = {"hexagone": {"players": 2}}
"""The puzzles are of two-player games (Hexagone's solo game has the daily challenge)."""


def self_play_positions(game_id: str, seed: int) -> Iterator[State]:
    from ludoteca.bots import make_bot

    rng = random.Random(seed)
    state = get_game(game_id, **OPTIONS.get(game_id, {})).new_state(seed=seed)
    bot = make_bot("greedy", seed=seed)
    while not state.is_over:
        if state.to_move == CHANCE:
            moves, weights = zip(*state.chance_outcomes(), strict=True)
            state.play(rng.choices(moves, weights)[0])
            continue
        yield state.clone()
        legal = state.legal_moves()
        state.play(rng.choice(legal) if rng.random() < RANDOM_SHARE else bot.choose(state))


def record_positions(folder: Path, game_id: str) -> Iterator[State]:
    """Every position of every finished game of ``game_id`` among the records in ``folder``."""
    from ludoteca.record import load, start_state

    for path in sorted(folder.glob("*.json")):
        try:
            record = load(path)
        except (OSError, ValueError):
            continue
        if record.game != game_id:
            continue
        state = start_state(record)
        for text in record.moves:
            if state.to_move != CHANCE:
                yield state.clone()
            try:
                state.play(text)
            except ValueError:
                break


def worth_trying(state: State) -> bool:
    if state.is_over or state.to_move == CHANCE:
        return False
    if state.game.id == "kuniumi":
        from ludoteca.games.kuniumi import flat as bits

        k: Any = state  # a Kuniumi state: its bitboards
        return " play " in k.position() and bits.empty_count(k.land, k.sea) <= KUNIUMI_EMPTIES
    return True


def _job(args: tuple[str, int, int, int, float, str | None, int]) -> tuple[list[dict], int]:
    game_id, first_seed, step, wanted, deadline, records, iterations = args
    found: dict[str, dict] = {}
    tried = 0
    sources: Iterator[State]
    if records:
        sources = record_positions(Path(records), game_id)
    else:
        sources = (
            s for seed in range(first_seed, 10**9, step) for s in self_play_positions(game_id, seed)
        )
    options = OPTIONS.get(game_id, {})
    for state in sources:
        if len(found) >= wanted or time.time() > deadline:
            break
        if not worth_trying(state):
            continue
        tried += 1
        puzzle = prove(state, options, iterations)
        if puzzle is not None:
            found.setdefault(puzzle.id, puzzle.to_json())
    return list(found.values()), tried


def generate(
    game_id: str,
    count: int,
    *,
    jobs: int = 1,
    minutes: float = 60.0,
    seed: int = 1,
    records: str | None = None,
    iterations: int | None = None,
) -> tuple[list[dict[str, Any]], int, float]:
    """Up to ``count`` proven puzzles (dicts as :meth:`Puzzle.to_json`), the positions
    tried and the seconds taken."""
    from ludoteca.puzzles.prove import SEARCH_ITERATIONS

    began = time.time()
    deadline = began + minutes * 60
    share = -(-count // jobs)
    work = [
        (
            game_id,
            seed + j,
            jobs,
            share,
            deadline,
            records if j == 0 else None,
            iterations or SEARCH_ITERATIONS,
        )
        for j in range(jobs if not records else 1)
    ]
    out: dict[str, dict] = {}
    tried = 0
    if len(work) == 1:
        results = [_job(work[0])]
    else:
        with ProcessPoolExecutor(len(work)) as pool:
            results = list(pool.map(_job, work))
    for puzzles, n in results:
        tried += n
        for p in puzzles:
            out.setdefault(p["id"], p)
    return list(out.values())[:count], tried, time.time() - began


def merge_into(path: Path, puzzles: list[dict[str, Any]]) -> int:
    """Add ``puzzles`` to the JSON-lines file at ``path`` (one per id); the number added."""
    have: dict[str, str] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                have[json.loads(line)["id"]] = line
    before = len(have)
    for p in puzzles:
        have.setdefault(p["id"], json.dumps(p, sort_keys=True, ensure_ascii=False))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for _, line in sorted(have.items())), "utf-8")
    return len(have) - before


def checked(data: dict[str, Any]) -> Puzzle:
    """A stored puzzle, read back (its position through the engine)."""
    puzzle = Puzzle.from_json(data)
    get_game(puzzle.game, **puzzle.options).from_position(puzzle.position)
    return puzzle
