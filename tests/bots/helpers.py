"""Independent references the bot tests compare against (brute force, written here)."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

from ludoteca.core.protocol import CHANCE, Game, State
from ludoteca.core.table import sample_chance


def nim_winning_takes(pile: int, takes: int = 3) -> set[int]:
    """Every move that wins two-player Nim by brute force (empty if the pile is lost)."""

    @cache
    def wins(p: int) -> bool:  # the player to move at p wins
        return any(t == p or not wins(p - t) for t in range(1, min(takes, p) + 1))

    return {t for t in range(1, min(takes, pile) + 1) if t == pile or not wins(pile - t)}


def random_positions(game, count: int, seed: int) -> list[State]:
    """Player-to-move positions of random games, from every phase of the game."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.new_state(seed=rng.randrange(2**31))
        while not state.is_over and len(out) < count:
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
                continue
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
    return out


def playing_out_by_its_states(game: Game) -> Game:
    """``game`` whose search plays out by each state's own ``playout(rng)`` method: for the
    tests that slow, stall or count a game's playouts (a search reads its playout from the
    game's knowledge, :attr:`ludoteca.core.ai.SearchKnowledge.playout`)."""
    knowledge = dataclasses.replace(
        game.search_knowledge(), playout=lambda state, rng, **_: state.playout(rng)
    )
    game.search_knowledge = lambda: knowledge  # type: ignore[method-assign]
    return game
