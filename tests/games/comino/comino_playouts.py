"""What the Comino playout tests share: a position some random turns in, and the check that
a kernel playout's moves replay through the engine to the scores the kernel reported."""

from __future__ import annotations

import random

from ludoteca.core import get
from ludoteca.core.table import resolve_chance
from ludoteca.games.comino.state import CominoState

GAME = get("comino")


def after(seed: int, turns: int) -> CominoState:
    """A game dealt from ``seed`` with ``turns`` random turns played."""
    s = GAME.new_state(seed=seed)
    assert isinstance(s, CominoState)
    rng = random.Random(seed)
    resolve_chance(s, rng)
    for _ in range(turns):
        s.play(rng.choice(s.legal_moves()))
    return s


def assert_replays(state: CominoState, log: list[str], scores: tuple[int, int]) -> None:
    """The playout ``log`` from ``state`` is a legal, finished game scoring ``scores``."""
    probe = state.clone()
    for text in log:
        probe.play(text)  # raises if the kernel played anything illegal
    assert probe.is_over and tuple(probe.score) == scores


def assert_each_placement_is_the_best(state: CominoState, log: list[str]) -> None:
    """Every placement of the playout ``log`` from ``state`` scores as much as the best
    legal placement at its turn (what a playout drawing many placements should find)."""
    probe = state.clone()
    for text in log:
        mover = probe.to_move
        if not text.startswith("remove"):
            best = 0
            for move in probe.legal_moves():
                trial = probe.clone()
                trial.play(move)
                best = max(best, trial.score[mover] - probe.score[mover])
            gained = probe.score[mover]
            probe.play(text)
            assert probe.score[mover] - gained == best, text
        else:
            probe.play(text)
