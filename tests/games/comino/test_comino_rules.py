"""One test per rule clause and per **Decision** of rules/comino.md."""

from __future__ import annotations

import random

import pytest
from comino_reference import legal as reference_legal
from comino_reference import parse_board

from ludoteca.core import CHANCE, TERMINAL, IllegalMoveError, get
from ludoteca.core.table import resolve_chance
from ludoteca.games.comino import Deal, Place, Remove

GAME = get("comino")

# The seed's example, built so that the square 0,1 touches a yellow area of exactly three
# tiles (1,1 1,2 0,2 through the point 1,2) and a blue area of exactly six (the row 0..3,0,
# 1,1 above it and 1,-1 below it through the point 2,0). YYBB@0,1 has no red.
SEED_EXAMPLE = (
    "BBRR@0,0;BRYY@0,2;RBRR@1,-1;BBBR@1,0;YRBB@1,1;RRRY@1,2;BBYB@2,0;BBRY@3,0 BBYY RRRR 12 9 1"
)

# Two yellow areas of two tiles each, {0,0 1,0} through the point 1,1 and {-1,0 -1,1}
# through the point -1,1. YBYB@0,1 has yellow at its two diagonal corners, touching the
# first area at 1,1 and the second at 0,2.
DIAGONAL = "YBRR@-1,0;YYBY@-1,1;BYRR@0,0;YRRR@1,0 BYBY BYRY 4 3 1"

# Nothing in hand 1 fits next to BBBY: on player 1's fifth turn (7 tiles in hand).
STUCK = "BBBY@0,0 BRBR,BRRR,BRYR,RRRY,RRYY,RYRY,YYYY BBBR,BBRR,BBRY,BBYR,BBYY,BRBY,RRRR 0 0 1"


def state(text: str):
    return GAME.from_position(text)


# --- deal ------------------------------------------------------------------------------
def test_players_start_with_yyyy_and_rrrr_and_the_deal_is_chance():
    s = GAME.new_state(seed=3)
    assert s.hands == [{"YYYY"}, {"RRRR"}]
    assert s.to_move == CHANCE
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 21
    assert all(p == pytest.approx(1 / 21) for _, p in outcomes)
    assert Deal("YYYY") not in [m for m, _ in outcomes]


def test_the_first_draw_is_the_start_tile_at_the_origin_in_its_name_orientation():
    s = GAME.new_state()
    s.play("deal BRYY")
    assert s.board == {(0, 0): "BRYY"}
    assert s.hands == [{"YYYY"}, {"RRRR"}]


def test_then_ten_tiles_to_player_1_then_ten_to_player_2():
    s = GAME.new_state()
    order = [m for m, _ in s.chance_outcomes()]
    random.Random(4).shuffle(order)
    for i, move in enumerate(order):
        assert s.to_move == CHANCE
        remaining = {m for m, _ in s.chance_outcomes()}
        assert len(remaining) == 21 - i
        s.play(move)
        if 1 <= i <= 10:
            assert move.name in s.hands[0]
        elif i > 10:
            assert move.name in s.hands[1]
    assert len(s.hands[0]) == len(s.hands[1]) == 11
    assert s.to_move == 0


def test_a_tile_cannot_be_drawn_twice_nor_the_fixed_tiles():
    s = GAME.new_state()
    s.play("deal BRYY")
    for bad in ("deal BRYY", "deal YYYY", "deal RRRR"):
        with pytest.raises(IllegalMoveError):
            s.play(bad)
    assert s.position() == "BRYY@0,0 YYYY RRRR 0 0 deal"


def test_nobody_moves_during_the_deal_and_no_draw_after_it():
    s = GAME.new_state()
    with pytest.raises(IllegalMoveError, match="deal"):
        s.play("YYYY@0,1")
    done = state(SEED_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="deal is over"):
        done.play("deal BYBY")


def test_a_seeded_table_deals_reproducibly_and_records_hold_the_draws():
    texts = []
    for _ in range(2):
        s = GAME.new_state(seed=11)
        drawn: list[str] = []
        resolve_chance(s, random.Random(11), on_move=drawn.append)
        texts.append((s.position(), drawn))
    assert texts[0] == texts[1]
    assert len(texts[0][1]) == 21 and all(t.startswith("deal ") for t in texts[0][1])
    replayed = GAME.new_state()
    for t in texts[0][1]:
        replayed.play(t)
    assert replayed.position() == texts[0][0]


def test_both_hands_are_open():
    """Decision: both racks are visible, so the position and the board show them."""
    s = state(SEED_EXAMPLE)
    text = GAME.render_text(s)
    assert "BBYY" in text and "RRRR" in text


# --- placement -------------------------------------------------------------------------
def test_sides_must_match_in_both_corner_colours():
    # below BBBY@0,0 the top-left corner must be Y (point 0,0) and the top-right B (1,0)
    text = "BBBY@0,0 RYRY,YYYY BRRY,BYRR,RRRR 0 0 2"
    s = state(text)
    with pytest.raises(IllegalMoveError, match="grid point 0,0"):
        s.play("BRRY@0,-1")  # top-left B against Y
    with pytest.raises(IllegalMoveError, match="grid point 1,0"):
        s.play("YRRB@0,-1")  # top-left Y matches, top-right R against B
    assert s.position() == text
    s.play("YBRR@0,-1")
    assert s.board[(0, -1)] == "YBRR"


# 0,1 is an empty hole: square 1,1 shares its bottom side with 1,0 and touches 0,2 only at
# the point 1,2 (0,2's bottom-right corner, yellow).
HOLE = "BBYB@-1,0;RYBB@-1,1;RBYR@-1,2;BYBY@0,0;BBYY@0,2;YYRB@1,0 BYYY RRRR 8 6 1"


def test_a_tile_touching_only_diagonally_must_match_at_that_point():
    s = state(HOLE)
    assert (1, 1) in s.frontier
    # BYYY matches the side with 1,0 but puts blue on the yellow point 1,2
    with pytest.raises(IllegalMoveError, match="grid point 1,2"):
        s.play("BYYY@1,1")
    assert s.position() == HOLE
    s.play("YBYY@1,1")
    assert s.board[(1, 1)] == "YBYY"


def test_diagonal_contact_is_reflected_in_the_legal_moves():
    s = state(HOLE)
    legal = {str(m) for m in s.legal_moves()}
    assert "YBYY@1,1" in legal and "BYYY@1,1" not in legal
    assert legal == set(reference_legal(s.board, s.hands[0]))


def test_a_square_touching_only_at_a_corner_is_not_allowed():
    s = state("BBBY@0,0 YYYY RRRR,BYYY 0 0 2")
    # 1,1 touches 0,0 only at the point 1,1 (blue): YYYB puts B there, yet shares no side
    with pytest.raises(IllegalMoveError, match="shares no side"):
        s.play("YYYB@1,1")
    assert (1, 1) not in {(m.x, m.y) for m in s.legal_moves() if isinstance(m, Place)}


def test_a_covered_square_and_a_tile_not_in_hand_are_refused():
    s = state(SEED_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="already covered"):
        s.play("YYBB@0,0")
    with pytest.raises(IllegalMoveError, match="not in first"):
        s.play("RRRR@0,1")
    assert s.position() == SEED_EXAMPLE


def test_every_rotation_is_offered_and_symmetric_tiles_once():
    # above BRBY@0,0 the bottom corners must be B (0,1) and R (1,1): of BRBR's two distinct
    # orientations only RBRB fits there, and it is listed once (not once per rotation)
    s = state("BRBY@0,0 YYYY RRRR,BRBR 0 0 2")
    moves = [str(m) for m in s.legal_moves()]
    assert len(moves) == len(set(moves))
    assert [m for m in moves if m.endswith("@0,1")] == ["RBRB@0,1"]
    assert sorted(moves) == reference_legal(s.board, s.hands[1])


def test_placement_legality_matches_the_reference_on_random_positions():
    rng = random.Random(7)
    for seed in range(15):
        s = GAME.new_state(seed=seed)
        while not s.is_over:
            if s.to_move == CHANCE:
                s.play(rng.choice(s.legal_moves()))
                continue
            mine = sorted(str(m) for m in s.legal_moves())
            assert mine == reference_legal(s.board, s.hands[s.to_move]), s.position()
            s.play(rng.choice(s.legal_moves()))


# --- scoring ---------------------------------------------------------------------------
def test_the_seeds_example_scores_3_plus_6():
    s = state(SEED_EXAMPLE)
    s.play("YYBB@0,1")
    assert s.score == [12 + 9, 9]  # the seed's example scores 9 more
    summary = s.last_move_summary()
    assert "scored 9" in summary
    assert "yellow area of 3" in summary and "blue area of 6" in summary


def test_joining_two_areas_scores_their_merged_size_through_diagonal_corners():
    """Decision: a tile's corners all belong to it, so YBYB joins both yellow areas."""
    s = state(DIAGONAL)
    s.play("YBYB@0,1")
    # yellow: 2 + 2 joined; blue: 0,0 -1,0 -1,1 share the point 0,1 with it
    assert "yellow area of 4" in s.last_move_summary()
    assert "blue area of 3" in s.last_move_summary()
    assert s.score == [4 + 7, 3]
    # the joined yellow area now counts as one: 5 tiles including YBYB
    s.play("BYRY@1,1")
    assert "yellow area of 5" in s.last_move_summary()
    assert "blue area of 4" in s.last_move_summary()
    assert "red area of 3" in s.last_move_summary()
    assert s.score == [4 + 7, 3 + 12]


def test_an_area_touched_at_two_points_counts_once():
    s = state(SEED_EXAMPLE)
    # the yellow area touches YYBB@0,1 at 0,2 and 1,2; the blue one at 0,1 and 1,1
    s.play("YYBB@0,1")
    assert s.score[0] == 12 + 9  # not 3+3+6+6


def test_a_tile_touching_no_area_of_its_colours_scores_nothing_for_them():
    s = state("BBBY@0,0 YYYY RRRR,BBRR 0 0 2")
    s.play("RRBB@0,1")  # blue bottom side on 0,0's blue top: blue area of 1
    assert s.score == [0, 1]
    assert "red" not in s.last_move_summary().split("(")[1]


# --- removal ---------------------------------------------------------------------------
def test_when_nothing_fits_the_only_moves_are_removals():
    s = state(STUCK)
    assert reference_legal(s.board, s.hands[0])[0].startswith("remove")
    assert sorted(str(m) for m in s.legal_moves()) == sorted(f"remove {t}" for t in s.hands[0])


def test_removal_applies_before_the_sixth_turn_and_scores_zero():
    """Decision: removal applies on any turn (here player 1's fifth)."""
    s = state(STUCK)
    assert 11 - len(s.hands[0]) + 1 == 5
    s.play("remove RRYY")
    assert s.score == [0, 0]
    assert "RRYY" not in s.hands[0]
    assert "removed RRYY" in s.last_move_summary()
    assert s.to_move == 1
    assert "RRYY" not in s.position()


def test_removal_is_illegal_while_any_tile_fits():
    s = state(SEED_EXAMPLE.replace("BBYY RRRR", "BBYY,RYRY BYBY,RRRR"))
    with pytest.raises(IllegalMoveError, match="fits"):
        s.play("remove RYRY")  # whether or not RYRY fits: BBYY does
    with pytest.raises(IllegalMoveError):
        s.play("remove BBYY")
    assert Remove("RYRY") not in s.legal_moves()


def test_removing_a_tile_not_in_hand_is_refused():
    s = state(STUCK)
    with pytest.raises(IllegalMoveError, match="not in first"):
        s.play("remove BBRR")


# --- turns and end ---------------------------------------------------------------------
def test_players_alternate_and_the_game_ends_after_22_turns():
    rng = random.Random(5)
    s = GAME.new_state(seed=5)
    resolve_chance(s, rng)
    movers = []
    while not s.is_over:
        movers.append(s.to_move)
        s.play(rng.choice(s.legal_moves()))
    assert movers == [0, 1] * 11
    assert s.to_move == TERMINAL
    assert s.hands == [set(), set()]
    assert s.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        s.play("remove BRYY")


def test_higher_total_wins_and_equal_totals_draw():
    s = state(DIAGONAL)
    s.play("YBYB@0,1")
    s.play("BYRY@1,1")
    assert s.result.winners == (1,)
    draw = state(DIAGONAL.replace(" 4 3 1", " 12 7 1"))
    draw.play("YBYB@0,1")
    draw.play("BYRY@1,1")
    assert draw.score == [19, 19]
    assert draw.result.draw and draw.result.winners == ()
    assert draw.result.payoffs() == (0.5, 0.5)


def test_scores_are_available_during_play():
    s = state(SEED_EXAMPLE)
    assert s.scores() == (12.0, 9.0)
    s.play("YYBB@0,1")
    assert s.scores() == (21.0, 9.0)
    assert s.result is None


def test_side_names():
    s = GAME.new_state()
    assert (s.side_name(0), s.side_name(1)) == ("first", "second")


def test_refused_moves_leave_the_state_untouched():
    s = state(SEED_EXAMPLE)
    before = s.position()
    for bad in ("YYBB@5,5", "YYBB@0,0", "BBYY@0,1", "remove BBYY", "deal BYBY", "junk", 42):
        with pytest.raises(Exception) as info:
            s.play(bad)
        assert isinstance(info.value, IllegalMoveError | ValueError)
        assert s.position() == before


def test_undo_restores_points_frontier_and_scores():
    s = state(SEED_EXAMPLE)
    points, frontier = dict(s.points), set(s.frontier)
    s.play("YYBB@0,1")
    s.undo()
    assert s.points == points and s.frontier == frontier
    assert s.position() == SEED_EXAMPLE
    assert parse_board(SEED_EXAMPLE.split()[0]) == s.board


def test_placements_kept_between_moves_are_those_worked_out_afresh():
    """A state keeps what fits each frontier square from one position to the next, and
    forgets it around each tile put or taken back: through random games with undos and
    clones, its placements are those of the same position read afresh from its text."""
    rng = random.Random(12)
    checked = 0
    for _ in range(6):
        state = GAME.new_state(seed=rng.randrange(1000))
        while not state.is_over:
            if state.to_move == CHANCE:
                state.play(rng.choice(state.legal_moves()))
                continue
            fresh = GAME.from_position(state.position())
            assert list(map(str, state.legal_moves())) == list(map(str, fresh.legal_moves()))
            checked += 1
            state.play(rng.choice(state.legal_moves()))
            if rng.random() < 0.3:  # list, take it back, list the earlier position, go on
                state.legal_moves()
                state.undo()
                assert list(map(str, state.legal_moves())) == list(map(str, fresh.legal_moves()))
                state = state.clone()
                state.play(rng.choice(state.legal_moves()))
    assert checked > 100
