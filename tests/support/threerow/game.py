"""The game: options (none but the player count), the start, positions, hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.core.protocol import Game

from .notation import parse_position
from .state import ThreeRowState


class ThreeRow(Game[ThreeRowState]):
    id = "threerow"
    title = "Three in a Row"
    designer = "Traditional"
    min_players = max_players = 2
    option_names = frozenset({"players"})
    max_game_length = 9
    move_help = "A move is the square you mark: a file a-c and a rank 1-3, e.g. b2."

    def new_state(self, seed: int | None = None) -> ThreeRowState:
        return ThreeRowState(self)

    def from_position(self, text: str) -> ThreeRowState:
        cells, mover = parse_position(text)
        return ThreeRowState(self, cells, mover).check()

    def render_text(self, state, *, color: bool = False) -> str:
        from .render import render_text

        return render_text(state)

    def render_svg(self, state, *, highlight: Sequence[Any] = ()) -> str:
        from .render import render_svg

        return render_svg(state, highlight)

    def ui_hints(self, state) -> dict[str, Any]:
        prompt = "" if state.is_over else "Click an empty square to mark it."
        return {"prompt": prompt, "first": "any"}

    def action_space(self) -> Any:
        from .actions import ThreeRowActions

        return ThreeRowActions()

    def observation(self) -> Any:
        from . import observation

        return observation

    def search_knowledge(self):
        from .ai import KNOWLEDGE

        return KNOWLEDGE
