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
from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import get as get_game
from ludoteca.core.table import sample_chance

from .views import board_svg

RULES_DIR = Path(__file__).with_name("templates") / "rules"


@cache
def diagrams(game_id: str) -> tuple[tuple[str, str], ...]:
    """(caption, svg) pairs: the start, and the board after a few moves of a sample game."""
    out: list[tuple[str, str]] = []
    try:
        game = get_game(game_id)
        state = game.new_state(seed=7)
        rng = random.Random(7)
        while state.to_move == CHANCE:
            state.play(sample_chance(state, rng))
        out.append(("The board at the start.", board_svg(state)))
        played = []
        for _ in range(8):
            if state.is_over:
                break
            if state.to_move == CHANCE:
                move = sample_chance(state, rng)
            else:
                move = rng.choice(state.legal_moves())
            played.append(state.move_to_str(move))
            state.play(move)
        if played:
            out.append((f"After the moves {', '.join(played)}.", board_svg(state)))
    except (GameError, NotImplementedError):
        pass
    return tuple(out)


def rules_context(game_id: str) -> dict[str, Any]:
    game = get_game(game_id)
    page = RULES_DIR / f"{game_id}.html"
    return {
        "id": game_id,
        "title": game.title,
        "move_help": game.move_help,
        "template": f"rules/{game_id}.html" if page.exists() else None,
        "players": (game.min_players, game.max_players),
        "diagrams": diagrams(game_id),
    }
