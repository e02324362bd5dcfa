"""The compiled playout (``comino/flat.py`` through ``comino/jit.py``), the search's
playout: the same rules and policy as the engine and ``comino/kernel.py``."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from comino_playouts import GAME, after, assert_each_placement_is_the_best, assert_replays
from comino_reference import legal as reference_legal

from ludoteca.games.comino import flat, jit
from ludoteca.games.comino.ai import playout
from ludoteca.games.comino.geometry import TILES, name_of
from ludoteca.games.comino.state import CominoState


def _traced(s, seed: int, best_of: int = 1) -> tuple[tuple[int, int], list[str]]:
    trace = np.zeros(2 * 22, dtype=np.int64)
    scores = jit.playout_scores(s, random.Random(seed), best_of=best_of, trace=trace)
    assert scores is not None
    return scores, jit.trace_moves(trace, 22 - s.turns)


def test_the_playout_is_compiled():
    """numba is a dependency: the search must not fall back to the slow path unnoticed."""
    assert jit.compiled().jit


@pytest.mark.parametrize("best_of", [1, 2, 10])
def test_compiled_playouts_are_legal_games_the_engine_scores_alike(best_of):
    removals = 0
    for seed in range(40):
        s = after(seed, seed % 21)
        before = s.position()
        scores, log = _traced(s, seed, best_of)
        assert s.position() == before
        assert_replays(s, log, scores)
        removals += sum(text.startswith("remove") for text in log)
    if best_of == 1:
        assert removals  # the forced removal is played too


def test_plain_python_runs_the_same_code_to_the_same_game():
    """Without numba the module's own functions play the very same game."""
    s = after(3, 4)
    tiles, hands, scalars = jit.arrays(s)
    g = np.zeros(flat.size(), dtype=np.int64)
    flat.init(g)
    plain_trace = np.zeros(44, dtype=np.int64)
    made = flat.play_from(g, tiles, hands, scalars, 77, 10, plain_trace)
    plain = (int(g[flat.SC + flat.SCORE]), int(g[flat.SC + flat.SCORE + 1]))

    class Fixed:
        def getrandbits(self, _bits):
            return 77

    trace = np.zeros(44, dtype=np.int64)
    assert jit.playout_scores(s, Fixed(), best_of=10, trace=trace) == plain  # type: ignore[arg-type]
    assert made == 22 - s.turns
    assert (trace == plain_trace).all()


def test_each_placement_is_the_best_of_those_drawn():
    """With many draws a placement scores as much as the best legal placement at that turn."""
    s = after(4, 5)
    _, log = _traced(s, 1, best_of=500)
    assert_each_placement_is_the_best(s, log)


def test_the_first_placement_is_uniform_over_the_engines_legal_moves():
    s = GAME.from_position(
        "BBRR@0,0;BBBR@1,0;YRBB@1,1 BBBY,BRYY,BYBY,RYRY,YYYY BRRR,BYYR,RRRR,RRYY,RYYY 4 6 1"
    )
    legal = sorted(str(m) for m in s.legal_moves())
    assert legal == reference_legal(s.board, s.hands[0])
    first: Counter[str] = Counter()
    runs = 150 * len(legal)
    for seed in range(runs):
        first[_traced(s, seed)[1][0]] += 1
    assert sorted(first) == legal
    expected = runs / len(legal)
    sd = (runs * (1 / len(legal)) * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(c - expected) < 5 * sd for c in first.values())


def test_positions_the_grid_cannot_hold_play_out_by_the_engine_kernel():
    """Still being dealt, or tiles so far out that the game could leave the grid: the state
    plays out with ``comino/kernel.py`` instead, and still gives payoffs."""
    dealing = GAME.new_state(seed=2)
    assert not jit.fits(dealing)
    assert jit.playout_scores(dealing, random.Random(1)) is None
    assert sum(playout(dealing, random.Random(1), policy="scoring")) == pytest.approx(1.0)
    board = {(0, 0): "BBRR", (1, 0): "BBBR", (1, 1): "YRBB"}
    hands = (["BBBY", "BRYY", "BYBY", "RYRY", "YYYY"], ["BRRR", "BYYR", "RRRR", "RRYY", "RYYY"])
    near = CominoState.from_parts(GAME, board, hands, (4, 6), dealing=False)
    assert jit.fits(near)
    far_board = {(x + 20, y): tile for (x, y), tile in board.items()}  # only built by hand
    far = CominoState.from_parts(GAME, far_board, hands, (4, 6), dealing=False)
    assert not jit.fits(far)
    assert jit.playout_scores(far, random.Random(3)) is None
    before = far.position()
    payoffs = playout(far, random.Random(3), policy="scoring")
    assert payoffs in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    assert far.position() == before


def test_every_legal_position_fits_the_grid():
    """A legal position is joined to the start tile, so after ``t`` turns no tile lies more
    than ``t`` squares out: the grid holds every game to its end."""
    for seed in range(30):
        s = after(seed, 21)
        assert jit.fits(s)
        assert max(max(abs(x), abs(y)) for x, y in s.board) <= s.turns <= flat.REACH


def test_compiled_complete_games_deal_and_play_by_the_rules():
    """The benchmark's games (``run_games``): a deal the engine accepts draw by draw, then
    turns that replay through the engine to the scores the kernel reached."""
    k = jit.compiled()
    g = np.zeros(flat.size(), dtype=np.int64)
    k.init(g)
    k.seed(g, 11)
    starts = set()
    for _ in range(60):
        trace = np.zeros(44, dtype=np.int64)
        k.run_games(g, 1, trace)
        start = TILES[flat.NAME_OF[g[flat.OCC + flat.START]]]
        starts.add(start)
        # the tiles still in hand at the end were dealt too; the placed ones are on the table
        placed = [int(g[flat.PLACED + i]) for i in range(int(g[flat.SC + flat.NPLACED]))]
        assert placed[0] == flat.START
        state = GAME.new_state(seed=0)
        state.play(f"deal {start}")
        log = jit.trace_moves(trace, 22)
        hands: list[list[str]] = [[], []]
        for turn, text in enumerate(log):
            tile = text.split()[1] if text.startswith("remove") else name_of(text.split("@")[0])
            hands[turn & 1].append(tile)
        for player, fixed in ((0, "YYYY"), (1, "RRRR")):
            assert fixed in hands[player] and len(hands[player]) == 11
            for tile in sorted(set(hands[player]) - {fixed}):
                state.play(f"deal {tile}")
        for text in log:
            state.play(text)
        scores = (int(g[flat.SC + flat.SCORE]), int(g[flat.SC + flat.SCORE + 1]))
        assert state.is_over and tuple(state.score) == scores
    assert len(starts) > 10  # the start tile is drawn, not fixed


def test_the_benchmark_kernel_is_the_compiled_one():
    games, moves = GAME.playout_kernel()(3, 0.05)
    assert games >= 4 and moves == 43 * games
