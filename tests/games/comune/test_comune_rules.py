"""One test (or a few) per clause and per Decision of shared/rules/comune.md."""

from __future__ import annotations

import pytest
from comune_reference import from_cells

from ludoteca.core import TERMINAL, IllegalMoveError, get
from ludoteca.games.comune.geometry import CELL_NAMES, NAME_INDEX, NEIGH, NUM_CELLS, cells_of

GAME = get("comune")
START = "5/6/7/8/9/8/7/6/5 L 0"


def state_of(pieces: dict[str, str], side: str = "L", passes: int = 0):
    """An engine state from cell -> letter, through the independent reference's text."""
    return GAME.from_position(from_cells(pieces, side, passes).position())


def play_all(state, *turns):
    for t in turns:
        state.play(t)
    return state


# --- board and pieces ------------------------------------------------------------------
def test_board_has_61_cells_named_by_the_binding_coordinates():
    assert NUM_CELLS == 61
    assert len(set(CELL_NAMES)) == 61
    assert {"a1", "e1", "e9", "i9", "a5", "i5", "e5"} <= set(CELL_NAMES)
    assert not {"a6", "f1", "i4", "d9", "j5", "a0"} & set(CELL_NAMES)


def test_neighbours_follow_the_six_offsets():
    def names(cell):
        return {CELL_NAMES[i] for i in cells_of(NEIGH[NAME_INDEX[cell]])}

    assert names("e5") == {"f5", "d5", "e6", "e4", "f6", "d4"}
    assert names("a1") == {"b1", "a2", "b2"}
    assert names("i9") == {"h9", "i8", "h8"}
    assert names("a5") == {"b5", "a4", "b6"}


def test_cells_of_lists_the_bits_of_a_bitboard():
    import random

    rng = random.Random(4)
    for mask in [0, 1, 1 << 60, (1 << 61) - 1, *(rng.getrandbits(61) for _ in range(200))]:
        assert cells_of(mask) == tuple(i for i in range(61) if mask >> i & 1)


def test_each_player_has_35_pieces_in_supply():
    s = GAME.new_state()
    assert (s.supply(0), s.supply(1)) == (35, 35)
    play_all(s, "e5-", "a1/ a2-")
    assert (s.supply(0), s.supply(1)) == (34, 33)


def test_side_names():
    s = GAME.new_state()
    assert (s.side_name(0), s.side_name(1)) == ("light", "dark")


# --- groups ------------------------------------------------------------------------------
def test_group_is_same_colour_and_same_angle_on_neighbouring_cells():
    s = state_of(
        # Light: a chain of three '-' (a1 b1 c1), a '/' touching it (d1), a lone '-' (e2)
        # Dark: '-' next to Light's lone '-' does not join Light's group
        {"a1": "H", "b1": "H", "c1": "H", "d1": "R", "e3": "H", "f3": "h"},
        side="L",
    )
    assert s.groups(0) == (3, 1, 0)
    assert s.groups(1) == (1, 0, 0)


def test_groups_connect_through_every_neighbour_direction():
    # a zig-zag through (1,1) and (0,1) steps: b2 c3 c4 d5 -> one group of 4
    s = state_of({"b2": "F", "c3": "F", "c4": "F", "d5": "F", "a5": "h"})
    assert s.groups(0) == (0, 0, 4)


# --- placement rule ----------------------------------------------------------------------
def test_may_not_place_next_to_opponent_piece_at_another_angle():
    s = play_all(GAME.new_state(), "e5-")
    with pytest.raises(IllegalMoveError) as err:
        s.play("d4/")
    assert "e5-" in str(err.value) and "different angle" in str(err.value)
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"


def test_may_place_next_to_opponent_piece_at_the_same_angle():
    s = play_all(GAME.new_state(), "e5-", "d4- a1/", "pass", "f6-")
    assert s.position() == "5/6/7/4h3/4H4/3h4/7/6/r4 L 0"


def test_own_pieces_never_restrict():
    s = play_all(GAME.new_state(), "e5-", "a1-")
    s.play("d4/ e4\\")  # both next to Light's own e5-
    assert s.groups(0) == (1, 1, 1)


def test_may_not_place_on_an_occupied_cell():
    s = play_all(GAME.new_state(), "e5-")
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.play("e5-")


def test_fig3_cell_closed_to_both_players():
    # Light f5- and d5\, Dark f6- and e6\: e5 touches both colours at two angles each
    s = play_all(GAME.new_state(), "f5-", "f6- e6\\", "d5\\")
    e5 = NAME_INDEX["e5"]
    assert s.closed_to_both() >> e5 & 1
    for player in (0, 1):
        for angle in range(3):
            assert not s.placement_mask(player, angle) >> e5 & 1
    assert not any(m.startswith("e5") or " e5" in m for m in map(s.move_to_str, s.legal_moves()))
    for text in ("e5-", "e5/", "e5\\"):
        with pytest.raises(IllegalMoveError):
            s.play(text)
    s.play("pass")
    for text in ("e5-", "e5/", "e5\\"):
        with pytest.raises(IllegalMoveError):
            s.play(text)


def test_cell_closed_to_one_player_only():
    # Dark's e6- and d4/ close e5 to Light, while Dark may still place there
    s = state_of({"e6": "h", "d4": "r", "a1": "H"}, side="L")
    e5 = NAME_INDEX["e5"]
    assert all(not s.placement_mask(0, a) >> e5 & 1 for a in range(3))
    assert all(s.placement_mask(1, a) >> e5 & 1 for a in range(3))
    assert not s.closed_to_both() >> e5 & 1


# --- turns -------------------------------------------------------------------------------
def test_light_moves_first():
    assert GAME.new_state().to_move == 0


def test_opening_is_one_piece_or_pass():
    s = GAME.new_state()
    texts = [s.move_to_str(m) for m in s.legal_moves()]
    assert texts[0] == "pass" and len(texts) == 1 + 183
    assert all(" " not in t for t in texts)
    with pytest.raises(IllegalMoveError, match="first turn"):
        s.play("e5- a1/")
    assert s.position() == START


def test_later_turns_place_one_or_two_pieces():
    s = play_all(GAME.new_state(), "e5-")
    texts = {s.move_to_str(m) for m in s.legal_moves()}
    assert {"pass", "a1-", "a1- b1/", "a1/ b1\\", "a1- a2\\"} <= texts
    s.play("a1- i9/")
    assert s.supply(1) == 33


def test_after_light_passes_the_opening_dark_may_place_two():
    s = play_all(GAME.new_state(), "pass")
    assert s.to_move == 1 and not s.is_opening
    s.play("e5- e6/")
    assert s.supply(1) == 33


def test_fig4_second_piece_at_the_same_angle_is_forbidden():
    s = play_all(GAME.new_state(), "e5-")
    before = s.position()
    with pytest.raises(IllegalMoveError, match="different angles"):
        s.play("a1/ i9/")
    assert s.position() == before
    texts = {s.move_to_str(m) for m in s.legal_moves()}
    assert "a1/ i9/" not in texts and "a1- i9/" in texts


def test_two_pieces_must_stand_on_different_cells():
    s = play_all(GAME.new_state(), "e5-")
    with pytest.raises(IllegalMoveError, match="different cells"):
        s.play("a1- a1/")


def test_each_placement_is_checked_against_the_position_before_the_turn():
    s = play_all(GAME.new_state(), "e5-")
    with pytest.raises(IllegalMoveError):
        s.play("a1- d4/")  # the second one is next to Light's e5-
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"


def test_a_turn_is_the_unordered_set_of_its_placements():
    a = play_all(GAME.new_state(), "e5-", "a1/ b1-")
    b = play_all(GAME.new_state(), "e5-", "b1- a1/")
    assert a.position() == b.position()
    moves = play_all(GAME.new_state(), "e5-").legal_moves()
    assert len(moves) == len(set(moves))


def test_empty_supply_forces_passes():
    # Light has all 35 pieces on the board
    rows = {}
    for cell in CELL_NAMES:
        if int(cell[1:]) <= 5:
            rows[cell] = "H"
    rows.update({"e9": "h", "f9": "h"})
    s = state_of(rows, side="L")
    assert s.supply(0) == 0
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError, match="supply"):
        s.play("b6-")
    s.play("pass")
    assert not s.is_over and s.to_move == 1
    s.play("g9-")
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["pass"]


def test_one_piece_left_allows_only_one():
    pieces = {cell: "H" for cell in CELL_NAMES if int(cell[1:]) <= 5}
    del pieces["e5"]  # 34 on the board, one in supply
    pieces["i9"] = "h"
    s = state_of(pieces, side="L")
    assert s.supply(0) == 1
    texts = [s.move_to_str(m) for m in s.legal_moves()]
    assert "e5-" in texts and all(" " not in t for t in texts)
    with pytest.raises(IllegalMoveError, match="only 1 piece"):
        s.play("e5- b6/")


def test_no_legal_placement_forces_a_pass():
    # Light has pieces in supply, but every empty cell (row 6) touches Dark's '-' and '/'
    pieces = {}
    for cell in CELL_NAMES:
        row, column = int(cell[1:]), "abcdefghi".index(cell[0])
        if row == 1 or row >= 7:
            pieces[cell] = "H"
        elif row <= 4:
            pieces[cell] = "h"
        elif row == 5:
            pieces[cell] = "hr"[column % 2]
    s = state_of(pieces, side="L")
    assert s.supply(0) == 12 and s.supply(1) == 5
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError, match="different angle"):
        s.play("b6-")
    s.play("pass")
    assert not s.is_over and len(s.legal_moves()) > 1  # Dark may place '-' on row 6
    ended = s.clone()
    ended.play("pass")  # the forced pass counted: two passes in succession
    assert ended.is_over and "passed in succession" in ended.result.reason
    s.play("b6-")
    assert [s.move_to_str(m) for m in s.legal_moves()] == ["pass"]


def test_decision_passing_is_always_allowed():
    s = GAME.new_state()
    assert "pass" in {s.move_to_str(m) for m in s.legal_moves()}  # Light's first turn
    s.play("e5-")
    assert "pass" in {s.move_to_str(m) for m in s.legal_moves()}
    s.play("pass")
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 L 1"


# --- end of the game ---------------------------------------------------------------------
def test_end_by_two_passes_in_succession():
    s = play_all(GAME.new_state(), "e5-", "pass")
    assert not s.is_over
    s.play("pass")
    assert s.is_over and s.to_move == TERMINAL and s.legal_moves() == []
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 2"
    assert "passed in succession" in s.result.reason
    with pytest.raises(IllegalMoveError, match="over"):
        s.play("a1-")


def test_passes_separated_by_a_placement_do_not_end():
    s = play_all(GAME.new_state(), "e5-", "pass", "a1-", "pass")
    assert not s.is_over


def test_both_pass_from_the_start_is_a_draw():
    s = play_all(GAME.new_state(), "pass", "pass")
    assert s.is_over and s.result.draw and s.result.scores == (0.0, 0.0)


def _neither_can_place_after_one_turn():
    """Light: all 35 on rows 1-5, row 5 alternating - and /; row 6 empty; Dark rows 7-9
    but for i7. Dark to move can only place on i7; after that nobody can place."""
    pieces = {}
    for cell in CELL_NAMES:
        row = int(cell[1:])
        if row <= 4:
            pieces[cell] = "H"
        elif row == 5:
            pieces[cell] = "HR"["abcdefghi".index(cell[0]) % 2]
        elif row >= 7 and cell != "i7":
            pieces[cell] = "h"
    return state_of(pieces, side="D")


def test_end_when_neither_player_can_place():
    s = _neither_can_place_after_one_turn()
    assert s.supply(0) == 0
    texts = sorted(s.move_to_str(m) for m in s.legal_moves())
    assert texts == ["i7-", "i7/", "i7\\", "pass"]
    s.play("i7/")
    assert s.is_over and s.position().endswith(" L 0")
    assert "neither player can place" in s.result.reason


def test_position_where_nobody_can_place_is_over():
    s = _neither_can_place_after_one_turn()
    s.play("i7-")
    again = GAME.from_position(s.position())
    assert again.is_over and again.to_move == TERMINAL


# --- scoring ----------------------------------------------------------------------------
FIG5 = "fffff/rrrrrr/3f3/hhhhhhh1/9/HHHHHHHH/3F3/RRRRRR/FFFFF L 2"


def test_fig5_240_beats_210_and_smaller_groups_do_not_count():
    s = GAME.from_position(FIG5)
    assert s.groups(0) == (8, 6, 5) and s.groups(1) == (7, 6, 5)
    assert s.scores() == (240.0, 210.0)
    result = s.result
    assert result.winners == (0,) and result.scores == (240.0, 210.0)
    assert "240 to 210" in result.reason


def test_missing_angle_scores_zero():
    s = state_of(
        {"a1": "H", "b1": "H", "c1": "H", "a2": "R", "i9": "h", "h9": "r", "g9": "f"}, passes=2
    )
    assert s.scores() == (0.0, 1.0)
    assert s.result.winners == (1,)


def test_scores_are_kept_during_play():
    s = play_all(GAME.new_state(), "e5-", "a1- b1/", "e6/ e4\\")
    assert s.scores() == (1.0, 0.0)


TIE_DARK = "rr3/hhhhhh/f6/8/9/8/7/RRR2F/HHHH1 L 2"  # Light 4x3x1 = 12, Dark 6x2x1 = 12


def test_tie_break_largest_group_wins():
    s = GAME.from_position(TIE_DARK)
    assert s.scores() == (12.0, 12.0)
    assert s.result.winners == (1,)
    assert "largest group" in s.result.reason


def test_tie_break_largest_group_wins_for_light_too():
    # the same board turned by 180 degrees ((c, r) -> (8 - c, 8 - r)) with colours swapped
    rows = TIE_DARK.split()[0].split("/")
    turned = "/".join(row[::-1] for row in reversed(rows)).swapcase()
    s = GAME.from_position(f"{turned} L 2")
    assert s.groups(0) == (6, 2, 1) and s.groups(1) == (4, 3, 1)
    assert s.scores() == (12.0, 12.0) and s.result.winners == (0,)


def test_tie_on_score_and_largest_group_is_a_draw():
    s = GAME.from_position("hh1rf/6/7/8/9/8/7/6/HH1RF L 2")
    assert s.scores() == (2.0, 2.0)
    assert s.result.draw and s.result.winners == ()
    assert s.result.payoffs() == (0.5, 0.5)


# --- stepping one placement at a time -----------------------------------------------------
def test_single_placement_steps_reach_each_turn_once():
    s = play_all(GAME.new_state(), "e5-", "a1- b1/")
    turns = set()
    for cell, angle in s.legal_placements():
        step = s.clone()
        step.place(cell, angle)
        assert step.mid_turn
        done = step.clone()
        done.end_turn()
        turns.add(done.position())
        for cell2, angle2 in step.legal_placements():
            two = step.clone()
            two.place(cell2, angle2)
            assert not two.mid_turn and two.to_move == 1
            turns.add(two.position())
    whole = set()
    for m in s.legal_moves():
        c = s.clone()
        c.play(m)
        if s.move_to_str(m) != "pass":
            whole.add(c.position())
    assert turns == whole
    n_steps = len(s.legal_placements()) + sum(
        len(_after(s, p).legal_placements()) for p in s.legal_placements()
    )
    assert n_steps == len(s.legal_moves()) - 1


def _after(state, placement):
    c = state.clone()
    c.place(*placement)
    return c


def test_step_api_ends_the_opening_after_one_piece_and_undoes():
    s = GAME.new_state()
    s.place(NAME_INDEX["e5"], 0)
    assert not s.mid_turn and s.to_move == 1
    s.place(NAME_INDEX["a1"], 1)
    with pytest.raises(IllegalMoveError, match="different angles"):
        s.place(NAME_INDEX["a2"], 1)
    s.place(NAME_INDEX["a2"], 2)
    assert s.position() == "5/6/7/8/4H4/8/7/f5/r4 L 0"
    s.undo()
    assert s.mid_turn
    s.end_turn()
    assert s.position() == "5/6/7/8/4H4/8/7/6/r4 L 0"
    s.undo()
    s.undo()
    s.undo()
    assert s.position() == START


def test_mid_turn_moves_complete_the_turn():
    s = play_all(GAME.new_state(), "e5-")
    s.place(NAME_INDEX["a1"], 0)
    texts = [s.move_to_str(m) for m in s.legal_moves()]
    assert texts[0] == "pass" and "b1/" in texts and "b1-" not in texts
    with pytest.raises(IllegalMoveError, match="different angles"):
        s.play("b1-")
    s.play("b1/")
    assert not s.mid_turn and s.position() == "5/6/7/8/4H4/8/7/6/hr3 L 0"
    assert s.last_move_summary().startswith("dark placed a1- b1/")


def test_undo_on_a_clone_leaves_the_original_alone():
    s = play_all(GAME.new_state(), "e5-", "a1- b1/")
    c = s.clone()
    c.undo()
    s.undo()
    c.play("i9- i8/")
    assert s.position() == "5/6/7/8/4H4/8/7/6/5 D 0"
    assert c.position() == "4h/5r/7/8/4H4/8/7/6/5 L 0"
