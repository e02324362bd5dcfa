"""The Hexagone game: options, the start block, positions and the rendering hooks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import N_
from ludoteca.core.protocol import Game

from .notation import PIECES_PER_COLOUR, WHITE
from .position import parse_position
from .setup import generate_block
from .state import SOLO_ROLLS, HexagoneState

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _players(value: Any) -> int:
    if value is None:
        return 1
    if isinstance(value, str):
        text = value.strip()
        # ASCII digits only, and few: "²" and "١" are digits to str.isdigit, and int() of
        # thousands of digits is refused by Python itself.
        if not (text.isascii() and text.isdigit() and len(text) <= 3):
            raise MalformedError(value, "option players must be a whole number from 1 to 4")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise MalformedError(value, "option players must be a whole number from 1 to 4")
    return value


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
        super().__init__(players=_players(options.get("players")), gaps=_flag(options.get("gaps")))

    @property
    def gaps(self) -> bool:
        return bool(self.options["gaps"])

    def with_players(self, n: int) -> HexagoneGame:
        return self if n == self.num_players else HexagoneGame(players=n, gaps=self.gaps)

    def new_state(self, seed: int | None = None) -> HexagoneState:
        rng = random.Random(seed)
        n = self.num_players
        counts = [PIECES_PER_COLOUR] * 7
        captured = [[0] * 7 for _ in range(n)]
        if n == 4:  # the fourth player's handicap: a white piece already captured
            counts[WHITE] -= 1
            captured[3][WHITE] = 1
        cells = generate_block(rng, counts, self.gaps)
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
        from .state import PHASE_PROMPTS

        prompt = "" if state.to_move < 0 else PHASE_PROMPTS.get(state.phase, "")
        return {"prompt": prompt, "first": "any"}

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
