"""The game registry: every package that exposes ``GAME`` (a
:class:`~ludoteca.core.protocol.Game` subclass) is a game, found in three places:

- the packages ``ludoteca.games.<id>`` shipped with ludoteca (the id is the package name);
- packages named by an installed distribution's entry points in the group
  ``ludoteca.games`` (``id = "package.module"``): how a fifth game is published on its own;
- packages named in the environment variable ``LUDOTECA_GAME_PACKAGES``, comma-separated
  (``LUDOTECA_GAME_PACKAGES=mygames.dots ludoteca serve``): how a game is tried out before
  it is packaged. The game's id is its ``GAME.id``.

Discovery is by package, so adding a game never means editing a central list; the CLI, the
bots, the arena and the web club all find it through :func:`names` and :func:`get`. A game's
module is imported only when the game is asked for (for the packages of ``ludoteca.games``),
so one game's start-up cost (compiling a kernel, say) is never paid by a command about
another.
"""

from __future__ import annotations

import functools
import importlib
import os
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


PACKAGES_VARIABLE = "LUDOTECA_GAME_PACKAGES"
ENTRY_POINT_GROUP = "ludoteca.games"


@functools.cache
def _plugged(spec: str) -> tuple[dict[str, type[Game]], tuple[str, ...]]:
    """The games of the packages named outside ``ludoteca.games`` (entry points and
    ``spec``, the environment variable's value), by id, and a message for each named package
    that is not a game (it fails to import, or has no ``GAME``): such a package is left out
    of :func:`names`, and the messages are told by :func:`package_errors` and by the refusal
    of an unknown game, so a typo in the variable is not silently ignored."""
    from importlib.metadata import entry_points

    wanted = [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)]
    wanted += [part.strip() for part in spec.split(",") if part.strip()]
    found: dict[str, type[Game]] = {}
    errors: list[str] = []
    for package in wanted:
        try:
            module = importlib.import_module(package)
        except Exception as exc:  # noqa: BLE001 - any failure: say which package and why
            errors.append(f"game package {package!r} cannot be imported ({exc})")
            continue
        cls = getattr(module, "GAME", None)
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            errors.append(f"game package {package!r} has no GAME (a Game subclass)")
            continue
        found[cls.id] = cls
    return found, tuple(errors)


def _outside() -> dict[str, type[Game]]:
    return _plugged(os.environ.get(PACKAGES_VARIABLE, ""))[0]


def package_errors() -> tuple[str, ...]:
    """Why each game package named by an entry point or ``LUDOTECA_GAME_PACKAGES`` that is
    not a game was left out."""
    return _plugged(os.environ.get(PACKAGES_VARIABLE, ""))[1]


def names() -> list[str]:
    """The ids of every registered game, sorted."""
    return sorted({*_packages(), *_outside(), *_extra})


def game_class(name: str) -> type[Game]:
    key = str(name).lower()
    if key in _extra:
        return _extra[key]
    plugged = _outside()
    if key in plugged:
        return plugged[key]
    if key in _packages():
        module = importlib.import_module(f"ludoteca.games.{key}")
        cls = getattr(module, "GAME", None)
        if cls is not None:
            return cls
    known = ", ".join(names()) or "none"
    broken = "".join(f"; {error}" for error in package_errors())
    raise MalformedError(name, f"no such game (known games: {known}){broken}")


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
    same clear refusal for every game and every caller, the club's forms included (a game
    that ignored the option would otherwise be built for one number of players and played
    with another). Text in ASCII digits (``"3"``, from a form or a command line) counts as
    its number.
    """
    low, high = cls.min_players, cls.max_players
    value = option_value(players, "players") if isinstance(players, str) else players
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError(players, "The number of players must be a number.")
    if not low <= value <= high:  # the club shows these refusals too, translated
        if low == high:
            raise MalformedError(
                players, "{title} is for {players} players.", title=cls.title, players=low
            )
        raise MalformedError(
            players,
            "{title} is for {min_players} to {max_players} players.",
            title=cls.title,
            min_players=low,
            max_players=high,
        )
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
