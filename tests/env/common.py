"""Games and helpers shared by the research adapter tests."""

from __future__ import annotations

import random

from ludoteca.core import get
from ludoteca.env.actions import Play

GAMES = [
    ("kuniumi", {}),
    ("comune", {}),
    ("comino", {}),
    ("hexagone", {"players": 2}),
    ("hexagone", {"players": 3}),
    ("hexagone", {"players": 1}),
]
IDS = [name + "".join(f"-{k}{v}" for k, v in opts.items()) for name, opts in GAMES]


def random_positions(name: str, options: dict, seed: int, every: int = 1):
    """A random game through the action layer, yielding the driver at each move's start."""
    rng = random.Random(seed)
    play = Play.new(get(name, **options), seed=seed)
    count = 0
    while not play.is_over:
        if not play.prefix and play.to_move >= 0:
            if count % every == 0:
                yield play
            count += 1
        play.apply(rng.choice(play.legal_actions()))
    yield play
