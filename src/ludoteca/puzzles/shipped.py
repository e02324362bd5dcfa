"""The puzzles the club ships (``data/<game>.jsonl``), read once per process."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ludoteca.puzzles.prove import THEMES, Puzzle

GAMES = tuple(sorted(THEMES))


@cache
def puzzles(game_id: str) -> tuple[Puzzle, ...]:
    if game_id not in THEMES:
        return ()
    path = resources.files(__package__).joinpath(f"data/{game_id}.jsonl")
    if not path.is_file():
        return ()
    return tuple(
        Puzzle.from_json(json.loads(line))
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    )


@cache
def by_id() -> dict[str, Puzzle]:
    return {p.id: p for g in GAMES for p in puzzles(g)}
