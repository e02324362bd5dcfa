"""The Kuniumi game object: what the registry, the CLI and the web club see."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import N_
from ludoteca.core.protocol import Game
from ludoteca.core.registry import check_players

from .flat import SETUP_PIECES
from .notation import MOVE_HELP
from .state import KuniumiState, parse_position

START_POSITION = "6/6/6/6/6/6 setup"


class Kuniumi(Game[KuniumiState]):
    """Kuniumi by Ignazio Panades: two Gods race to enclose a group of land or sea."""

    id: ClassVar[str] = "kuniumi"
    title: ClassVar[str] = "Kuniumi"
    designer = "Ignazio Panades"
    tagline = N_(
        "Land and Sea gods raise their islands on a 6 × 6 board; close a group first to win."
    )
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    has_chance: ClassVar[bool] = False
    can_end_drawn: ClassVar[bool] = True  # see the rules: the game can be a draw
    max_game_length: ClassVar[int] = SETUP_PIECES + 1 + (34 - 4)
    """Six placements, the choice, then one God move per remaining token (30)."""
    move_help: ClassVar[str] = MOVE_HELP

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - {"players"}
        if unknown:
            raise MalformedError(sorted(unknown), "Kuniumi has no options")
        if "players" in options:  # the registry's one check, for a game built directly too
            options["players"] = check_players(type(self), options["players"])
        super().__init__(**options)

    def new_state(self, seed: int | None = None) -> KuniumiState:
        """The empty board: the set-up has no chance, so ``seed`` changes nothing."""
        return KuniumiState(self)

    def from_position(self, text: str) -> KuniumiState:
        return parse_position(self, text)

    def render_text(self, state: KuniumiState, *, color: bool = False) -> str:
        from .render import render_text

        return render_text(state, color=color)

    def render_svg(
        self,
        state: KuniumiState,
        *,
        highlight: Sequence[Any] = (),
        translate: Callable[[str], str] = str,
    ) -> str:
        from .render import render_svg

        return render_svg(state, highlight=highlight, translate=translate)

    def ui_hints(self, state) -> dict:
        return state.ui_hints()

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
        from .jit import playout_kernel

        return playout_kernel
