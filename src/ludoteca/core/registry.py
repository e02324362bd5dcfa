"""The game registry: every package ``ludoteca.games.<id>`` that exposes ``GAME`` (a
:class:`~ludoteca.core.protocol.Game` subclass whose ``id`` is the package name) is a game.

Discovery is by package, so adding a game never means editing a central list; the CLI, the
bots, the arena and the web club all find it through :func:`names` and :func:`get`. A game's
module is imported only when the game is asked for, so one game's start-up cost (compiling a
kernel, say) is never paid by a command about another.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Iterable
from typing import Any

from .errors import MalformedError
from .protocol import Game

_extra: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game defined outside :mod:`ludoteca.games` (plug-ins, test games)."""
    _extra[cls.id] = cls
    return cls


@functools.cache
def _packages() -> tuple[str, ...]:
    """The game packages installed: read from disk once per process, since every lookup of a
    game by name (each request of the web club) asks, and they do not change while it runs."""
    import ludoteca.games as pkg

    return tuple(
        info.name
        for info in pkgutil.iter_modules(pkg.__path__)
        if info.ispkg and not info.name.startswith("_")
    )


def names() -> list[str]:
    """The ids of every registered game, sorted."""
    return sorted({*_packages(), *_extra})


def game_class(name: str) -> type[Game]:
    key = str(name).lower()
    if key in _extra:
        return _extra[key]
    if key in _packages():
        module = importlib.import_module(f"ludoteca.games.{key}")
        cls = getattr(module, "GAME", None)
        if cls is not None:
            return cls
    known = ", ".join(names()) or "none"
    raise MalformedError(name, f"no such game (known games: {known})")


MAX_OPTION_DIGITS = 18
"""The longest number an option may be written with: every option of every game is a small
count, and refusing long digit strings here keeps a 5000-digit value away from ``int``."""

_NUMBER = re.compile(r"-?[0-9]+")


def option_value(text: str, key: str = "an option") -> int | str:
    """The value of ``KEY=VALUE`` as a game receives it: a whole number when it is written in
    ASCII digits (with an optional minus sign), else the text itself for the game to judge.

    Only ASCII digits make a number: ``int`` would also take ``"１"``, ``"٣"`` or ``"1_0"``,
    which no notation of ours writes.
    """
    value = text.strip()
    if _NUMBER.fullmatch(value):
        if len(value.lstrip("-")) > MAX_OPTION_DIGITS:
            raise MalformedError(value, f"{key} is a number of at most {MAX_OPTION_DIGITS} digits")
        return int(value)
    return value


def parse_options(pairs: Iterable[str]) -> dict[str, int | str]:
    """Options from ``KEY=VALUE`` strings (the command line's ``-o``); a key given twice, or
    a pair without ``=``, is refused rather than silently resolved."""
    options: dict[str, int | str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise MalformedError(pair, "a game option is written KEY=VALUE")
        if key in options:
            raise MalformedError(pair, f"option {key!r} is given twice")
        options[key] = option_value(value, f"option {key!r}")
    return options


def check_players(cls: type[Game], players: object) -> int:
    """The number of players, refused before the game is built if the game is not for it.

    Every game states its range in ``min_players``/``max_players``; checking here gives the
    same clear refusal for every game and every caller (a game that ignored the option would
    otherwise be built for one number of players and played with another). Text in ASCII
    digits (``"3"``, from a form or a command line) counts as its number.
    """
    low, high = cls.min_players, cls.max_players
    span = f"{low}" if low == high else f"from {low} to {high}"
    value = option_value(players, "players") if isinstance(players, str) else players
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError(
            players, f"the number of players is a whole number ({cls.title} is for {span})"
        )
    if not low <= value <= high:
        raise MalformedError(players, f"{cls.title} is for {span} players")
    return value


def get(name: str, **options: Any) -> Game:
    """A game by id, with options (e.g. ``get("hexagone", players=3)``).

    ``players`` is checked against the game's range; every other option is the game's to
    judge, and it refuses a bad one with :class:`~ludoteca.core.errors.MalformedError`.
    """
    cls = game_class(name)
    allowed = cls.option_names
    unknown = sorted(set(options) - allowed) if allowed is not None else []
    if unknown:
        takes = ", ".join(sorted(allowed)) if allowed else "no option"
        raise MalformedError(
            unknown[0], f"{cls.title} has no option {unknown[0]!r} (it takes {takes})"
        )
    if options.get("players") is not None:
        options["players"] = check_players(cls, options["players"])
    return cls(**options)
