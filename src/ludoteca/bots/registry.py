"""Bots by name with budgets, as the command line and the web club name them.

A spec is ``NAME`` or ``NAME:key=value,key=value`` (e.g. ``mcts:seconds=1``,
``alphabeta:depth=4``, ``hard``). Names are the bots below and the levels of
:mod:`ludoteca.bots.levels`.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from functools import partial

from ludoteca.core.errors import MalformedError

from .alphabeta import AlphaBetaBot
from .base import Bot
from .greedy import GreedyBot
from .levels import LEVELS, LevelBot
from .mcts import MCTSBot
from .planner import PlannerBot
from .random_bot import RandomBot

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "alphabeta": AlphaBetaBot,
    "planner": PlannerBot,
    **{
        name: partial(LevelBot, level, lambda spec, seed: make_bot(spec, seed))
        for name, level in LEVELS.items()
    },
}


def bot_names() -> list[str]:
    return sorted(BOTS)


_INT = re.compile(r"[+-]?[0-9]{1,18}")
_FLOAT = re.compile(r"[+-]?([0-9]{1,18}\.?[0-9]{0,18}|\.[0-9]{1,18})([eE][+-]?[0-9]{1,3})?")


def _budget_value(spec: str, key: str, value: str) -> float | int | str:
    """A budget's value: a number when written as one in plain ASCII, else the text.

    ``int`` and ``float`` also take ``"１"``, ``"1_0"``, ``"nan"``, ``"inf"`` and
    5000-digit strings; a budget that is none of a plain finite number, and yet parses as one,
    is refused here rather than reaching a search as a clock that never runs out.
    """
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        number = float(value)
        if math.isfinite(number):
            return number
    else:
        try:
            float(value)
        except ValueError:
            return value  # text, for the bot to judge (a policy name, say)
    raise MalformedError(spec, f"budget {key} must be a finite number in ASCII digits")


BUDGET_LIMITS: dict[str, tuple[float, float, str]] = {
    "seconds": (0.0, 3600.0, "above 0 and at most 3600 (an hour a move)"),
    "iterations": (1, 100_000_000, "from 1 to 100000000"),
    "depth": (1, 64, "from 1 to 64"),
}
"""What a budget may be: a move that thinks for a year, or an alpha-beta a million plies
deep, never ends, and is surely a typing mistake."""


def _check_budget(spec: str, key: str, value: float | int | str) -> None:
    if key not in BUDGET_LIMITS:
        return
    low, high, words = BUDGET_LIMITS[key]
    whole = key != "seconds"
    if isinstance(value, str) or (whole and not isinstance(value, int)):
        kind = "a whole number" if whole else "a number of seconds"
        raise MalformedError(spec, f"budget {key} must be {kind} {words}")
    if not (low < value <= high if key == "seconds" else low <= value <= high):
        raise MalformedError(spec, f"budget {key} must be {words}")


def settings_of(name: str) -> list[str]:
    """The settings a bot's spec may give: its budgets and its own parameters."""
    parameters = inspect.signature(BOTS[name]).parameters.values()
    own = {
        p.name
        for p in parameters
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("seed", "level")
    }
    return sorted(own | set(BUDGET_LIMITS))


def parse_spec(spec: str) -> tuple[str, dict[str, float | int | str]]:
    """``NAME:key=value,...`` as a name and its budgets; a budget given twice is refused."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, float | int | str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise MalformedError(spec, f"budget {part!r} is not key=value")
        if key in params:
            raise MalformedError(spec, f"budget {key!r} is given twice")
        params[key] = _budget_value(spec, key, value)
        _check_budget(spec, key, params[key])
    return name.strip().lower(), params


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names, seeded; ``MalformedError`` for an unknown bot or a bad budget."""
    name, params = parse_spec(spec)
    if name not in BOTS:
        raise MalformedError(spec, f"no such bot (known: {', '.join(bot_names())})")
    settings = settings_of(name)
    for key in params:
        if key not in settings:
            raise MalformedError(
                spec, f"{name} has no setting {key!r} (its settings: {', '.join(settings)})"
            )
    try:
        return BOTS[name](seed=seed, **params)
    except MalformedError:
        raise
    except TypeError as exc:
        raise MalformedError(spec, f"bad budget for {name}: {exc}") from None
    except ValueError as exc:  # a number parameter given something else
        raise MalformedError(spec, f"bad value for {name}: {exc}") from None
