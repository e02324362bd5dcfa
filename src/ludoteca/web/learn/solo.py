"""The daily solo challenge (``/challenge``), on the game of :mod:`ludoteca.puzzles.daily`
(Hexagone's solo puzzle): every member gets the day's start block
and the day's dice, plays the 15 rolls of the solo puzzle, and enters the pieces captured.
The computer planner's score with the same dice is the bar to beat; after the day ends every
entry can be replayed.

The dice are the same for everyone whatever they play: roll ``k`` of the day is drawn from
the engine's own outcomes and chances at that roll with a generator seeded by the day and
``k`` alone, so a roll never depends on the moves before it but through the block's colours
(which the engine's outcomes reflect). Nothing is trusted from the browser: an entry is its moves,
replayed here through the engine with the day's dice.
"""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.registry import get as get_game
from ludoteca.puzzles import daily
from ludoteca.web.round.errors import ClubError

MAX_MOVES = 400
KEPT_DAYS = 60
"""How far back the challenges (their leaderboards and replays) are shown: each day's bar
costs a planner's game to compute."""


def today() -> date:
    return datetime.now(UTC).date()


def seed_of(day: date) -> int:
    return int(hashlib.sha256(f"{daily.GAME}-solo {day.isoformat()}".encode()).hexdigest()[:12], 16)


def roll(state: State, day: date, k: int) -> None:
    """Roll ``k`` (from 0) of ``day`` played on ``state`` (at a chance node): drawn from the
    engine's own outcomes and their chances with a generator of the day and ``k`` alone."""
    rng = random.Random(f"{day.isoformat()}:{k}")
    outcomes = sorted(
        ((state.move_to_str(m), p) for m, p in state.chance_outcomes()), key=lambda o: o[0]
    )
    text = rng.choices([t for t, _ in outcomes], weights=[p for _, p in outcomes])[0]
    state.play(text)


def replay(day: date, moves: list[str]) -> tuple[State, int]:
    """The day's game after ``moves`` (the player's, no rolls), the dice rolled as due; and
    the rolls taken. A refused move is a :class:`ClubError` naming it and the rule."""
    state = get_game(daily.GAME, **daily.OPTIONS).new_state(seed=seed_of(day))
    rolls = 0
    for n, text in enumerate(moves, 1):
        while state.to_move == CHANCE and not state.is_over:
            roll(state, day, rolls)
            rolls += 1
        try:
            state.play(state.str_to_move(text))
        except GameError as exc:
            raise ClubError(
                "Move {n} ({text!r}) refused: {why}.", n=n, text=str(text)[:40], why=exc.text
            ) from None
    while state.to_move == CHANCE and not state.is_over:
        roll(state, day, rolls)
        rolls += 1
    return state, rolls


def checked_moves(value: object) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_MOVES:
        raise ClubError("'moves' is the list of your moves so far.")
    if not all(isinstance(m, str) and 0 < len(m) <= 60 for m in value):
        raise ClubError("'moves' is the list of your moves so far.")
    return list(value)


def captured(state: State) -> int:
    scores = state.scores()
    return int(scores[0]) if scores else 0


@lru_cache(maxsize=64)
def planner_score(day: date) -> tuple[int, tuple[str, ...]]:
    """What the computer planner (its base policy, as the ``easy`` side of the planner)
    captures with the day's block and dice, and its moves."""
    from ludoteca.bots import make_bot

    bot = make_bot("planner", seed=seed_of(day))
    state, _ = replay(day, [])
    moves: list[str] = []
    rolls = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            roll(state, day, rolls)
            rolls += 1
            continue
        move = bot.choose(state, depth=1)
        moves.append(state.move_to_str(move))
        state.play(move)
    return captured(state), tuple(moves)


def parse_day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise ClubError("A day is written YYYY-MM-DD.") from None
    if day > today() or day < today() - timedelta(days=KEPT_DAYS):
        raise ClubError("There is no challenge for {day}.", 404, day=text)
    return day


def view_extra(state: State, rolls: int) -> dict[str, Any]:
    return {"captured": captured(state), "rolls": rolls}
