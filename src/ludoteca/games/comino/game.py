"""The Comino game object: makes states, parses positions, exposes the hooks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.core.errors import IllegalPositionError
from ludoteca.core.messages import N_, Text
from ludoteca.core.protocol import Game

from .geometry import TILE_SET, name_of
from .notation import parse_position
from .render import render_svg, render_text
from .state import CominoState


class Comino(Game[CominoState]):
    """Comino by Corné van Moorsel: two players, a random deal, an unbounded table."""

    id = "comino"
    title = "Comino"
    designer = "Corné van Moorsel"
    tagline = N_(
        "Turn and lay square tiles of red, yellow and blue corners; score the "
        "colour areas you grow."
    )
    rules_version = "1"
    min_players = 2
    max_players = 2
    has_chance = True
    can_end_drawn = True  # equal totals are a draw
    option_names = frozenset({"players"})  # and players must be 2: no other option
    max_game_length = 21 + 22
    move_help = N_(
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
        state = CominoState.from_parts(
            self, parsed.board, parsed.hands, parsed.scores, parsed.dealing
        )
        if not parsed.dealing and len(parsed.board) == 1 and not any(parsed.hands):
            _check_removals(text, state, parsed)
        return state

    def render_text(self, state: CominoState, *, color: bool = False) -> str:
        return render_text(state, color=color)

    def render_svg(
        self,
        state: CominoState,
        *,
        highlight: Sequence[Any] = (),
        translate: Callable[[str], str] = str,
    ) -> str:
        return render_svg(state, highlight=highlight, translate=translate)

    def ui_hints(self, state) -> dict:
        """What the page says to do: how to place a tile with a mouse (``prompt``) and with a
        finger (``prompt_touch``: a tap picks a tile up, buttons turn it), or, when none of
        the mover's tiles fits anywhere and every legal move is a removal, that."""
        prompt: Text | str = ""
        touch: Text | str = ""
        if state.to_move >= 0:
            if state.hands[state.to_move] and not state.placements(state.to_move):
                prompt = touch = Text("None of your tiles fits: pick one and press Remove tile.")
            else:
                prompt = Text(
                    "Turn a rack tile by clicking its top corners, pick it up by its lower "
                    "half, and drop it on a highlighted square."
                )
                touch = Text(
                    "Tap a rack tile to pick it up, turn it with the buttons under the board, "
                    "and tap a highlighted square."
                )
        return {
            "module": "comino",
            "prompt": prompt,
            "prompt_touch": touch,
            "first": "any",
            "turns": state.tile_turns(),
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
        """Random complete games in compiled code (:mod:`.jit`), imported only now: numba
        takes a third of a second to import, which no command should pay at start-up."""
        from .jit import playout_kernel

        return playout_kernel


def _check_removals(text: str, state: CominoState, parsed) -> None:
    """A finished game with only the start tile on the table: every turn was a removal, and a
    tile may be removed only when its player has no placement, so a tile that fits beside
    the start tile was never removed by the rules (a board where all 22 tiles were removed).
    Checked only on finished games: a hand-set position in play may leave out tiles freely,
    which the rules tests use to pose positions where nothing fits."""
    kept = {name_of(t) for t in parsed.board.values()} | set().union(*parsed.hands)
    for name in sorted(TILE_SET - kept):
        if state.fits_somewhere(name):
            raise IllegalPositionError(
                text,
                "{name} is out of the game, but with only the start tile down it fits beside it, "
                "and a tile is removed only when no placement exists",
                name=name,
            )
