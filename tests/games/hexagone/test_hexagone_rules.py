"""One test (or more) per rule clause and **Decision** of rules/hexagone.md."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hexagone_support import Ref, line, load, position

import ludoteca.core as core
from ludoteca.core import CHANCE, TERMINAL
from ludoteca.core.errors import GameError, IllegalMoveError, MalformedError

# 13 pieces along row 0: R O Y G B P W R O Y G B R
TWELVE = line("ROYGBPWROYGBR")


def swap_state(dice: str, cells=None, **kw):
    return load(position(cells or TWELVE, phase="swap", dice=dice, **kw))


def legal_texts(state) -> list[str]:
    return [state.move_to_str(m) for m in state.legal_moves()]


def refused(state, move: str, kind=IllegalMoveError) -> str:
    before = state.position()
    with pytest.raises(kind) as info:
        state.play(move)
    assert state.position() == before
    return str(info.value)


# --- dice ------------------------------------------------------------------------------------


def test_a_full_block_has_21_rolls_with_exact_probabilities():
    state = load(position(TWELVE))
    assert state.to_move == CHANCE
    outcomes = {
        state.move_to_str(m): Fraction(p).limit_denominator(100) for m, p in state.chance_outcomes()
    }
    assert len(outcomes) == 21
    assert outcomes["roll RR"] == Fraction(1, 36)
    assert outcomes["roll RG"] == Fraction(2, 36)
    assert "roll GR" not in outcomes  # a roll is unordered, written in R O Y G B P order
    assert sum(outcomes.values()) == 1


def test_rolls_naming_no_colour_in_the_block_are_retaken():
    # no R and no O in the block: rolls RR, RO, OO are retaken (4 of 36 chances)
    cells = line("YGBPWYGBPWYG")
    state = load(position(cells))
    outcomes = {state.move_to_str(m): p for m, p in state.chance_outcomes()}
    assert len(outcomes) == 18
    assert {"roll RR", "roll RO", "roll OO"}.isdisjoint(outcomes)
    assert outcomes["roll RY"] == pytest.approx(2 / 32)
    assert outcomes["roll YY"] == pytest.approx(1 / 32)
    assert "neither R nor O" in refused(state, "roll OR")


def test_roll_notation_accepts_either_order_and_refuses_white():
    state = load(position(TWELVE))
    assert state.str_to_move("roll GR") == state.str_to_move("roll RG")
    refused(state, "roll WR", MalformedError)
    refused(state, "roll RGB", MalformedError)
    state.play("roll gr")
    assert json.loads(state.position())["dice"] == "RG"


# --- swaps -----------------------------------------------------------------------------------


def test_an_adjacent_swap_needs_a_rolled_colour():
    state = swap_state("RG")
    assert "swap 0,0 1,0" in legal_texts(state)  # R with O
    assert "swap 2,0 3,0" in legal_texts(state)  # Y with G
    assert "rolled colour" in refused(state, "swap 1,0 2,0")  # O with Y
    assert "do not touch" in refused(state, "swap 0,0 2,0")  # R with Y, apart


def test_every_listed_adjacent_swap_touches_and_has_a_rolled_colour():
    state = swap_state("OB")
    for m in state.legal_moves():
        a, b = state.move_to_str(m).split()[1:]
        qa, qb = int(a.split(",")[0]), int(b.split(",")[0])
        assert abs(qa - qb) == 1
        assert {TWELVE[a], TWELVE[b]} & {"O", "B"}
    assert len(state.legal_moves()) == 8  # O at 1 and 8, B at 4 and 11: two neighbours each


def test_a_double_swaps_across_the_block():
    state = swap_state("RR")
    texts = legal_texts(state)
    assert "swap 0,0 10,0" in texts  # R with G far away
    assert "swap 7,0 11,0" in texts
    # R pieces at 0, 7 and 12 with each of the ten other pieces
    assert len(texts) == 3 * 10
    assert "doubled colour" in refused(state, "swap 1,0 10,0")  # O with G, apart


def test_a_double_also_allows_the_adjacent_swaps_of_its_colour_only():
    state = swap_state("GG")
    assert "swap 2,0 3,0" in legal_texts(state)  # Y-G adjacent, G doubled
    refused(state, "swap 1,0 2,0")  # O-Y adjacent, no G


def test_white_has_no_die_face_but_can_be_the_partner():
    state = swap_state("PR")
    assert "swap 5,0 6,0" in legal_texts(state)  # P with W
    assert "swap 6,0 7,0" in legal_texts(state)  # W with R
    state = swap_state("YG")
    refused(state, "swap 5,0 6,0")  # P with W: neither is rolled, white never is
    state = swap_state("BB")
    assert "swap 4,0 6,0" in legal_texts(state)  # double B: B with a white anywhere


def test_two_pieces_of_one_colour_are_never_swapped():
    cells = line("RRORORGBYPWOY")
    state = swap_state("RR", cells)
    assert "same colour" in refused(state, "swap 0,0 3,0")
    assert all(
        state.position().count("R") > 0 and cells[a] != cells[b]
        for a, b in (state.move_to_str(m).split()[1:] for m in state.legal_moves())
    )


def test_swap_notation_accepts_either_cell_order():
    state = swap_state("RG")
    assert state.str_to_move("swap 1,0 0,0") == state.str_to_move("swap 0,0 1,0")
    assert state.move_to_str(state.str_to_move("swap 1,0 0,0")) == "swap 0,0 1,0"
    state.play("swap 1,0 0,0")
    assert json.loads(state.position())["cells"]["0,0"] == "O"


def test_a_swap_on_an_empty_cell_is_refused():
    assert "no piece on 5,5" in refused(swap_state("RR"), "swap 0,0 5,5")


# --- captures --------------------------------------------------------------------------------

# R R O R then a tail: swapping O(2,0) and R(3,0) makes R R R on 0..2
CAPTURE_LINE = line("RRORGYBPWOYGBPWO")


def test_a_group_of_three_with_a_swapped_piece_is_captured_and_ends_the_turn():
    state = swap_state("RO", CAPTURE_LINE)
    state.play("swap 2,0 3,0")
    data = json.loads(state.position())
    assert {"0,0", "1,0", "2,0"}.isdisjoint(data["cells"])
    assert data["cells"]["3,0"] == "O"
    assert state.captured[0][0] == 3  # three red in player 1's pile
    assert data["phase"] == "roll" and data["to_move"] == 1  # the turn ended
    assert data["since_capture"] == 0
    assert "captured 3 red" in state.last_move_summary()


def test_two_groups_made_by_one_swap_are_both_captured():
    cells = line("RROROOYGBPWGYBPWYG")  # swap O(2,0) with R(3,0): R R R and O O O
    state = swap_state("RO", cells, captured=["", ""])
    before = sum(state.captured[0])
    state.play("swap 2,0 3,0")
    data = json.loads(state.position())
    assert set(cells) - set(data["cells"]) == {f"{q},0" for q in range(6)}
    assert sum(state.captured[0]) - before == 6
    assert "3 red and 3 orange" in state.last_move_summary()


def test_white_groups_are_captured_too():
    cells = line("WWRWGYBPOYGBPOR")
    state = swap_state("RR", cells)
    state.play("swap 2,0 3,0")
    assert state.captured[0][6] >= 3
    assert "3 white" in state.last_move_summary()


def test_only_groups_containing_a_swapped_piece_are_taken():
    # the swap makes G G G at 5..7 and moves an R next to nothing of its colour
    cells = line("GGRGOYBPWYBRORY")
    state = swap_state("RG", cells, captured=["", ""])
    before = list(state.captured[0])
    state.play("swap 2,0 3,0")  # G G G on 0..2; the R moved to 3,0 touches no R
    after = json.loads(state.position())["cells"]
    assert set(cells) - set(after) == {"0,0", "1,0", "2,0"}
    assert [a - b for a, b in zip(state.captured[0], before, strict=True)] == [0, 0, 0, 3, 0, 0, 0]


# --- second roll -----------------------------------------------------------------------------


def test_no_capture_lets_the_mover_roll_again_or_stop():
    state = swap_state("RG")
    state.play("swap 0,0 1,0")
    assert json.loads(state.position())["phase"] == "second"
    assert state.to_move == 0
    assert legal_texts(state) == ["again", "stop"]
    again = state.clone()
    again.play("again")
    assert again.to_move == CHANCE and json.loads(again.position())["rolled_this_turn"] == 1
    again.play("roll YY")
    again.play(again.legal_moves()[0])
    data = json.loads(again.position())
    # the turn ends after the second roll, capture or not
    assert data["phase"] == "roll" and data["to_move"] == 1 and data["rolled_this_turn"] == 0
    state.play("stop")
    data = json.loads(state.position())
    assert data["phase"] == "roll" and data["to_move"] == 1 and data["since_capture"] == 1


def test_second_roll_moves_are_refused_elsewhere():
    state = swap_state("RG")
    assert "not the moment" in refused(state, "again")
    assert "not the moment" in refused(state, "roll RG")


# --- splitting and reforming -----------------------------------------------------------------


def split_line(head: str, tail: str):
    """A line ``head`` + ``G G Y`` + ``tail`` + ``G``, and a double G that swaps the Y with
    the last G: the three G in the middle are captured and the line splits in two."""
    cells = line(head + "GGY" + tail + "G")
    y = len(head) + 2
    last = len(head) + 3 + len(tail)
    return swap_state("GG", cells), f"swap {y},0 {last},0"


def test_a_split_block_keeps_its_largest_section_and_reforms_the_rest():
    state, swap = split_line("ROYBP", "RWOYBPWR")
    state.play(swap)
    data = json.loads(state.position())
    assert data["phase"] == "reform" and data["to_move"] == 0
    assert sorted(data["pool"]) == sorted("ROYBP")
    assert sorted(data["cells"]) == sorted(f"{q},0" for q in range(8, 17))
    assert {"0,0", "1,0", "2,0", "3,0", "4,0"}.isdisjoint(data["cells"])
    while data["phase"] == "reform":
        moves = legal_texts(state)
        assert moves and all(m.startswith("place ") for m in moves)
        state.play(moves[0])
        data = json.loads(state.position())
    assert data["phase"] == "roll" and data["to_move"] == 1 and data["since_capture"] == 0
    assert len(data["cells"]) == 5 + 9


def test_placements_obey_the_setup_rules():
    state = load(
        position(line("ROYBPWROYB"), phase="reform", pool="R", rolled=1, captured=["", ""])
    )
    assert "fewer than two" in refused(state, "place R 20,20")
    assert "own colour" in refused(state, "place R 0,1")  # touches R(0,0) and O(1,0)
    assert "not empty" in refused(state, "place R 1,0")
    assert "no W piece" in refused(state, "place W 1,1")
    assert "place R 1,1" in legal_texts(state)  # touches O(1,0) and Y(2,0)
    for text in legal_texts(state):
        colour, cell = text.split()[1:]
        q, r = map(int, cell.split(","))
        around = [
            json.loads(state.position())["cells"].get(f"{q + dq},{r + dr}")
            for dq, dr in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
        ]
        around = [a for a in around if a]
        assert len(around) >= 2 and colour not in around


def test_a_placement_that_would_strand_a_pool_piece_is_refused():
    # every cell touching two pieces of O R O R ... R Y touches an R, so the R can only go
    # next to the G once the G sits at an end of the line
    state = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1))
    assert legal_texts(state) == ["place G 0,1", "place G 1,-1", "place G 7,1", "place G 8,-1"]
    assert "could not be placed" in refused(state, "place G 4,-1")
    assert "own colour" in refused(state, "place R 4,-1")
    state.play("place G 8,-1")
    assert legal_texts(state) == ["place R 9,-1"]


def test_an_impossible_reform_ends_the_game_at_once():
    # R + G G Y + O R O R O R O R + G: the double G swaps Y and the last G; the lone R must
    # be placed back next to O R O R O R O R Y, where every two-piece cell touches an R
    cells = line("RGGYORORORORG")
    state = swap_state("GG", cells)
    state.play("swap 3,0 12,0")
    assert state.is_over and state.to_move == TERMINAL
    assert state.result.reason == "the block cannot be reformed"
    data = json.loads(state.position())
    assert data["phase"] == "over"


def test_an_impossible_reform_leaves_the_other_sections_in_the_pool():
    """**Decision (ended games)**: the other sections' pieces have left the table for the
    pool, and the capture reset ``since_capture``, though the reform then failed."""
    cells = line("RGGYORORORORG")
    state = swap_state("GG", cells, since=7)
    state.play("swap 3,0 12,0")
    data = json.loads(state.position())
    assert data["phase"] == "over" and data["pool"] == ["R"]
    assert "0,0" not in data["cells"] and data["since_capture"] == 0
    assert data["dice"] is None and data["rolled_this_turn"] == 0
    # the ended position is read back as it is written, for the same reason
    again = load(state.position())
    assert again.position() == state.position()
    assert again.result.reason == "the block cannot be reformed"
    state.undo()
    assert json.loads(state.position())["since_capture"] == 7


def test_equal_sections_let_the_mover_choose_the_main_block():
    state, swap = split_line("ROYBPW", "RWOYB")
    state.play(swap)
    data = json.loads(state.position())
    assert data["phase"] == "main" and data["pool"] == []
    assert legal_texts(state) == ["main 0,0", "main 9,0"]
    # any cell of a section names it
    assert state.str_to_move("main 12,0") == state.str_to_move("main 9,0")
    assert "main block must be" in refused(state, "main 20,0")
    state.play("main 12,0")
    data = json.loads(state.position())
    assert data["phase"] == "reform" and "9,0" in data["cells"] and "0,0" not in data["cells"]
    assert sorted(data["pool"]) == sorted("ROYBPW")


def test_on_a_tie_only_a_reformable_main_block_can_be_chosen():
    # R O R | G G Y G G | Y Y G Y Y | O R B: the double G swaps Y(5,0) with G(10,0) and
    # captures five G and five Y, leaving R O R and O R B. Keeping O R B, the pool R O R
    # cannot be placed (an R needs a cell touching two pieces and no R); keeping R O R works.
    cells = line("RORGGYGGYYGYYORB")
    state = swap_state("GG", cells)
    state.play("swap 5,0 10,0")
    assert json.loads(state.position())["phase"] == "main"
    assert legal_texts(state) == ["main 0,0"]
    assert Ref(state.position()).moves() == ["main 0,0"]  # the brute-force reference agrees
    assert "main block must be" in refused(state, "main 14,0")
    state.play("main 2,0")
    assert sorted(json.loads(state.position())["pool"]) == sorted("ORB")


def test_a_tie_where_no_main_block_can_be_reformed_ends_the_game():
    # R O | G G Y G G | Y Y G Y Y | R O: two sections R O; neither can take the other's R
    # and O (the only cells touching two pieces touch both an R and an O)
    cells = line("ROGGYGGYYGYYRO")
    state = swap_state("GG", cells)
    state.play("swap 4,0 9,0")
    assert state.is_over and state.result.reason == "the block cannot be reformed"
    assert sum(state.captured[0]) >= 10
    data = json.loads(state.position())
    # no main block exists: the sections stay on the table, the pool is empty
    assert data["pool"] == [] and data["since_capture"] == 0
    assert "0,0" in data["cells"] and "13,0" in data["cells"]
    assert load(state.position()).position() == state.position()


def test_the_reform_happens_even_when_the_block_is_small_then_the_game_ends():
    # 12 pieces: capture 3 in the middle, 9 left in two sections; the pool goes back, then
    # the turn ends with 9 pieces and the game is over
    state, swap = split_line("ROYB", "PROYB")
    state.play(swap)
    data = json.loads(state.position())
    assert data["phase"] == "reform"
    while data["phase"] == "reform":
        state.play(state.legal_moves()[0])
        data = json.loads(state.position())
    assert state.is_over and state.result.reason == "the block has 10 or fewer pieces"
    assert len(data["cells"]) == 10 and data["pool"] == []


# --- end of the game -------------------------------------------------------------------------


def test_ten_or_fewer_pieces_end_the_game():
    cells = line("RRORGYBPWOY")  # 11 pieces; capturing 3 leaves 8
    state = swap_state("RO", cells)
    state.play("swap 2,0 3,0")
    assert state.is_over and state.result.reason == "the block has 10 or fewer pieces"


def test_no_colour_with_three_pieces_ends_the_game():
    cells = line("RRORYGBPWOYGBPW")  # after RRR: two of every colour left, 12 pieces
    state = swap_state("RO", cells)
    state.play("swap 2,0 3,0")
    assert state.is_over and state.result.reason == "no colour has three pieces left in the block"


def test_forty_turns_without_a_capture_end_the_game():
    state = load(position(TWELVE, phase="second", since=39))
    state.play("stop")
    assert state.is_over and state.result.reason == "40 turns in a row without a capture"
    early = load(position(TWELVE, phase="second", since=38))
    early.play("stop")
    assert not early.is_over and json.loads(early.position())["since_capture"] == 39


def test_forty_turns_after_a_second_roll_without_capture():
    state = load(position(TWELVE, phase="swap", dice="RG", rolled=2, since=39))
    state.play("swap 0,0 1,0")
    assert state.is_over and state.result.reason == "40 turns in a row without a capture"


def test_the_game_is_over_for_every_move():
    state = load(position(line("RRORGYBPWOY"), phase="over", captured=["RRR", ""], since=40))
    assert state.is_over and state.legal_moves() == [] and state.to_move == TERMINAL
    assert "game is over" in refused(state, "roll RG")
    refused(state, "swap 0,0 1,0")


# --- winner ----------------------------------------------------------------------------------


def test_most_captured_pieces_wins():
    base = line("OYGBPW" * 3 + "ROYGBPW")  # 25 pieces, ended by 40 turns without a capture
    captured = ["RRR", "RRYYGG", ""]  # and the rest: OO BB PP WW for the third player
    state = load(position(base, phase="over", players=3, captured=captured, since=40))
    assert state.scores() == (3, 6, 8)
    assert state.result.winners == (2,)
    assert state.result.ranking == ((2,), (1,), (0,))


def test_ties_go_to_the_largest_single_colour_then_are_shared():
    base = line("BPW" * 6 + "ROYGROYGOYGO")
    state = load(
        position(base, phase="over", players=3, captured=["RRRROO", "YYYGGG", ""], since=40)
    )
    assert state.scores() == (6, 6, 0)
    assert state.result.winners == (0,)
    assert state.result.ranking[0] == (0,) and state.result.ranking[1] == (1,)
    base = line("BPW" * 6 + "ROYGROYGROYG")
    state = load(
        position(base, phase="over", players=3, captured=["RRROOO", "YYYGGG", ""], since=40)
    )
    assert state.scores() == (6, 6, 0)
    assert state.result.winners == (0, 1)  # shared victory
    assert state.result.ranking[0] == (0, 1)
    assert state.result.payoffs()[:2] == (0.5, 0.5)


def test_the_white_handicap_counts_as_captured():
    cells = line("ROYGBPWROYGBPWROYGBPWROYGBPWROYGBPWROYGBP")  # 41 pieces
    state = load(position(cells, phase="over", players=4, captured=["", "", "", "W"], since=40))
    assert state.scores() == (0, 0, 0, 1)
    assert state.result.winners == (3,)


# --- solo --------------------------------------------------------------------------------------


def test_solo_has_no_second_roll_and_counts_rolls():
    state = load(position(TWELVE, players=1, rolls_left=3))
    state.play("roll RG")
    assert json.loads(state.position())["rolls_left"] == 2
    state.play("swap 0,0 1,0")
    data = json.loads(state.position())
    assert data["phase"] == "roll" and data["rolls_left"] == 2 and data["since_capture"] == 1


def test_solo_ends_after_fifteen_rolls_with_the_score_of_captured_pieces():
    state = load(position(TWELVE, players=1, rolls_left=1))
    state.play("roll YG")
    state.play("swap 2,0 3,0")
    assert state.is_over and state.result.reason == "all 15 rolls are played"
    assert state.result.scores == (sum(state.captured[0]),) and state.result.winners == (0,)


def test_a_solo_game_is_at_most_fifteen_rolls_without_second_rolls():
    import random

    import ludoteca.core as core

    for seed in range(6):
        state = core.get("hexagone").new_state(seed=seed)
        rng = random.Random(seed)
        texts = []
        while not state.is_over:
            if state.to_move == CHANCE:
                moves, weights = zip(*state.chance_outcomes(), strict=True)
                move = rng.choices(moves, weights)[0]
            else:
                move = rng.choice(state.legal_moves())
            texts.append(state.move_to_str(move))
            state.play(move)
        rolls = sum(t.startswith("roll") for t in texts)
        assert rolls <= 15 and not {"again", "stop"} & set(texts)
        if state.result.reason == "all 15 rolls are played":
            assert rolls == 15
        assert state.result.scores == (sum(state.captured[0]),)


def test_move_to_str_gives_text_back_canonical():
    state = swap_state("RG")
    assert state.move_to_str("swap 1,0  0,0") == "swap 0,0 1,0"
    assert state.move_to_str("ROLL gr") == "roll RG"
    with pytest.raises(MalformedError):
        state.move_to_str("swap")


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "swap", "swap 0,0", "swap a,b 1,0", "swap 0,0 0,0", "place X 0,0", "jump", "main"]
)
def test_malformed_moves_are_refused_without_change(text):
    refused(swap_state("RG"), text, MalformedError)


def test_move_values_that_are_not_hexagone_moves_are_malformed():
    state = swap_state("RG")
    for bad in [(), ("swap",), (1, "a", "b"), (99,), None, 3]:
        with pytest.raises(GameError):
            state.play(bad)


def test_undo_restores_every_field():
    state, swap = split_line("ROYBP", "RWOYBPWR")
    before = state.position()
    state.play(swap)
    state.play(state.legal_moves()[0])
    state.undo()
    state.undo()
    assert state.position() == before
    with pytest.raises(IllegalMoveError):
        state.undo()


def test_last_move_summary_tells_each_kind_of_move():
    state = load(position(line("RROROOYGBPWGYBPWYG")))
    assert state.last_move_summary() is None
    state.play("roll RO")
    assert state.last_move_summary() == "player 1 rolled red and orange"
    state.play("swap 3,0 4,0")
    assert state.last_move_summary() == "player 1 swapped 3,0 and 4,0, no capture"
    state.play("again")
    assert state.last_move_summary() == "player 1 takes the second roll"
    state.play("roll RR")
    state.play("swap 2,0 4,0")
    assert (
        state.last_move_summary() == "player 1 swapped 2,0 and 4,0 and captured 3 red and 3 orange"
    )
    reform = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1, to_move=1))
    reform.play("place G 8,-1")
    assert reform.last_move_summary() == "player 2 placed a green piece on 8,-1"
    solo = load(position(TWELVE, phase="second"))
    solo.play("stop")
    assert solo.last_move_summary() == "player 1 stops"


def test_scores_during_play_count_captured_pieces():
    state = load(position(line("RROROOYGBPWGYBPWYG"), players=3, captured=["GGG", "BBB", ""]))
    assert state.scores()[:2] == (3, 3)
    state.play("roll RO")
    state.play("swap 2,0 3,0")
    assert state.scores()[:2] == (9, 3)


def test_player_one_starts_then_turns_go_in_order():
    state = load(position(TWELVE, phase="second", players=3))
    order = []
    for _ in range(4):
        state.play("stop")
        order.append(json.loads(state.position())["to_move"])
        state.play("roll RG")
        state.play("swap 0,0 1,0")  # R and O trade places: no capture
    assert order == [1, 2, 0, 1]
    assert core.get("hexagone", players=3).new_state(seed=1).position().endswith('"to_move":0}')


def test_there_is_no_bonus_roll_to_buy():
    state = swap_state("RG")
    for text in ("buy", "bonus", "buy roll"):
        refused(state, text, MalformedError)
