"""The Hexagone game: options, the start block, positions and the rendering hooks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import N_
from ludoteca.core.protocol import Game
from ludoteca.core.registry import check_players

from .notation import PIECES_PER_COLOUR, WHITE
from .position import parse_position
from .setup import generate_block
from .state import SOLO_ROLLS, HexagoneState

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _flag(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise MalformedError(value, "option gaps must be true or false")


class HexagoneGame(Game[HexagoneState]):
    id = "hexagone"
    title = "Hexagone"
    designer = "Professor Puzzle"
    tagline = N_(
        "Roll the colour dice, swap hexagons and capture groups of three from "
        "a shared block; 1 to 4 players."
    )
    rules_version = "1"
    min_players = 1
    max_players = 4
    has_chance = True
    max_game_length = 4000
    move_help = N_(
        "swap q,r q,r exchanges two pieces (the map shows each piece as its colour and "
        "cell, e.g. G-1,2); "
        "again / stop after a roll without capture;\n"
        "when a split block is reformed: main q,r names the main block, place C q,r puts a "
        "pool piece of colour C on an empty cell."
    )

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - {"players", "gaps"})
        if unknown:
            raise MalformedError(
                ", ".join(unknown),
                "unknown Hexagone option (options: players=1..4, gaps=true/false)",
            )
        players = options.get("players")
        super().__init__(
            players=1 if players is None else check_players(type(self), players),
            gaps=_flag(options.get("gaps")),
        )

    @property
    def gaps(self) -> bool:
        return bool(self.options["gaps"])

    def with_players(self, n: int) -> HexagoneGame:
        return self if n == self.num_players else HexagoneGame(players=n, gaps=self.gaps)

    def new_state(self, seed: int | None = None) -> HexagoneState:
        counts = [PIECES_PER_COLOUR] * 7
        if self.num_players == 4:  # the handicap's white piece is not in the block
            counts[WHITE] -= 1
        return self.starting_with(generate_block(random.Random(seed), counts, self.gaps))

    def starting_with(self, cells: dict[int, int]) -> HexagoneState:
        """A new game from the start block ``cells`` (packed cell -> colour), however it was
        drawn (:meth:`new_state`, or the compiled kernel for the research adapters): the
        fourth player's handicap, a white piece already captured, and the solo puzzle's
        rolls."""
        n = self.num_players
        captured = [[0] * 7 for _ in range(n)]
        if n == 4:
            captured[3][WHITE] = 1
        return HexagoneState(
            self, cells, captured=captured, rolls_left=SOLO_ROLLS if n == 1 else None
        )

    def from_position(self, text: str) -> HexagoneState:
        state = parse_position(self, text)
        state.game = self.with_players(state.num_players)
        return state

    def render_text(self, state, *, color: bool = False) -> str:
        from .render import render_text

        return render_text(state, color=color)

    def render_svg(
        self, state, *, highlight: Sequence[Any] = (), translate: Callable[[str], str] = str
    ) -> str:
        from .render import render_svg

        return render_svg(state, highlight=highlight, translate=translate)

    def ui_hints(self, state) -> dict:
        """What to do now, with a mouse (``prompt``) and with a finger (``prompt_touch``)."""
        from .state import PHASE_PROMPTS, PHASE_PROMPTS_TOUCH

        if state.to_move < 0:
            return {"prompt": "", "prompt_touch": "", "first": "any"}
        return {
            "prompt": PHASE_PROMPTS.get(state.phase, ""),
            "prompt_touch": PHASE_PROMPTS_TOUCH.get(state.phase, ""),
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
        """Random complete games in compiled code (:mod:`.jit`), imported only now: numba
        takes a third of a second to import, which no command should pay at start-up."""
        from .jit import playout_kernel

        return playout_kernel(self.num_players, self.gaps)
