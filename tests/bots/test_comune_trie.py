"""The lazily listed Comune trie holds exactly the engine's whole turns, each once."""

from __future__ import annotations

import random

from ludoteca.bots.steps import MoveTrie
from ludoteca.core import get
from ludoteca.games.comune.ai import END
from ludoteca.games.comune.ai import TurnParts as ComuneTrie
from ludoteca.games.comune.ai import steps as comune_steps


def _all_moves(trie) -> list:
    found, stack = [], [()]
    while stack:
        prefix = stack.pop()
        if prefix in trie.moves:
            found.append(trie.moves[prefix])
            continue
        stack.extend((*prefix, part) for part in trie.next_steps[prefix])
    return found


def test_lazy_trie_lists_every_turn_once_in_many_positions():
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = get("comune").new_state(seed=seed)
        while not state.is_over:
            if rng.random() < 0.25:
                moves = _all_moves(ComuneTrie(state))
                assert len(moves) == len(set(moves))
                assert sorted(moves) == sorted(state.legal_moves())
                built = MoveTrie(state.legal_moves(), comune_steps)
                assert sorted(ComuneTrie(state).next_steps[()], key=str) == sorted(
                    built.next_steps[()], key=str
                )
                checked += 1
            state.play(rng.choice(state.legal_moves()))
    assert checked > 20


def test_opening_turn_has_single_pieces_only():
    trie = ComuneTrie(get("comune").new_state())
    first = next(p for p in trie.next_steps[()] if p != "pass")
    assert trie.next_steps[(first,)] == [END]


def test_a_trie_keeps_its_position_without_the_game_history():
    """A search keeps a trie per expanded node; the game's history must not ride along."""
    import pytest

    from ludoteca.core.errors import IllegalMoveError

    state = get("comune").new_state(seed=2)
    rng = random.Random(2)
    for _ in range(6):
        state.play(rng.choice(state.legal_moves()))
    copy = state.detached()
    assert copy.position() == state.position()
    assert sorted(copy.legal_moves()) == sorted(state.legal_moves())
    with pytest.raises(IllegalMoveError):
        copy.undo()
    state.undo()  # the original keeps its own
    moves = _all_moves(ComuneTrie(copy))
    assert sorted(moves) == sorted(copy.legal_moves())
