"""The Comino game object: makes states, parses positions, exposes the hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.core.protocol import Game

from .kernel import playout_kernel
from .position import parse_position
from .render import render_svg, render_text
from .state import CominoState


class Comino(Game):
    """Comino by Corné van Moorsel: two players, a random deal, an unbounded table."""

    id = "comino"
    title = "Comino"
    rules_version = "1"
    min_players = 2
    max_players = 2
    has_chance = True
    max_game_length = 21 + 22
    move_help = (
        "Place a tile as its corners clockwise from top-left @ square, e.g. YRBB@1,0 "
        "(x right, y up);\nwhen no tile fits anywhere: remove NAME, e.g. remove BRYY."
    )

    def new_state(self, seed: int | None = None) -> CominoState:
        """The start: the table empty, the hands YYYY and RRRR, 21 deal draws to come.

        ``seed`` is unused: the deal is drawn by the table from its seeded generator, and
        records store the draws.
        """
        return CominoState(self)

    def from_position(self, text: str) -> CominoState:
        parsed = parse_position(text)
        return CominoState.from_parts(
            self, parsed.board, parsed.hands, parsed.scores, parsed.dealing
        )

    def render_text(self, state: CominoState, *, color: bool = False) -> str:  # type: ignore[override]
        return render_text(state, color=color)

    def render_svg(self, state: CominoState, *, highlight: Sequence[Any] = ()) -> str:  # type: ignore[override]
        return render_svg(state, highlight=highlight)

    def playout_kernel(self):
        return playout_kernel
