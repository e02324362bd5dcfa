"""On a touch screen a game's prompt speaks of tapping, never of clicking: a newcomer on a
phone read "click your God" and "click one, then another" in Kuniumi and Hexagone, where
Comino alone had words for a finger (``prompt_touch``, which the pages show on touch screens).
"""

from __future__ import annotations

import random
import re

import pytest

from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import get, names
from ludoteca.core.table import draw_at

CLICK = re.compile(r"\bclick", re.IGNORECASE)


@pytest.mark.parametrize("name", names())
def test_every_prompt_that_says_click_has_words_for_a_finger(name):
    seen = 0
    for seed in range(3):
        state = get(name).new_state(seed=seed)
        rng = random.Random(seed)
        ply = 0
        while not state.is_over and ply < 200:
            if state.to_move != CHANCE:
                hints = state.game.ui_hints(state)
                prompt = str(hints.get("prompt", ""))
                if CLICK.search(prompt):
                    seen += 1
                    touch = str(hints.get("prompt_touch", ""))
                    assert touch, f"{name}: no words for a finger beside {prompt!r}"
                    assert not CLICK.search(touch), f"{name}: {touch!r} on a touch screen"
            move = (
                draw_at(state, seed, ply)
                if state.to_move == CHANCE
                else rng.choice(list(state.legal_moves()))
            )
            state.play(move)
            ply += 1
    if name in {"kuniumi", "hexagone", "comino"}:
        assert seen, f"{name}: no prompt spoke of clicking in three games"
