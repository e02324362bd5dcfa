"""Bad input never crashes, corrupts or half-applies anything (property-based)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core import GameError, get
from ludoteca.core.table import resolve_chance

GAME = get("comino")

notation_chars = st.sampled_from(list("BRYbry@,;-0123456789 removedal\t"))
move_like = st.one_of(st.text(max_size=20), st.text(notation_chars, max_size=20))


def a_state(seed: int, turns: int):
    rng = random.Random(seed)
    s = GAME.new_state(seed=seed)
    resolve_chance(s, rng)
    for _ in range(turns):
        s.play(rng.choice(s.legal_moves()))
    return s


@settings(max_examples=300, deadline=None)
@given(text=move_like, seed=st.integers(0, 50), turns=st.integers(0, 21))
def test_any_text_as_a_move_is_played_or_refused_cleanly(text, seed, turns):
    s = a_state(seed, turns)
    before = s.position()
    legal = {str(m) for m in s.legal_moves()}
    try:
        s.play(text)
    except GameError:
        assert s.position() == before
    else:
        assert s.move_to_str(text) in legal


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=60),
        st.lists(st.text(notation_chars, max_size=14), min_size=6, max_size=6).map(" ".join),
    )
)
def test_any_text_as_a_position_parses_or_is_refused_cleanly(text):
    try:
        s = GAME.from_position(text)
    except GameError:
        return
    assert GAME.from_position(s.position()).position() == s.position()


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 50),
    turns=st.integers(0, 22),
    edits=st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from(list("BRY-0129,;"))),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_real_positions_are_refused_or_fully_usable(seed, turns, edits):
    text = list(a_state(seed, turns).position())
    for where, char in edits:
        text[where % len(text)] = char
    try:
        s = GAME.from_position("".join(text))
    except GameError:
        return
    assert GAME.from_position(s.position()).position() == s.position()
    for move in s.legal_moves():
        probe = s.clone()
        probe.play(move)
