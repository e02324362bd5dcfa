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


def get(name: str, **options: Any) -> Game:
    """A game by id, with options (e.g. ``get("hexagone", players=3)``)."""
    return game_class(name)(**options)
