"""Binding notation: placements, turns and positions in and out; bad input refused."""

from __future__ import annotations

import random

import pytest
from comune_reference import Ref
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core import GameError, IllegalMoveError, IllegalPositionError, MalformedError, get
from ludoteca.games.comune.notation import START_POSITION

GAME = get("comune")


def after(*turns):
    s = GAME.new_state()
    for t in turns:
        s.play(t)
    return s


def test_start_position_text():
    assert START_POSITION == "5/6/7/8/9/8/7/6/5 L 0"
    assert GAME.new_state().position() == START_POSITION
    assert GAME.from_position(START_POSITION).legal_moves() == GAME.new_state().legal_moves()


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("e5-", "e5-"),
        ("e5h", "e5-"),
        ("E5H", "e5-"),
        ("d4r", "d4/"),
        ("f6f", "f6\\"),
        ("h5h", "h5-"),
        ("pass", "pass"),
        ("  PASS ", "pass"),
        ("e5- d4/", "e5- d4/"),
        ("d4/ e5-", "e5- d4/"),
        ("d4r e5h", "e5- d4/"),
        ("a1\\ i9-", "i9- a1\\"),
        ("a1f  b2r", "b2/ a1\\"),
    ],
)
def test_turn_notation_aliases_order_and_output(typed, shown):
    s = GAME.new_state()
    assert s.move_to_str(s.str_to_move(typed)) == shown


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "e5",
        "e5x",
        "j5-",
        "a9-",
        "e0-",
        "e10-",
        "5e-",
        "e5- d4/ c3\\",
        "e5--",
        "passe",
        "pass e5-",
        "e5-,d4/",
        "é5-",
        "e5 -",
    ],
)
def test_malformed_turns(text):
    s = after("e5-")
    with pytest.raises(MalformedError):
        s.play(text)
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"


def test_bad_move_values_are_refused_without_change():
    s = after("e5-")
    for value in (-1, 10**9, 184, 184 * 5, 1.5, None, (1, 2), True):
        with pytest.raises((MalformedError, IllegalMoveError)):
            s.play(value)
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"


def test_turn_values_are_one_per_turn():
    s = after("e5-")
    assert s.str_to_move("a1- b1/") == s.str_to_move("b1r a1h")
    moves = s.legal_moves()
    assert len({s.move_to_str(m) for m in moves}) == len(moves)


def test_error_messages_name_the_input_and_rule():
    s = after("e5-")
    with pytest.raises(IllegalMoveError) as err:
        s.play("d4/")
    assert "'d4/'" in str(err.value) and "different angle" in str(err.value)
    with pytest.raises(MalformedError) as err:
        s.play("a9-")
    assert "a9" in str(err.value) and "not a cell" in str(err.value)


# --- positions ---------------------------------------------------------------------------
def test_position_rows_run_from_row_9_down_and_letters_up():
    s = after("e5-", "a1/ i9\\", "e1f")
    assert s.position() == "4f/6/7/8/4H4/8/7/6/r3F D 0"


def test_position_round_trips_through_random_games():
    rng = random.Random(7)
    for _ in range(20):
        s = GAME.new_state()
        ref = Ref()
        while not s.is_over:
            text = s.move_to_str(rng.choice(s.legal_moves()))
            s.play(text)
            ref = ref.play(text)
            assert s.position() == ref.position()
            assert GAME.from_position(s.position()).position() == s.position()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "5/6/7/8/9/8/7/6/5",
        "5/6/7/8/9/8/7/6/5 L",
        "5/6/7/8/9/8/7/6/5 L 0 extra",
        "5/6/7/8/9/8/7/6 L 0",
        "5/6/7/8/9/8/7/6/5/1 L 0",
        "5/6/7/8/9/8/7/6/4 L 0",
        "5/6/7/8/9/8/7/6/6 L 0",
        "5/6/7/8/9/8/7/6/41 L 0",
        "5/6/7/8/9/8/7/6/05 L 0",
        "5/6/7/8/9/8/7/6/4X L 0",
        "5/6/7/8/9/8/7/6/5 W 0",
        "5/6/7/8/9/8/7/6/5 l 0",
        "5/6/7/8/9/8/7/6/5 L 3",
        "5/6/7/8/9/8/7/6/5 L -1",
        "5/6/7/8/9/8/7/6/HHHHHH L 0",
    ],
)
def test_malformed_positions(text):
    with pytest.raises(MalformedError):
        GAME.from_position(text)


def test_non_text_position_is_malformed():
    with pytest.raises(MalformedError):
        GAME.from_position(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # 36 Light pieces
        ("hhhhh/6/7/H7/HHHHHHHHH/HHHHHHHH/HHHHHHH/HHHHHH/HHHHH L 0", "35"),
        # Light '-' at e5 beside Dark '/' at e6
        ("5/6/7/3r4/4H4/8/7/6/5 L 0", "side by side"),
        # empty board: only L 0, D 1, L 2
        ("5/6/7/8/9/8/7/6/5 D 0", "empty board"),
        ("5/6/7/8/9/8/7/6/5 L 1", "empty board"),
        ("5/6/7/8/9/8/7/6/5 D 2", "empty board"),
        # passes 0 with Light to move: Dark just placed, so Dark has a piece
        ("5/6/7/8/4H4/8/7/6/5 L 0", "no piece"),
        # passes 1 with Dark to move: Dark placed before Light's pass
        ("5/6/7/8/4H4/8/7/6/5 D 1", "no piece"),
        # passes 2 with Light to move: Dark placed before the two passes
        ("5/6/7/8/4H4/8/7/6/5 L 2", "no piece"),
    ],
)
def test_impossible_positions(text, why):
    with pytest.raises(IllegalPositionError, match=why):
        GAME.from_position(text)


@pytest.mark.parametrize(
    "text",
    [
        "5/6/7/8/9/8/7/6/5 D 1",
        "5/6/7/8/9/8/7/6/5 L 2",
        "5/6/7/8/4H4/8/7/6/5 D 0",
        "5/6/7/8/4H4/8/7/6/5 L 1",
        "5/6/7/8/4H4/8/7/6/5 D 2",
        "5/6/7/8/4h4/8/7/6/5 L 0",
        "5/6/7/3h4/4H4/8/7/6/5 L 0",
    ],
)
def test_possible_positions_round_trip(text):
    assert GAME.from_position(text).position() == text


def test_supply_is_35_minus_pieces_on_the_board():
    s = GAME.from_position("r4/6/7/3h4/4H4/8/7/6/RR3 D 0")
    assert (s.supply(0), s.supply(1)) == (32, 33)


# --- fuzzing: any text is parsed or refused with a GameError, never anything else -------


_TURN_ALPHABET = st.sampled_from(list("abcdefghij0123456789-/\\hrfHRF pas\t\u00e9\u2075"))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(_TURN_ALPHABET, max_size=12), st.text(max_size=12)))
def test_any_turn_text_is_played_or_refused_cleanly(text):
    s = after("e5-")
    try:
        s.play(text)
    except GameError:
        assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"
    else:
        assert s.move_to_str(text) in {s.move_to_str(m) for m in after("e5-").legal_moves()}


_POSITION_ALPHABET = st.sampled_from(list("0123456789/HRFhrf LD x"))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(_POSITION_ALPHABET, max_size=40), st.text(max_size=20)))
def test_any_position_text_is_parsed_or_refused_cleanly(text):
    try:
        s = GAME.from_position(text)
    except GameError:
        return
    assert GAME.from_position(s.position()).position() == s.position()
