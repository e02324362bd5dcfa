"""Setup: generated start blocks obey the setup rules; options; the 4-player handicap."""

from __future__ import annotations

import json

import pytest

import ludoteca.core as core
from ludoteca.core.errors import MalformedError, RecordError
from ludoteca.record import Record, replay, start_state

DELTAS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def cells_of(state) -> dict[tuple[int, int], str]:
    raw = json.loads(state.position())["cells"]
    return {tuple(map(int, k.split(","))): v for k, v in raw.items()}


def neighbours(c):
    return [(c[0] + dq, c[1] + dr) for dq, dr in DELTAS]


def connected(cells) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def gaps(cells) -> list:
    """Empty cells that cannot reach far outside the block through empty cells."""
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    box = {(q, r) for q in range(min(qs) - 2, max(qs) + 3) for r in range(min(rs) - 2, max(rs) + 3)}
    start = (min(qs) - 2, min(rs) - 2)
    outside = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in box and n not in cells and n not in outside:
                outside.add(n)
                todo.append(n)
    return sorted(c for c in box if c not in cells and c not in outside)


def assert_setup_rules(cells) -> None:
    assert connected(cells)
    for c, colour in cells.items():
        around = [cells[n] for n in neighbours(c) if n in cells]
        assert len(around) >= 2, f"{c} touches {len(around)} pieces"
        assert colour not in around, f"{c} touches its own colour {colour}"


@pytest.mark.parametrize("seed", range(40))
def test_compact_start_block_obeys_the_setup_rules(seed):
    state = core.get("hexagone", players=2).new_state(seed=seed)
    cells = cells_of(state)
    assert len(cells) == 42
    assert sorted(cells.values()) == sorted("ROYGBPW" * 6)
    assert_setup_rules(cells)
    assert gaps(cells) == []  # Decision: compact by default


@pytest.mark.parametrize("seed", range(15))
def test_gaps_option_gives_a_42_piece_block_with_gaps(seed):
    state = core.get("hexagone", players=2, gaps=True).new_state(seed=seed)
    cells = cells_of(state)
    assert len(cells) == 42
    assert_setup_rules(cells)
    assert gaps(cells), "a block with gaps was asked for"


@pytest.mark.parametrize("seed", range(10))
def test_four_players_set_one_white_aside_for_the_fourth(seed):
    state = core.get("hexagone", players=4).new_state(seed=seed)
    cells = cells_of(state)
    assert len(cells) == 41
    assert list(cells.values()).count("W") == 5
    assert_setup_rules(cells)
    data = json.loads(state.position())
    assert data["captured"] == [[], [], [], ["W"]]
    assert state.scores() == (0, 0, 0, 1)


def test_the_start_position_fields():
    data = json.loads(core.get("hexagone", players=3).new_state(seed=7).position())
    assert data["phase"] == "roll" and data["to_move"] == 0
    assert data["dice"] is None and data["pool"] == [] and data["rolls_left"] is None
    assert data["rolled_this_turn"] == 0 and data["since_capture"] == 0
    solo = json.loads(core.get("hexagone").new_state(seed=7).position())
    assert solo["rolls_left"] == 15 and solo["captured"] == [[]]


def test_the_seed_fixes_the_block_and_different_seeds_differ():
    game = core.get("hexagone", players=2)
    assert game.new_state(seed=3).position() == game.new_state(seed=3).position()
    assert len({game.new_state(seed=s).position() for s in range(8)}) == 8


@pytest.mark.parametrize(("value", "expected"), [(None, 1), (1, 1), (2, 2), ("3", 3), (" 4 ", 4)])
def test_players_option(value, expected):
    options = {} if value is None else {"players": value}
    game = core.get("hexagone", **options)
    assert game.num_players == expected
    assert game.new_state(seed=1).num_players == expected


@pytest.mark.parametrize("value", [0, 5, "five", "2.0", -1, True, 2.5, ""])
def test_bad_players_option_is_malformed(value):
    with pytest.raises(MalformedError):
        core.get("hexagone", players=value)


def test_gaps_option_values_and_unknown_options():
    assert core.get("hexagone", gaps="true").gaps is True
    assert core.get("hexagone", gaps=1).gaps is True
    assert core.get("hexagone", gaps="no").gaps is False
    with pytest.raises(MalformedError):
        core.get("hexagone", gaps="maybe")
    with pytest.raises(MalformedError):
        core.get("hexagone", colours=8)


def test_a_record_stores_the_start_block_itself():
    game = core.get("hexagone", players=2)
    state = game.new_state(seed=11)
    record = Record.begin(state, seed=11, players=["a", "b"])
    assert json.loads(record.start)["cells"] == json.loads(state.position())["cells"]
    # a record whose seed would give another block is refused: seed and start disagree
    record.seed = 12
    with pytest.raises(RecordError, match="seed 12 sets up"):
        start_state(Record.loads(record.dumps()))
    # without a seed (a block set by hand, say) the stored block is the start
    record.seed = None
    assert start_state(Record.loads(record.dumps())).position() == state.position()
    record.moves = ["roll RO"]
    assert replay(record).position() != state.position()
