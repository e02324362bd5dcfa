"""Comino's quick paths for the research adapters give what the plain ones give.

The adapters' legal ids come straight from the state's frontier fits
(:func:`ludoteca.games.comino.actions.legal_ids`), not from encoding every legal move; the
observation's table comes from the flat indices the state keeps as tiles are put and taken
back (:attr:`CominoState.ones`); the grid is kept by int squares beside ``board``, and the
hands as bits beside ``hands``. Each is
held here to what the listing of moves, the board and a state read afresh from its position
say, on random games played forward and undone to the start.
"""

from __future__ import annotations

import random

import numpy as np

from ludoteca.core import get
from ludoteca.core.protocol import CHANCE
from ludoteca.env.observation import Observer
from ludoteca.games.comino import Deal
from ludoteca.games.comino.actions import CominoActions, legal_ids, move_id
from ludoteca.games.comino.geometry import (
    COLOUR_CODE,
    CORNER_OFFSETS,
    DEALT_TILES,
    FIT_MASK,
    TILES,
)

STUCK = "BBBY@0,0 BRBR,BRRR,BRYR,RRRY,RRYY,RYRY,YYYY BBBR,BBRR,BBRY,BBYR,BBYY,BRBY,RRRR 0 0 1"
"""A position where no tile of player 1's hand fits (as in the rules tests)."""


def encoded(state) -> list[int]:
    """The ids of every legal move, each encoded on its own (what the adapters did)."""
    return sorted(move_id(m)[0] for m in state.legal_moves())


def reference_observation(state, player: int) -> np.ndarray:
    """The table and hands as the layout describes them, from ``board`` alone."""
    flat = np.zeros(Observer(get("comino")).size, np.float32)
    squares = flat[: 45 * 45].reshape(45, 45)
    points = flat[45 * 45 : 45 * 45 + 3 * 46 * 46].reshape(3, 46, 46)
    for (x, y), tile in state.board.items():
        squares[x + 22, y + 22] = 1
        for (dx, dy), colour in zip(CORNER_OFFSETS, tile, strict=True):
            points[COLOUR_CODE[colour] - 1, x + dx + 22, y + dy + 22] = 1
    hands = flat[45 * 45 + 3 * 46 * 46 : -6]
    for name in state.hands[player]:
        hands[TILES.index(name)] = 1
    for name in state.hands[1 - player]:
        hands[len(TILES) + TILES.index(name)] = 1
    return flat


def internals(state) -> tuple:
    assert state.hand_bits == [sum(1 << TILES.index(n) for n in hand) for hand in state.hands]
    assert state.front == {k: FIT_MASK[state._pattern(k)] for k in state.front}
    return (
        dict(state.cells),
        dict(state.codes),
        dict(state.front),
        sorted(state.ones),
        state.points,
        state.frontier,
    )


def test_legal_ids_the_observation_and_the_grid_follow_play_and_undo():
    game = get("comino")
    observer = Observer(game)
    space = CominoActions()
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        state = game.new_state(seed)
        seen = []
        while not state.is_over:
            if state.to_move == CHANCE:
                drawn = state.hands[0] | state.hands[1] | set(state.board.values())
                left = [n for n in DEALT_TILES if n not in drawn]
                assert state.chance_outcomes() == [(Deal(n), 1 / len(left)) for n in left]
                state.play(rng.choice(state.legal_moves()))
                continue
            ids = legal_ids(state)
            assert ids == encoded(state)
            decision = space.decision(state)
            assert decision.legal(()) == ids and decision.legal((ids[0],)) == []
            assert all(decision.complete((a,)) in state.legal_moves() for a in ids)
            assert decision.complete((ids[-1] + 1,)) is None
            afresh = game.from_position(state.position())
            assert internals(state) == internals(afresh)
            for player in (0, 1):
                ours = observer.encode(state, player)
                assert np.array_equal(ours[:-6], reference_observation(state, player)[:-6])
            seen.append((state.position(), internals(state), ids))
            state.play(rng.choice(state.legal_moves()))
        while seen:  # undone move by move, each position is the one played
            if state.to_move != CHANCE or state.draws:
                state.undo()
            if state.to_move == CHANCE:
                continue
            position, inside, ids = seen.pop()
            assert state.position() == position
            assert internals(state) == inside and legal_ids(state) == ids
        while state.history:  # and the deal, to the empty table
            state.undo()
        assert internals(state) == ({}, {}, {}, [], {}, set())


def test_when_nothing_fits_the_ids_are_the_removals():
    state = get("comino").from_position(STUCK)
    ids = legal_ids(state)
    assert ids == encoded(state) and len(ids) == len(state.hands[0])
    assert [CominoActions().decision(state).complete((a,)) for a in ids] == sorted(
        state.legal_moves()
    )


def test_a_square_far_out_is_refused_not_taken_for_another():
    """Squares are kept as ints that hold 64 to a row: a move naming a square far beyond the
    table is refused, never taken for the square its int would wrap onto."""
    from ludoteca.core.errors import IllegalMoveError

    state = get("comino").from_position("BRYY@0,0 YYYY RRRR 0 0 1")
    before = state.position()
    assert "YYYY@0,-1" in {str(m) for m in state.legal_moves()}
    # both wrap onto 0,-1 by (x + 32) * 64 + y + 32
    for far in ("YYYY@1,-65", "YYYY@-1,63", "YYYY@99,-99"):
        try:
            state.play(far)
        except IllegalMoveError as error:
            assert "shares no side" in str(error)
        else:
            raise AssertionError(f"{far} was played")
        assert state.position() == before
    assert state.pattern(1, -65) == 0 and state.pattern(0, -1) != 0


def test_a_hand_built_table_beyond_the_ids_is_named():
    """A table built by hand (not through a position, which keeps every tile within the
    squares a game reaches) whose frontier leaves the ids' squares: a clear error."""
    from ludoteca.games.comino.state import CominoState

    board = {(0, 0): "BBRR", (1, 0): "BBBR", (1, 1): "YRBB"}
    far = {(x + 20, y): tile for (x, y), tile in board.items()}
    hands = (["BBBY", "BRYY", "BYBY", "RYRY", "YYYY"], ["BRRR", "BYYR", "RRRR", "RRYY", "RYYY"])
    state = CominoState.from_parts(get("comino"), far, hands, (4, 6), dealing=False)
    try:
        legal_ids(state)
    except ValueError as error:
        named, _, why = str(error).removeprefix("square ").partition(" ")
        x, y = map(int, named.split(","))
        assert why == "lies beyond the squares a game can reach"
        assert (x, y) in state.frontier and abs(x) + abs(y) > 22
    else:
        raise AssertionError("no error")


def test_a_move_made_by_hand_with_no_such_tile_or_square_is_refused():
    """A ``Place`` built in Python rather than parsed: a tile that is no tile, or a square
    that is no pair of whole numbers, gets the engine's error and changes nothing."""
    from ludoteca.core.errors import IllegalMoveError
    from ludoteca.games.comino import Place

    state = get("comino").from_position("BRYY@0,0 YYYY RRRR 0 0 1")
    before = state.position()
    for move in (Place("ZZZZ", 0, -1), Place("YYYY", "0", -1), Place("YYYY", 0.5, -1)):
        try:
            state.play(move)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"{move!r} was played")
        assert state.position() == before
    state.play(Place("YYYY", 0, -1))
    assert state.score == [1, 0]


def test_a_draw_made_by_hand_of_no_dealt_tile_is_refused():
    from ludoteca.core.errors import MalformedError

    state = get("comino").new_state(1)
    for name in ("ZZZZ", "RBBB"):  # no tile; a tile but not by its name
        try:
            state.play(Deal(name))
        except MalformedError:
            pass
        else:
            raise AssertionError(f"deal {name} was played")
        assert state.draws == 0 and not state.board and state.hands == [{"YYYY"}, {"RRRR"}]
    state.play(Deal("BBBR"))
    state.play(Deal("BBRR"))
    assert state.board == {(0, 0): "BBBR"} and state.hands[0] == {"YYYY", "BBRR"}
    assert state.hand_bits[0] == 1 << TILES.index("YYYY") | 1 << TILES.index("BBRR")
