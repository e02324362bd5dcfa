"""A game's course: steps read from ``lessons/<game>.json``, each a position, a sentence and
what the step asks of the move; a tried move judged by the engine.

The sentence is an English msgid translated through the club's catalogs (so the catalogs'
checks cover it). What a step asks is a *goal* the engine checks, never a rule of the page:

- ``moves``: the move must be one of these (in the game's notation);
- ``any``: any legal move;
- ``win``: the move ends the game with the mover among the winners;
- ``best_score``: the mover's score after the move is the most any legal move gives;
- ``score_at_least``: the mover's score after the move is at least this;
- ``cells_at_least``: the move names at least this many board cells (Comune's two pieces).

Several keys must all hold. Chance is fixed by the position itself (Comino's deal is dealt,
Hexagone's dice are rolled in it), so a lesson plays the same for everyone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE, State
from ludoteca.core.registry import get as get_game

LESSON_FILES = resources.files(__package__).joinpath("lessons")
GAMES = tuple(
    sorted(f.name.removesuffix(".json") for f in LESSON_FILES.iterdir() if f.name.endswith(".json"))
)
"""The games with a course: one lesson file each (the club names no game itself)."""
GOALS = {"moves", "any", "win", "best_score", "score_at_least", "cells_at_least"}


class LessonError(ValueError):
    """A lesson file that does not hold together (found by the tests, never by a visitor)."""


@dataclass(frozen=True)
class Step:
    text: str
    position: str
    goal: dict[str, Any]
    done: str = ""
    """What the page says once the step is solved (a msgid), if more than "Well done"."""

    def state(self, options: dict[str, Any], game_id: str) -> State:
        return get_game(game_id, **options).from_position(self.position)


@dataclass(frozen=True)
class Course:
    game: str
    options: dict[str, Any]
    steps: tuple[Step, ...] = field(default_factory=tuple)

    def state(self, index: int) -> State:
        return self.steps[index].state(self.options, self.game)


@cache
def course(game_id: str) -> Course:
    if game_id not in GAMES:
        raise KeyError(game_id)
    raw = json.loads(
        resources.files(__package__).joinpath(f"lessons/{game_id}.json").read_text("utf-8")
    )
    steps = []
    for n, item in enumerate(raw["steps"], 1):
        goal = dict(item["goal"])
        if not goal or set(goal) - GOALS:
            raise LessonError(f"{game_id} step {n}: unknown goal {sorted(set(goal) - GOALS)}")
        steps.append(Step(item["text"], item["position"], goal, item.get("done", "")))
    return Course(game_id, dict(raw.get("options", {})), tuple(steps))


def _mover_score(state: State, player: int) -> float:
    scores = state.scores()
    return float(scores[player]) if scores is not None else 0.0


def meets(state: State, move: Any, goal: dict[str, Any]) -> bool:
    """Whether the legal ``move`` on ``state`` does what the step asks."""
    player = state.to_move
    text = state.move_to_str(move)
    after = state.clone()
    after.play(move)
    if "moves" in goal:
        wanted = {state.move_to_str(state.str_to_move(t)) for t in goal["moves"]}
        if text not in wanted:
            return False
    won = after.is_over and after.result is not None and player in after.result.winners
    if goal.get("win") and not won:
        return False
    if "score_at_least" in goal and _mover_score(after, player) < goal["score_at_least"]:
        return False
    if "cells_at_least" in goal and len(state.move_cells(move)) < goal["cells_at_least"]:
        return False
    if goal.get("best_score"):
        best = max(_score_after(state, m, player) for m in state.legal_moves())
        if _mover_score(after, player) < best:
            return False
    return True


def _score_after(state: State, move: Any, player: int) -> float:
    after = state.clone()
    after.play(move)
    return _mover_score(after, player)


def answers(state: State, goal: dict[str, Any]) -> list[str]:
    """Every legal move that solves the step (what the tests and the "show me" use)."""
    return [state.move_to_str(m) for m in state.legal_moves() if meets(state, m, goal)]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: Text | str
    after: State | None = None


def judge(state: State, text: str, goal: dict[str, Any]) -> Verdict:
    """The engine's verdict on a tried move: refused (with the rule it breaks, in the
    engine's words), legal but not what the step asks, or right."""
    if state.to_move == CHANCE or state.is_over:
        return Verdict(False, Text("This step takes no move."))
    try:
        move = state.str_to_move(text)
        trial = state.clone()
        trial.play(move)
    except GameError as exc:
        return Verdict(False, exc.text)
    if not meets(state, move, goal):
        return Verdict(False, Text("That move is allowed, but it is not what this step asks."))
    return Verdict(True, Text("Well done."), trial)


def why_not(state: State, cells: list[str], legal: list[dict[str, Any]]) -> Text | None:
    """The engine's reason a click on ``cells`` makes no legal move.

    The page only offers legal moves; a click elsewhere is turned into the nearest move of
    the right shape — a legal move whose cells start as the click's, with the last clicked
    cell put in place of the one it would have named — and the engine says why that move
    is refused. ``None`` when no such move can be formed (the page then says nothing).
    """
    if not cells:
        return None
    *held, clicked = cells
    for move in legal:
        named = list(move["cells"])
        if len(named) <= len(held) or named[: len(held)] != held:
            continue
        replaced = named[len(held)]
        if replaced == clicked or replaced not in move["text"]:
            continue
        candidate = _replaced(move["text"], replaced, clicked)
        if candidate is None:
            continue
        try:
            trial = state.clone()
            trial.play(trial.str_to_move(candidate))
        except GameError as exc:
            return exc.text
    return None


def _replaced(text: str, cell: str, by: str) -> str | None:
    """``text`` with its whole-cell mention of ``cell`` replaced by ``by`` (``0,1`` is not
    inside ``10,1`` nor ``-0,1``; ``c3`` is one in ``c3-c6``)."""
    for found in re.finditer(re.escape(cell), text):
        before = text[found.start() - 1] if found.start() else " "
        after = text[found.end()] if found.end() < len(text) else " "
        if before.isalnum() or before == "," or (before == "-" and cell[0].isdigit()):
            continue
        if after.isalnum() or after == ",":
            continue
        return text[: found.start()] + by + text[found.end() :]
    return None
