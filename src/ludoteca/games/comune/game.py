"""The Comune game description: makes states, parses positions, offers the hooks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.core.messages import N_, Text
from ludoteca.core.protocol import Game

from . import flat
from .notation import parse_position
from .state import ComuneState


class Comune(Game[ComuneState]):
    """Comune by Kanare Kato: two players, 35 pieces each, three angles, one hex board."""

    id = "comune"
    title = "Comune"
    designer = "Kanare Kato"
    tagline = N_(
        "Lay pieces at three angles on a hexagon; your score is your largest "
        "groups at each angle, multiplied."
    )
    rules_version = "1"
    min_players = 2
    max_players = 2
    has_chance = False
    can_end_drawn = True  # equal products are a draw
    option_names = frozenset({"players"})  # and players must be 2: no other option
    max_game_length = 124
    move_labels = {"pass": "Pass"}  # noqa: RUF012 - a class-wide constant, never mutated
    """Each placing turn fills at least one of the 61 cells, so there are at most 61 of
    them; passes never come two in a row except the pair that ends the game, so there are
    at most one before each placing turn plus two at the end: 61 + 61 + 2."""
    move_help = N_(
        "A turn: 'pass', one piece 'e5-', or two pieces at different angles 'e5- d4/'.\n"
        "Angles: - horizontal, / rising, \\ falling (or the letters h, r, f)."
    )

    def new_state(self, seed: int | None = None) -> ComuneState:
        """The empty board, Light to move (Comune has no random set-up: ``seed`` is unused)."""
        return ComuneState(self, flat.new_slots())

    def from_position(self, text: str) -> ComuneState:
        return ComuneState(self, parse_position(text))

    def render_text(self, state: ComuneState, *, color: bool = False) -> str:
        from .render import render_text

        return render_text(state, color=color)

    def render_svg(
        self,
        state: ComuneState,
        *,
        highlight: Sequence[Any] = (),
        translate: Callable[[str], str] = str,
    ) -> str:
        from .render import render_svg

        return render_svg(state, highlight=highlight, translate=translate)

    def ui_hints(self, state) -> dict:
        if state.is_over:
            return {"prompt": "", "first": "any"}
        return {
            "prompt": Text(
                "Click a highlighted cell (a second one to place two pieces), then choose the "
                "angle from the drawings: space cycles through them, Enter plays."
            ),
            "prompt_touch": Text(
                "Tap a highlighted cell (a second one to place two pieces), then tap the "
                "drawing of the angle you want."
            ),
            "first": "any",
        }

    def action_space(self) -> Any:
        from .actions import action_space

        return action_space(self)

    def observation(self) -> Any:
        from . import observation

        return observation

    def search_knowledge(self):
        from .ai import KNOWLEDGE

        return KNOWLEDGE

    def playout_kernel(self):
        """``f(seed, seconds) -> (games, turns)``: compiled random games from the start."""
        from .jit import bench

        return bench
