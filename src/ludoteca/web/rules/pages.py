"""Rules pages: each game's rules written for players, with diagrams drawn by the engine.

The text lives in ``templates/rules/<id>.html`` (a game without one gets a short page built
from its ``move_help``); the diagrams are the engine's own SVG of the start and of a position
a few moves in, so they never disagree with the rules the server enforces.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from ludoteca.core.errors import GameError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import get as get_game
from ludoteca.core.table import Table
from ludoteca.web.i18n.catalogs import language
from ludoteca.web.round.view import board_svg

RULES_DIR = Path(__file__).resolve().parents[1] / "templates" / "rules"


@cache
def diagrams(game_id: str, lang: str = "en") -> tuple[tuple[Text, str], ...]:
    """(caption, svg) pairs: the start, and the board after a few moves of a sample game,
    the boards' words in language ``lang``."""
    out: list[tuple[Text, str]] = []
    translate = language(lang).text
    try:
        table = Table.new(get_game(game_id), seed=7)
        table.resolve_chance()
        out.append((Text("The board at the start."), board_svg(table.state, translate=translate)))
        rng = random.Random(7)  # the sample players' choices
        played = []
        for _ in range(8):
            if table.is_over:
                break
            if table.state.to_move == CHANCE:
                table.play(table.draw())
            else:
                played.append(table.play(rng.choice(table.state.legal_moves())))
        state = table.state
        if played:
            out.append(
                (
                    Text("After the moves {moves}.", {"moves": ", ".join(played)}),
                    board_svg(state, translate=translate),
                )
            )
    except (GameError, NotImplementedError):
        pass
    return tuple(out)


@cache
def _has_rules_page(game_id: str) -> bool:
    """Whether the game has a rules page of its own (asked by every game page: kept)."""
    return (RULES_DIR / f"{game_id}.html").exists()


def rules_context(game_id: str, lang: str = "en") -> dict[str, Any]:
    game = get_game(game_id)
    return {
        "id": game_id,
        "title": game.title,
        "move_help": game.move_help,
        "template": f"rules/{game_id}.html" if _has_rules_page(game_id) else None,
        "players": (game.min_players, game.max_players),
        "diagrams": diagrams(game_id, lang),
    }
