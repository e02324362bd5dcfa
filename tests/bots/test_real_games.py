"""Every bot on every registered game: legal moves, state untouched, in positions of every phase.

The games are whatever engines ``ludoteca.games`` holds (test games excluded), so each game
is covered as soon as its engine lands.
"""

from __future__ import annotations

import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.evaluation import MARGIN, evaluate
from ludoteca.core import get, names
from ludoteca.core.errors import MalformedError
from tests.bots.helpers import random_positions


def engines() -> list[type]:
    """The game classes of ``ludoteca.games`` (a package still being written has no GAME)."""
    out = []
    for name in names():
        try:
            cls = type(get(name))
        except MalformedError:
            continue
        if cls.__module__.startswith("ludoteca.games."):
            out.append(cls)
    return out


def variants() -> list[tuple[str, dict]]:
    out = []
    for cls in engines():
        name = cls.id
        for n in sorted({cls.min_players, min(cls.max_players, max(cls.min_players, 2))}):
            out.append((name, {"players": n} if cls.max_players > cls.min_players else {}))
    return out


VARIANTS = variants()
IDS = [f"{name}-{opts.get('players', 'std')}" for name, opts in VARIANTS]


def _bots_for(game) -> list[tuple[str, int]]:
    """(spec, positions) for the bots that play this game, budgets kept small."""
    solo = game.num_players == 1
    bots = [
        ("random", 1000),
        ("greedy", 80),
        ("mcts:iterations=8", 60),
        ("easy", 20),
        ("medium:iterations=8", 20),
    ]
    if solo:
        bots.append(("planner:iterations=400,width=3", 15))
    elif game.num_players == 2:
        bots.append(("alphabeta:iterations=300", 30))
    return bots


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_every_bot_is_legal_and_leaves_the_state_alone(name, options):
    game = get(name, **options)
    positions = random_positions(game, 1000, seed=17)
    for spec, count in _bots_for(game):
        bot = make_bot(spec, seed=5)
        step = max(1, len(positions) // count)
        for state in positions[::step][:count]:
            before = state.position()
            move = bot.choose(state)
            assert move in state.legal_moves(), f"{spec} chose {move!r} at {before}"
            assert state.position() == before, f"{spec} changed the state at {before}"


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_evaluation_is_a_share_per_player(name, options):
    game = get(name, **options)
    for state in random_positions(game, 300, seed=3)[::3]:
        values = evaluate(state)
        assert len(values) == state.num_players
        if state.num_players > 1:
            assert sum(values) == pytest.approx(1.0)
            assert all(MARGIN - 1e-12 <= v <= 1 - MARGIN + 1e-12 for v in values)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_a_short_game_between_two_levels(name, options):
    """A whole game through the arena's worker function, with tree reuse across moves."""
    from ludoteca.bots.arena import GameJob, play_game

    game = get(name, **options)
    n = game.num_players
    specs = ("mcts:iterations=6", "greedy")
    seats = tuple(i % 2 for i in range(n))
    outcome = play_game(GameJob(0, name, dict(game.options), 11, seats, specs, specs))
    assert outcome.moves > 0
    assert len(outcome.move_seconds) == n
