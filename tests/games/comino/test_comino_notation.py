"""Notation in and out (rules: Notation), and refusing bad positions."""

from __future__ import annotations

import pytest

from ludoteca.core import IllegalPositionError, MalformedError, get
from ludoteca.games.comino import Deal, Place, Remove
from ludoteca.games.comino.notation import parse_move

GAME = get("comino")
SEED_EXAMPLE = (
    "BBRR@0,0;BRYY@0,2;RBRR@1,-1;BBBR@1,0;YRBB@1,1;RRRY@1,2;BBYB@2,0;BBRY@3,0 BBYY RRRR 12 9 1"
)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("YRBB@1,0", Place("YRBB", 1, 0)),
        ("BYYR@-1,2", Place("BYYR", -1, 2)),
        (" yrbb @ 1 , -3 ", Place("YRBB", 1, -3)),
        ("remove BRYY", Remove("BRYY")),
        ("remove YYBR", Remove("BRYY")),  # any rotation names the tile
        ("deal BRYY", Deal("BRYY")),
        ("DEAL brYY", Deal("BRYY")),
    ],
)
def test_moves_parse(text, move):
    assert parse_move(text) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "YRBB",
        "YRBB@1",
        "YRB@1,0",
        "YRBX@1,0",
        "BBBB@1,0",
        "remove",
        "remove BBBB",
        "deal",
        "deal YRB",
        "place YRBB@1,0",
        "YRBB@1,0;",
        "YRBB@a,b",
        "remove BRYY BRYY",
    ],
)
def test_malformed_moves_are_refused_as_malformed(text):
    with pytest.raises(MalformedError):
        parse_move(text)


def test_remove_and_deal_of_the_same_tile_are_different_moves():
    assert Remove("BRYY") != Deal("BRYY")
    assert len({Remove("BRYY"), Deal("BRYY")}) == 2


def test_moves_print_in_binding_notation():
    s = GAME.new_state()
    assert s.move_to_str(Place("BYYR", -1, 2)) == "BYYR@-1,2"
    assert s.move_to_str(Remove("BRYY")) == "remove BRYY"
    assert s.move_to_str(Deal("BRYY")) == "deal BRYY"


def test_position_is_canonical_whatever_order_the_input_uses():
    shuffled = (
        "RRRY@1,2;BBRY@3,0;BRYY@0,2;BBRR@0,0;YRBB@1,1;BBYB@2,0;BBBR@1,0;RBRR@1,-1 bbyy RRRR 12 9 1"
    )
    assert GAME.from_position(shuffled).position() == SEED_EXAMPLE


def test_board_is_sorted_by_x_then_y_numerically():
    text = "YBRR@-1,0;YYBY@-1,1;BYRR@0,0;YRRR@1,0 BYBY BYRY 4 3 1"
    s = GAME.from_position(text)
    assert s.position() == text
    board = s.position().split()[0].split(";")
    keys = [tuple(int(v) for v in e.split("@")[1].split(",")) for e in board]
    assert keys == sorted(keys)


def test_hands_are_sorted_and_dash_when_empty():
    s = GAME.from_position("BBBY@0,0 - RRRR 3 4 2")
    assert s.position() == "BBBY@0,0 - RRRR 3 4 2"
    s = GAME.from_position("BBBY@0,0 YYYY,BRRR,RRRY RRRR,BBRR,BRYR 0 0 1")
    assert s.position().split()[1:3] == ["BRRR,RRRY,YYYY", "BBRR,BRYR,RRRR"]


def test_new_state_position_is_the_empty_deal():
    s = GAME.new_state(seed=1)
    assert s.position() == "- YYYY RRRR 0 0 deal"
    assert GAME.from_position(s.position()).position() == s.position()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "- YYYY RRRR 0 0",
        "- YYYY RRRR 0 0 deal extra",
        "BBBY@0,0 YYYY RRRR 0 0 3",
        "BBBY@0,0 YYYY RRRR a 0 1",
        "BBBY@0,0 YYYY RRRR -1 0 1",
        "BBBY@0,0; YYYY RRRR 0 0 1",
        "BBBY@0,0 YYYY,,BRRR RRRR 0 0 1",
        "BBBB@0,0 YYYY RRRR 0 0 1",
        "BBBY 0,0 YYYY RRRR 0 0 1",
    ],
)
def test_malformed_positions(text):
    with pytest.raises(MalformedError):
        GAME.from_position(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("BBBY@0,0;BBBY@1,0 YYYY RRRR 0 0 1", "appears"),
        ("BBBY@0,0;RRRY@0,0 YYYY RRRR 0 0 1", "two tiles"),
        ("BBYB@0,0 YYYY RRRR 0 0 1", "orientation of its name"),
        ("BBBY@1,0 YYYY RRRR 0 0 1", "0,0"),
        ("- YYYY RRRR 0 0 1", "start tile"),
        ("BBBY@0,0;RRRY@2,0 YYYY RRRR 0 0 1", "joined"),
        ("BBBY@0,0;RRRY@1,0 YYYY RRRR 0 0 1", "grid point"),
        ("BBBY@0,0 RRRR YYYY 0 0 1", "player"),
        ("BBBY@0,0 YYYY RRRR 0 0 2", "hands"),
        ("BBBY@0,0 YYYY,RRRY RRRR 0 0 1", "hands"),
        ("BBBY@0,0 - - 0 0 2", "hands"),
        ("BBBY@0,0 - - 5 0 deal", "deal"),
        ("- YYYY,BBRR RRRR 0 0 deal", "start tile"),
        ("BBBY@0,0 YYYY RRRR,BBRR 0 0 deal", "player 1's ten"),
        ("BBBY@0,0;BBRR@1,0 YYYY RRRR 0 0 deal", "only the start tile"),
    ],
)
def test_impossible_positions(text, why):
    with pytest.raises(IllegalPositionError, match=why):
        GAME.from_position(text)


def test_full_hands_before_any_score():
    hands1 = "YYYY,BBBR,BBBY,BBRR,BBRY,BBYR,BBYY,BRBR,BRBY,BRRR,BRRY"
    hands2 = "RRRR,BRYR,BRYY,BYBY,BYRR,BYRY,BYYR,BYYY,RRYY,RYRY,RYYY"
    with pytest.raises(IllegalPositionError, match="scores before"):
        GAME.from_position(f"RRRY@0,0 {hands1} {hands2} 1 0 1")
    s = GAME.from_position(f"RRRY@0,0 {hands1} {hands2} 0 0 1")
    assert s.to_move == 0
    assert len(s.legal_moves()) > 0


def test_mid_deal_positions_round_trip_and_continue_the_deal():
    s = GAME.new_state()
    for name in ["BBBY", "BRRR", "BRYY"]:
        s.play(f"deal {name}")
    text = s.position()
    assert text == "BBBY@0,0 BRRR,BRYY,YYYY RRRR 0 0 deal"
    again = GAME.from_position(text)
    assert again.draws == 3
    again.play("deal BYBY")
    assert "BYBY" in again.hands[0]
