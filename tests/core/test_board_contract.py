"""The one contract between an engine and the page: every legal move's cells are ``data-cell``
values of the game's own SVG, moves without cells have distinct labels, and the hints are
plain data. Checked for every registered game over random games, so a page written for no
game in particular can offer any game's moves."""

from __future__ import annotations

import json
import random
import re

import pytest

from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import get, names
from ludoteca.core.table import sample_chance

DATA_CELL = re.compile(r'data-cell="([^"]*)"')


def _games():
    out = []
    for name in names():
        game = get(name)
        try:
            game.render_svg(game.new_state(seed=1))
        except NotImplementedError:
            continue  # a game without a board drawing offers its moves as buttons only
        out.append(name)
    return out


@pytest.mark.parametrize("name", _games())
def test_every_legal_move_names_cells_the_board_draws(name):
    game = get(name)
    rng = random.Random(11)
    for seed in range(3):
        state = game.new_state(seed=seed)
        plies = 0
        while not state.is_over and plies < 400:
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
                continue
            drawn = set(DATA_CELL.findall(game.render_svg(state)))
            moves = state.legal_moves()
            buttons = []
            for move in moves[:3000]:
                cells = state.move_cells(move)
                assert set(cells) <= drawn, (state.move_to_str(move), cells)
                label = state.move_label(move)
                assert isinstance(label, str) and label.strip()
                json.dumps(state.move_info(move))  # plain data only
                if not cells:
                    buttons.append(label)
            assert len(buttons) == len(set(buttons)), buttons
            hints = game.ui_hints(state)
            assert isinstance(hints.get("prompt"), str) and hints.get("first") in ("any", "origin")
            json.dumps(hints)
            state.play(rng.choice(moves))
            plies += 1
