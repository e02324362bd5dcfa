"""What every registered game must do, checked for each one found by the registry (so a
fifth game is checked by adding it, not by writing its own copy of these tests):

- the conformance harness over random games (protocol, notation and position round trips,
  clones, undo, refusals, and the record of each game replaying);
- the one contract between an engine and the page: every legal move's cells are
  ``data-cell`` values of the game's own SVG, moves without cells have distinct labels, and
  the hints are plain data, so a page written for no game in particular offers any game's
  moves.

Each game's own rules, perft counts and kernels are tested in ``tests/games/<id>/``; the
table and records for every game in ``tests/core/test_table.py``."""

from __future__ import annotations

import json
import random
import re

import pytest

from ludoteca.core.conformance import check_playout
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


def _players_positions(game, rng: random.Random, games: int = 3, plies: int = 400):
    """The positions of random games (seeds 0 to ``games - 1``, at most ``plies`` moves
    each) where a player is to move: the table's draws are made between them, and each
    position is left by a random move once the caller has looked at it."""
    for seed in range(games):
        state = game.new_state(seed=seed)
        played = 0
        while not state.is_over and played < plies:
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
                continue
            yield state
            state.play(rng.choice(state.legal_moves()))
            played += 1


@pytest.mark.parametrize("name", names())
def test_random_games_pass_the_conformance_harness(name):
    game = get(name)
    for seed in range(3):
        final = check_playout(game, seed, every=3)
        assert final.is_over and final.result is not None


@pytest.mark.parametrize("name", _games())
def test_every_legal_move_names_cells_the_board_draws(name):
    game = get(name)
    for state in _players_positions(game, random.Random(11)):
        drawn = set(DATA_CELL.findall(game.render_svg(state)))
        buttons = []
        for move in state.legal_moves()[:3000]:
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


@pytest.mark.parametrize("name", _games())
def test_a_pages_outline_of_the_moves_is_what_the_moves_name(name):
    """:meth:`State.move_outline` (what a page is offered in place of thousands of moves) is,
    in every game and however the game works it out, what the moves themselves name."""
    game = get(name)
    for state in _players_positions(game, random.Random(12)):
        moves = state.legal_moves()
        named = [state.move_cells(m) for m in moves]
        for origin in (False, True):
            plain, cells = state.move_outline(moves, origin)
            assert [state.move_to_str(m) for m in plain] == [
                state.move_to_str(m) for m, c in zip(moves, named, strict=True) if not c
            ]
            assert cells == {c[0] if origin else x for c in named if c for x in c}
