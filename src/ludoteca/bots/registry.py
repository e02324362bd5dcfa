"""Bots by name with budgets, as the command line and the web club name them.

A spec is ``NAME`` or ``NAME:key=value,key=value`` (e.g. ``mcts:seconds=1``).
"""

from __future__ import annotations

from collections.abc import Callable

from ludoteca.core.errors import MalformedError

from .base import Bot
from .random_bot import RandomBot

BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def bot_names() -> list[str]:
    return sorted(BOTS)


def parse_spec(spec: str) -> tuple[str, dict[str, float | int | str]]:
    name, _, rest = spec.partition(":")
    params: dict[str, float | int | str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise MalformedError(spec, f"budget {part!r} is not key=value")
        try:
            params[key] = int(value)
        except ValueError:
            try:
                params[key] = float(value)
            except ValueError:
                params[key] = value
    return name, params


def make_bot(spec: str, seed: int | None = None) -> Bot:
    name, params = parse_spec(spec)
    if name not in BOTS:
        raise MalformedError(spec, f"no such bot (known: {', '.join(bot_names())})")
    try:
        return BOTS[name](seed=seed, **params)
    except TypeError as exc:
        raise MalformedError(spec, f"bad budget for {name}: {exc}") from None
