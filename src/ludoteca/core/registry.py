"""The game registry: every package under :mod:`ludoteca.games` that exposes ``GAME`` (a
:class:`~ludoteca.core.protocol.Game` subclass) is a registered game.

Discovery is by package, so adding a game never means editing a central list; the CLI, the
bots, the arena and the web club all find it through :func:`names` and :func:`get`.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from .errors import MalformedError
from .protocol import Game


@cache
def _classes() -> dict[str, type[Game]]:
    import ludoteca.games as pkg

    found: dict[str, type[Game]] = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        cls = getattr(module, "GAME", None)
        if cls is not None:
            found[cls.id] = cls
    return found


def names() -> list[str]:
    """The ids of every registered game, sorted."""
    return sorted(_classes())


def game_class(name: str) -> type[Game]:
    try:
        return _classes()[name.lower()]
    except KeyError:
        known = ", ".join(names()) or "none"
        raise MalformedError(name, f"no such game (known games: {known})") from None


def get(name: str, **options: Any) -> Game:
    """A game by id, with options (e.g. ``get("hexagone", players=3)``)."""
    return game_class(name)(**options)
