"""Notation and positions: parsing, writing, round trips, and refusal of bad input
(malformed text vs positions that parse but cannot occur)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.core import IllegalMoveError, IllegalPositionError, MalformedError, get
from ludoteca.core.table import random_playout
from ludoteca.games.kuniumi import flat as bits

GAME = get("kuniumi")
START = "6/6/6/6/6/6 setup"


def square(name: str) -> int:
    return (int(name[1]) - 1) * 6 + "abcdef".index(name[0])


# --- moves ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("E@c3", 0 * 36 + square("c3")),
        ("S@d4", 1 * 36 + square("d4")),
        ("l@a1", 2 * 36 + square("a1")),
        ("s@f6", 3 * 36 + square("f6")),
        ("choose land", bits.CHOOSE),
        ("choose sea", bits.CHOOSE + 1),
        ("c3-c6", bits.MOVE + 36 * square("c3") + square("c6")),
        ("a1-f6", bits.MOVE + 36 * 0 + 35),
    ],
)
def test_move_notation_examples(text, action):
    state = GAME.new_state()
    assert state.str_to_move(text) == action
    assert state.move_to_str(action) == text


def test_every_action_round_trips_through_notation():
    state = GAME.new_state()
    texts = set()
    for action in range(bits.NUM_ACTIONS):
        text = state.move_to_str(action)
        texts.add(text)
        assert state.str_to_move(text) == action
    assert len(texts) == bits.NUM_ACTIONS == GAME.action_space().size


@pytest.mark.parametrize(("text", "canonical"), [(" E@C3 ", "E@c3"), ("Choose  Sea", "choose sea")])
def test_move_parsing_tolerates_case_of_squares_and_words_and_spaces(text, canonical):
    state = GAME.new_state()
    assert state.move_to_str(state.str_to_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "E",
        "X@c3",
        "e@c3",
        "E@g1",
        "E@c7",
        "E@c0",
        "E c3",
        "c3c6",
        "c3-c",
        "choose",
        "choose fire",
        "choose land sea",
        "c3-c6-c7",
        "pass",
        "9999",
    ],
)
def test_malformed_moves_are_refused_and_change_nothing(text):
    state = GAME.new_state()
    with pytest.raises(MalformedError) as info:
        state.play(text)
    assert repr(text) in str(info.value)
    assert state.position() == START


@pytest.mark.parametrize("value", [-1, bits.NUM_ACTIONS, 3.5, None, True, ("E", "c3")])
def test_bad_move_values_are_malformed(value):
    state = GAME.new_state()
    with pytest.raises(MalformedError):
        state.play(value)
    assert state.position() == START


def test_legal_action_numbers_are_accepted_and_numpy_ints_too():
    state = GAME.new_state()
    state.play(np.int64(square("c3")))
    assert state.position() == "6/6/6/2E3/6/6 setup"


# --- positions -----------------------------------------------------------------------------------
def test_start_position():
    state = GAME.new_state()
    assert state.position() == START
    assert GAME.from_position(START).position() == START
    assert state.to_move == 0 and not state.is_over


@pytest.mark.parametrize(
    "text",
    [
        "6/6/6/6/6/E5 setup",
        "6/6/6/6/S5/E5 setup",
        "6/6/6/l5/S5/E5 setup",
        "6/6/2l3/2S3/2lEs1/6 setup",
        "6/6/2S3/2E3/6/ll2ss choose",
        "6/6/2S3/2E3/6/ll2ss play land land",
        "6/6/2S3/2E3/6/ll2ss play sea sea",
        "6/6/2S3/2Es2/6/ll2ss play land sea",
        "l3ss/6/6/6/l5/SEl3 play sea land",  # over: the Sea God is closed
    ],
)
def test_positions_round_trip(text):
    assert GAME.from_position(text).position() == text


def test_positions_round_trip_along_random_games():
    rng = random.Random(9)
    for _ in range(30):
        state = GAME.new_state()
        while True:
            text = state.position()
            again = GAME.from_position(text)
            assert again.position() == text
            assert again.to_move == state.to_move
            assert sorted(again.legal_moves()) == sorted(state.legal_moves())
            if state.is_over:
                assert again.result.winners == state.result.winners
                break
            state.play(rng.choice(state.legal_moves()))


def test_position_parsing_tolerates_extra_spaces_and_case_of_words():
    assert GAME.from_position("  6/6/2S3/2E3/6/ll2ss   PLAY Land  land ").position() == (
        "6/6/2S3/2E3/6/ll2ss play land land"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "position is"),
        ("6/6/6/6/6/6", "position is"),
        ("6/6/6/6/6 setup", "6 ranks"),
        ("6/6/6/6/6/6/6 setup", "6 ranks"),
        ("6/6/6/6/6/5 setup", "has 5 squares"),
        ("6/6/6/6/6/7 setup", "not a piece"),
        ("6/6/6/6/6/E6 setup", "more than 6"),
        ("6/6/6/6/6/33 setup", "two digits"),
        ("6/6/6/6/6/0E5 setup", "not a piece"),
        ("6/6/6/6/6/x5 setup", "not a piece"),
        ("6/6/6/6/6/e5 setup", "not a piece"),
        ("6/6/6/6/6/6 start", "not setup, choose or play"),
        ("6/6/6/6/6/6 setup land", "just the board"),
        ("6/6/2S3/2E3/6/ll2ss choose sea", "just the board"),
        ("6/6/2S3/2E3/6/ll2ss play", "side to move"),
        ("6/6/2S3/2E3/6/ll2ss play land", "side to move"),
        ("6/6/2S3/2E3/6/ll2ss play land land extra", "side to move"),
        ("6/6/2S3/2E3/6/ll2ss play fire land", "land or sea"),
        ("6/6/2S3/2E3/6/ll2ss play land water", "land or sea"),
    ],
)
def test_malformed_positions(text, why):
    with pytest.raises(MalformedError) as info:
        GAME.from_position(text)
    assert why in str(info.value)


@pytest.mark.parametrize("value", [None, 42, b"6/6/6/6/6/6 setup"])
def test_non_text_positions_are_malformed(value):
    with pytest.raises(MalformedError):
        GAME.from_position(value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # the set-up follows the fixed order E, S, l, l, s, s
        ("6/6/6/6/6/l5 setup", "fixed order"),
        ("6/6/6/6/6/S5 setup", "fixed order"),
        ("6/6/6/6/l5/E5 setup", "fixed order"),
        ("6/6/6/s5/S5/E5 setup", "fixed order"),
        ("6/6/6/lll3/S5/E5 setup", "fixed order"),
        ("6/6/2S3/2E3/6/ll2ss setup", "phase is choose"),
        # the choice comes after exactly the six set-up pieces
        ("6/6/2S3/2E3/6/ll2s1 choose", "after the whole set-up"),
        ("6/6/2S3/2E3/6/lll1ss choose", "after the whole set-up"),
        ("6/6/6/6/6/6 choose", "after the whole set-up"),
        # one God of each kind
        ("6/6/6/6/6/EE4 setup", "one Earth God"),
        ("6/6/2S3/2S3/6/ll2ss choose", "one Sea God"),
        # closed groups only occur in play (and end it)
        ("6/6/6/6/l5/SE4 setup", "closed group"),
        ("6/6/6/6/l5/SEl1ss choose", "closed group"),
        # play: both Gods present, at least the set-up's tokens, and the turn matches counts
        ("6/6/2S3/6/6/ll2ss play land land", "both Gods"),
        ("6/6/2S3/2E3/6/l3ss play land land", "two Land tokens"),
        ("6/6/2S3/2El2/6/ll2ss play land land", "sea to move"),
        ("6/6/2S3/2Es2/6/ll2ss play sea sea", "land to move"),
        ("6/6/2S3/2Ell1/6/ll2ss play sea land", "one more"),
        ("6/6/2S3/2El2/6/ll2ss play sea sea", "one more"),
        ("llllll/llllll/llllll/ss4/6/E4S play land land", "17 Land tokens"),
    ],
)
def test_impossible_positions(text, why):
    with pytest.raises(IllegalPositionError) as info:
        GAME.from_position(text)
    assert why in str(info.value)
    assert text in str(info.value)


# --- undo, clone, refusals -----------------------------------------------------------------------
def test_undo_takes_back_every_move_to_the_start():
    rng = random.Random(4)
    state = GAME.new_state()
    seen = [state.position()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        seen.append(state.position())
    while len(seen) > 1:
        seen.pop()
        state.undo()
        assert state.position() == seen[-1]
        assert not state.is_over
    with pytest.raises(IllegalMoveError):
        state.undo()


def test_clone_is_independent_and_keeps_the_history():
    state = GAME.new_state()
    state.play("E@c3")
    copy = state.clone()
    copy.play("S@d4")
    assert state.position() == "6/6/6/2E3/6/6 setup"
    assert state.position() != copy.position()
    copy.undo()
    copy.undo()
    assert copy.position() == START
    assert state.position() != START


def test_refused_moves_never_change_anything_along_a_game():
    rng = random.Random(8)
    state = GAME.new_state()
    while not state.is_over:
        before = state.position()
        legal = set(state.legal_moves())
        for action in rng.sample(range(bits.NUM_ACTIONS), 40):
            if action not in legal:
                with pytest.raises(IllegalMoveError):
                    state.play(action)
                assert state.position() == before
        state.play(rng.choice(sorted(legal)))


def test_side_names_and_summaries():
    state = GAME.new_state()
    assert (state.side_name(0), state.side_name(1)) == ("first", "second")
    assert state.last_move_summary() is None
    state.play("E@c3")
    assert state.last_move_summary() == "Earth God placed on c3"
    state = GAME.from_position("6/6/2S3/2E3/6/ll2ss choose")
    state.play("choose land")
    assert (state.side_name(0), state.side_name(1)) == ("sea", "land")
    assert "chose land" in state.last_move_summary()
    assert state.scores() is None


def test_game_options_and_seed():
    with pytest.raises(MalformedError):
        get("kuniumi", players=3)
    with pytest.raises(MalformedError):
        get("kuniumi", variant="big")
    assert get("kuniumi", players=2).new_state(seed=5).position() == START
    state = GAME.new_state(seed=1)
    assert 8 <= random_playout(state, random.Random(1)) <= GAME.max_game_length


def test_move_to_str_accepts_notation_and_returns_it_canonical():
    state = GAME.new_state()
    assert state.move_to_str(" S@C4 ") == "S@c4"
    with pytest.raises(MalformedError):
        state.move_to_str("S@z9")
