"""Bots by name with budgets, as the command line and the web club name them.

A spec is ``NAME`` or ``NAME:key=value,key=value`` (e.g. ``mcts:seconds=1``,
``alphabeta:depth=4``, ``hard``). Names are the bots below and the levels of
:mod:`ludoteca.bots.levels`.
"""

from __future__ import annotations

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
    **{name: partial(LevelBot, level) for name, level in LEVELS.items()},
}


def bot_names() -> list[str]:
    return sorted(BOTS)


def parse_spec(spec: str) -> tuple[str, dict[str, float | int | str]]:
    name, _, rest = spec.strip().partition(":")
    params: dict[str, float | int | str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise MalformedError(spec, f"budget {part!r} is not key=value")
        try:
            params[key] = int(value)
        except ValueError:
            try:
                params[key] = float(value)
            except ValueError:
                params[key] = value
    return name.strip().lower(), params


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names, seeded; ``MalformedError`` for an unknown bot or a bad budget."""
    name, params = parse_spec(spec)
    if name not in BOTS:
        raise MalformedError(spec, f"no such bot (known: {', '.join(bot_names())})")
    try:
        return BOTS[name](seed=seed, **params)
    except MalformedError:
        raise
    except TypeError as exc:
        raise MalformedError(spec, f"bad budget for {name}: {exc}") from None
    except ValueError as exc:  # a number parameter given something else
        raise MalformedError(spec, f"bad value for {name}: {exc}") from None
