"""One test (at least) per clause and per **Decision** of rules/kuniumi.md.

Positions are written in the binding notation; each test states in words what the rule
implies for it, and the expectations are worked out by hand from the rules text.
"""

from __future__ import annotations

import random

import pytest

from ludoteca.core import TERMINAL, IllegalMoveError, IllegalPositionError, get
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi import state as engine

GAME = get("kuniumi")
START = "6/6/6/6/6/6 setup"


def at(text: str):
    return GAME.from_position(text)


def moves(state) -> set[str]:
    return {state.move_to_str(m) for m in state.legal_moves()}


def play_all(state, *texts):
    for t in texts:
        state.play(t)
    return state


def squares_in(files: str = "", ranks: str = "") -> set[str]:
    """Every square in the given files or ranks (computed from coordinates, not bitboards)."""
    return {f + r for f in "abcdef" for r in "123456" if f in files or r in ranks}


def occupied(position: str) -> set[str]:
    out = set()
    for i, row in enumerate(position.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out.add("abcdef"[f] + str(6 - i))
                f += 1
    return out


def god_targets(position: str, god: str, files: str, ranks: str) -> set[str]:
    return {f"{god}-{sq}" for sq in squares_in(files, ranks) - occupied(position)}


def expect_refused(state, text: str, *words: str) -> IllegalMoveError:
    before = state.position()
    with pytest.raises(IllegalMoveError) as info:
        state.play(text)
    assert state.position() == before
    message = str(info.value)
    assert text in message
    for word in words:
        assert word in message
    return info.value


# --- Board and pieces ----------------------------------------------------------------------------
def test_board_is_6x6_files_a_to_f_left_to_right_ranks_1_to_6_bottom_to_top():
    assert play_all(at(START), "E@a1").position() == "6/6/6/6/6/E5 setup"
    assert play_all(at(START), "E@f1").position() == "6/6/6/6/6/5E setup"
    assert play_all(at(START), "E@a6").position() == "E5/6/6/6/6/6 setup"
    assert play_all(at(START), "E@f6").position() == "5E/6/6/6/6/6 setup"
    assert len(at(START).legal_moves()) == 36


def test_seventeen_tokens_a_side_fill_the_board_with_the_two_gods():
    # 6 set-up pieces + 1 choice + one move per remaining token (34 - 4 = 30): 37 at most
    assert GAME.max_game_length == 6 + 1 + 30
    with pytest.raises(IllegalPositionError, match="17 Land tokens"):
        at("llllll/llllll/llllll/ss4/6/E4S play land land")


def test_adjacency_is_orthogonal_only():
    # the Earth God on c3 touches its token on d4 only diagonally: it is a group on its own
    position = "s5/6/3l2/2E3/6/S3sl play land land"
    assert moves(at(position)) == god_targets(position, "c3", "c", "3")


# --- Groups -------------------------------------------------------------------------------------
def test_god_belongs_to_the_group_of_tokens_it_touches_and_moves_along_all_of_it():
    # E c3 touches l c4, which touches l d4: the group spans files c, d and ranks 3, 4
    position = "s5/6/2ll2/2E3/6/S3s1 play land land"
    assert moves(at(position)) == god_targets(position, "c3", "cd", "34")


def test_god_alone_is_its_own_group():
    position = "s5/6/6/2E3/6/S1ll1s play land land"
    assert moves(at(position)) == god_targets(position, "c3", "c", "3")


def test_group_size_counts_the_god():
    # land to move: b1-b2 leaves l on b1; {a1 l, b1 l, b2 E} is closed by sea and the edges
    state = at("3lll/6/5S/1s4/s1s3/lEs3 play land land")
    state.play("b1-b2")
    assert state.is_over
    assert state.result.winners == (0,)
    assert "group of 3" in state.result.reason


# --- Setup --------------------------------------------------------------------------------------
def test_setup_pieces_come_in_the_fixed_order_E_S_l_l_s_s():
    """**Decision**: Earth God, Sea God, Land, Land, Sea, Sea."""
    rng = random.Random(3)
    state = at(START)
    for letter in "ESllss":
        assert state.to_move == 0
        listed = moves(state)
        assert listed and all(m.startswith(letter + "@") for m in listed)
        state.play(rng.choice(sorted(listed)))
    assert state.position().endswith(" choose")


@pytest.mark.parametrize(
    ("before", "wrong"),
    [
        ((), "S@c3"),
        ((), "l@c3"),
        (("E@a1",), "E@b1"),
        (("E@a1",), "s@b1"),
        (("E@a1", "S@b2"), "s@c3"),
    ],
)
def test_setup_out_of_order_is_refused(before, wrong):
    state = play_all(at(START), *before)
    expect_refused(state, wrong, "order is E, S, l, l, s, s")


def test_setup_piece_goes_on_any_empty_square_only():
    state = play_all(at(START), "E@c3")
    assert len(state.legal_moves()) == 35
    expect_refused(state, "S@c3", "occupied")


def test_setup_may_not_close_a_group_of_the_opponent():
    """**Decision**: a placement that would leave a closed group is illegal.

    S@a1 in the corner with E on a2: placing l on b1 would close the Sea God alone."""
    state = play_all(at(START), "E@a2", "S@a1")
    expect_refused(state, "l@b1", "closed group")
    assert "l@b1" not in moves(state)
    assert "l@c1" in moves(state)


def test_setup_may_not_close_the_placers_own_pieces_either():
    """**Decision**: closing the Earth God (enemy sea token on its last free neighbour)."""
    state = play_all(at(START), "E@a1", "S@a2", "l@f6", "l@e6")
    expect_refused(state, "s@b1", "closed group")
    state.play("s@c1")  # fine elsewhere


def test_setup_then_the_second_player_chooses():
    state = play_all(at(START), "E@c3", "S@d4", "l@a1", "l@b1", "s@f6", "s@e6")
    assert state.to_move == 1
    assert moves(state) == {"choose land", "choose sea"}
    assert state.side_name(0) == "first" and state.side_name(1) == "second"
    expect_refused(state, "l@c1", "choose")
    expect_refused(state, "c3-c4", "choose")


def test_choice_is_not_available_during_setup():
    expect_refused(at(START), "choose land", "placing")


@pytest.mark.parametrize(("choice", "first_side"), [("choose land", "sea"), ("choose sea", "land")])
def test_second_player_takes_the_chosen_side_and_the_first_player_the_other(choice, first_side):
    state = at("6/6/2S3/2E3/6/ll2ss choose")
    state.play(choice)
    second_side = "land" if first_side == "sea" else "sea"
    assert state.side_name(0) == first_side
    assert state.side_name(1) == second_side
    # the first player moves first, with the side the choice left them
    assert state.to_move == 0
    assert state.position() == f"6/6/2S3/2E3/6/ll2ss play {first_side} {first_side}"
    god = "c3" if first_side == "land" else "c4"
    assert all(m.startswith(god + "-") for m in moves(state))


# --- Play ---------------------------------------------------------------------------------------
def test_players_alternate():
    state = at("6/6/2S3/2E3/6/ll2ss play land land")
    seen = []
    rng = random.Random(1)
    for _ in range(4):
        seen.append(state.to_move)
        state.play(rng.choice(state.legal_moves()))
    assert seen == [0, 1, 0, 1]


def test_god_moves_to_free_squares_in_its_lines_and_nowhere_else():
    position = "s5/6/3l2/2E3/6/S3sl play land land"
    state = at(position)
    expect_refused(state, "c3-d5", "not in a row or column")
    expect_refused(state, "c3-d4", "occupied")


def test_lines_are_not_blocked_by_pieces_in_between():
    """**Decision**: the Sea God on c4 and the sea token on d3 do not stop the Earth God."""
    state = at("l4l/6/2S3/2Es2/6/s5 play land land")
    assert {"c3-c5", "c3-c6", "c3-e3", "c3-f3"} <= moves(state)
    state.play("c3-c6")
    assert state.position() == "l1E2l/6/2S3/2ls2/6/s5 play sea land"


def test_god_must_move():
    state = at("s5/6/3l2/2E3/6/S3sl play land land")
    expect_refused(state, "c3-c3", "cannot stay")


def test_only_the_god_of_the_side_to_move_moves():
    state = at("s5/6/3l2/2E3/6/S3sl play land land")
    expect_refused(state, "a1-a2", "land God is on c3")
    expect_refused(state, "b2-b3", "land God is on c3")
    expect_refused(state, "E@b2", "move your God")


def test_token_goes_on_the_square_the_god_left():
    state = at("s5/6/3l2/2E3/6/S3sl play land land")
    state.play("c3-c6")
    assert state.position() == "s1E3/6/3l2/2l3/6/S3sl play sea land"
    assert "token" in state.last_move_summary() and "c3" in state.last_move_summary()


# --- End of the game ----------------------------------------------------------------------------
def test_closing_your_own_group_wins():
    state = at("3lll/6/5S/1s4/s1s3/lEs3 play land land")
    state.play("b1-b2")
    assert state.is_over and state.to_move == TERMINAL
    assert state.result.winners == (0,)  # the first player plays land
    assert state.side_name(0) == "land"
    assert state.legal_moves() == []
    expect_refused(state, "b2-b3", "game is over")


def test_enemy_god_and_tokens_and_the_edge_close_a_lone_god_whose_owner_wins():
    # Sea God a1: edge on two sides, land token a2; the Earth God arrives on b1 and closes it.
    # The owner of the closed group (sea) wins although land made the move.
    state = at("l3ss/6/6/6/l5/S1E3 play land land")
    state.play("c1-b1")
    assert state.is_over
    assert state.result.winners == (1,)
    assert state.side_name(1) == "sea"
    assert state.result.reason == "sea closed a group of 1"


def test_a_closed_group_ends_the_game_after_any_move():
    state = at("l3ss/6/6/6/l5/S1E3 play land land")
    state.play("c1-d1")
    assert not state.is_over


def test_simultaneous_closures_larger_group_wins():
    # sea moves b5-b2: land's {a1, b1} (2) and sea's {a2, a3, b2} (3) close at once
    state = at("5s/1S4/l5/sl4/s1l3/lls2E play sea land")
    state.play("b5-b2")
    assert state.is_over
    assert state.result.winners == (1,)
    assert "(3)" in state.result.reason and "(2)" in state.result.reason


def test_simultaneous_closures_larger_group_wins_whoever_moved():
    # a finished position: land {a1, b1} closed (2), sea {a2, b2, c2, c1} closed (4)
    state = at("2Ssss/6/6/lll3/sssl2/llsl1E play land land")
    assert state.is_over
    assert state.result.winners == (1,)


def test_simultaneous_closures_of_equal_size_draw():
    """**Decision**: equal largest closed groups are a draw."""
    state = at("4ss/1S4/6/ll4/s1l3/lls2E play sea land")
    state.play("b5-b2")
    assert state.is_over
    assert state.result.winners == ()
    assert state.result.draw
    assert state.result.payoffs() == (0.5, 0.5)


def test_player_without_a_legal_move_loses(monkeypatch):
    # The Sea God on a1 has file a and rank 1 full. By the rules that also means it is closed,
    # so to see the no-move clause on its own, closures are switched off for this test.
    never = lambda land, sea: bits.NOT_OVER  # noqa: E731
    monkeypatch.setattr(bits, "outcome", never)
    monkeypatch.setattr(engine, "_outcome", never)  # the states' own (maybe compiled) name
    state = at("s5/s5/s1ss1E/s5/l5/Slllll play sea sea")
    assert state.is_over
    assert state.result.winners == (1,)  # sea is the first player's side: player 0 loses
    assert "no legal move" in state.result.reason


def test_a_god_without_a_move_is_always_in_a_closed_group():
    """The rules' remark: no-move cannot happen without a closed group. Checked on random boards."""
    rng = random.Random(11)
    checked = 0
    for _ in range(4000):
        squares = rng.sample(range(36), rng.randrange(20, 37))
        cut = rng.randrange(1, len(squares))
        land = sum(1 << s for s in squares[:cut])
        sea = sum(1 << s for s in squares[cut:])
        god = 1 << squares[0]
        if bits.god_targets(god, land, land | sea) == 0:
            checked += 1
            empty = bits.FULL & ~(land | sea)
            assert bits.closed_pieces(land, empty) & god
    assert checked > 50


def test_a_side_never_runs_out_of_tokens_while_a_square_is_empty():
    """17 tokens a side: the counts match, so no game needs an 18th token."""
    rng = random.Random(17)
    for _ in range(200):
        state = at(START)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        rows = state.position().split()[0]
        assert rows.count("l") <= 17 and rows.count("s") <= 17
        if not any(ch.isdigit() for ch in rows):  # a full board: every token is down
            assert rows.count("l") == rows.count("s") == 17


def test_the_kept_next_set_up_piece_is_the_one_the_pieces_down_call_for():
    """The state keeps the next set-up piece's kind as it settles; played forward, taken
    back, cloned and read from text it is the order's kind for the pieces down."""

    def wanted(state):
        if state.phase != bits.SETUP:
            return None
        return bits.setup_kind(bits.popcount(state.land | state.sea))

    rng = random.Random(23)
    for _ in range(30):
        state = at(START)
        for _ in range(rng.randrange(1, 9)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
            for seen in (state, state.clone(), at(state.position())):
                assert seen.next_setup_kind == wanted(seen)
        while state._history:
            state.undo()
            assert state.next_setup_kind == wanted(state)
