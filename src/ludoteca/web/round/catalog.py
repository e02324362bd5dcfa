"""What the club offers to play: the games that load and the computer levels."""

from __future__ import annotations

from typing import Any

from ludoteca.bots.levels import LEVELS, RANDOM_ABOUT
from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import N_
from ludoteca.core.protocol import Game
from ludoteca.core.registry import check_players
from ludoteca.core.registry import names as game_names
from ludoteca.web.kernel.errors import ClubError


def available_games() -> dict[str, type[Game]]:
    """Every registered game that loads: a game package still being written (no ``GAME``
    yet, or failing to import) is left out instead of breaking the lobby."""
    from ludoteca.core.registry import game_class

    out: dict[str, type[Game]] = {}
    for gid in game_names():
        try:
            out[gid] = game_class(gid)
        except Exception:  # noqa: BLE001 - any failure means "not available"
            continue
    return out


def players_for(cls: type[Game], players: object) -> int:
    """``players`` (a number, or its digits from a form) as a number of players of ``cls``,
    refused with the engine's own words (:func:`ludoteca.core.registry.check_players`, the
    one place the range is checked)."""
    try:
        return check_players(cls, players)
    except MalformedError as exc:
        raise ClubError(exc.text) from None


LEVEL_ABOUT = {
    N_("random"): RANDOM_ABOUT,
    **{name: level.about for name, level in LEVELS.items()},
}
"""The computer levels as the pages name and describe them: the levels' own words
(:data:`ludoteca.bots.levels.LEVELS`), their names marked for the catalogs below."""
_LEVEL_NAMES_FOR_CATALOGS = (N_("easy"), N_("medium"), N_("hard"), N_("master"))
LEVEL_NAMES = tuple(LEVEL_ABOUT)


def bot_levels() -> list[str]:
    """The names a computer seat can be given: the named levels, and ``random`` (the
    beginner's opponent, also what a game without a level bot falls back to)."""
    from ludoteca.bots import registry

    levels = list(getattr(registry, "LEVELS", {}) or {})
    return ["random", *[name for name in levels if name != "random"]]


def catalogue() -> list[dict[str, Any]]:
    out = []
    for gid, cls in available_games().items():
        out.append(
            {
                "id": gid,
                "title": cls.title,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "has_chance": cls.has_chance,
                "tagline": cls.tagline,
            }
        )
    return out
