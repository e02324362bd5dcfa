"""The table: one scheme of randomness (per ply, from the seed), the log, undo, endings
outside the rules, and the round trip through a record, for every registered game."""

from __future__ import annotations

import json
import random

import pytest

from ludoteca.core.errors import IllegalMoveError, RecordError
from ludoteca.core.protocol import CHANCE, Result
from ludoteca.core.registry import get, names
from ludoteca.core.table import Table, ply_rng, sample_chance
from ludoteca.record import Record, from_table, replay, to_table

GAMES = [n for n in names()]


def play_some(table: Table, rng: random.Random, plies: int) -> None:
    while not table.is_over and table.ply < plies:
        if table.state.to_move == CHANCE:
            table.play(table.draw())
        else:
            table.play(rng.choice(table.state.legal_moves()))


@pytest.mark.parametrize("name", GAMES)
def test_chance_is_drawn_per_ply_from_the_seed_and_the_record_round_trips(name):
    table = Table.new(get(name), seed=42, players=["a"] * get(name).num_players)
    play_some(table, random.Random(1), 60)
    replica = Table.new(get(name), seed=42)
    for ply, text in enumerate(table.moves):
        if replica.state.to_move == CHANCE:  # what the table draws at this ply, from the seed
            assert replica.state.move_to_str(sample_chance(replica.state, ply_rng(42, ply))) == text
        replica.play(text)
    assert replica.state.position() == table.state.position()
    record = Record.loads(from_table(table).dumps())
    assert replay(record).position() == table.state.position()
    again = to_table(record)
    assert again.moves == table.moves and again.seed == 42


@pytest.mark.parametrize("name", GAMES)
def test_undo_and_rewind_give_back_the_earlier_positions(name):
    table = Table.new(get(name), seed=5)
    seen = [table.state.position()]
    rng = random.Random(2)
    while not table.is_over and table.ply < 12:
        play_some(table, rng, table.ply + 1)
        seen.append(table.state.position())
    for ply in range(table.ply, -1, -1):
        assert table.position_at(ply).position() == seen[ply]
    table.undo(2)
    assert table.state.position() == seen[-3] and table.ply == len(seen) - 3
    table.rewind(0)
    assert table.state.position() == seen[0] and table.moves == []
    with pytest.raises(IllegalMoveError):
        table.undo(1)


def test_a_refused_move_leaves_the_table_as_it_was():
    table = Table.new(get("kuniumi"), seed=1)
    table.play("E@c3")
    before = (table.state.position(), list(table.moves))
    for bad in ("E@c3", "zz", "S@c3"):
        with pytest.raises(Exception):  # noqa: B017 - MalformedError or IllegalMoveError
            table.play(bad)
        assert (table.state.position(), table.moves) == before


def test_resignation_and_time_out_end_the_game_and_go_into_the_record():
    table = Table.new(get("comune"), seed=1, players=["ann", "ben"])
    table.play("e5-")
    result = table.resign(1)
    assert table.is_over and result.ended == "resignation" and result.winners == (0,)
    with pytest.raises(IllegalMoveError):
        table.play("d4-")
    record = from_table(table)
    assert record.result["ended"] == "resignation" and record.result["resigned"] == [1]
    replay(Record.loads(record.dumps()))  # the record verifies
    back = to_table(record)
    assert back.result == result
    timed = Table.new(get("hexagone", players=3), seed=3)
    timed.resolve_chance()
    out = timed.time_out(timed.state.to_move)
    assert out.ended == "time" and out.ranking[-1] == (timed.state.to_move,)
    assert not out.draw


@pytest.mark.parametrize("name", GAMES)
def test_every_ending_has_one_json_form_that_reads_back(name):
    game = get(name)
    table = Table.new(game, seed=9)
    play_some(table, random.Random(4), 10_000)
    state = table.state
    endings = [state.result] if state.result is not None else []
    probe = Table.new(game, seed=9)
    play_some(probe, random.Random(4), 3)
    if not probe.is_over:
        endings.append(Result.by_resignation(probe.state, [0]))
        endings.append(Result.on_time(probe.state, [0], abandoned=True))
    for result in endings:
        data = json.loads(json.dumps(result.to_json(state)))
        back = Result.from_json(data, game.num_players)
        assert back.winners == result.winners and back.ended == result.ended
        assert back.to_json(state) == data


def test_a_record_whose_result_was_edited_does_not_make_a_table():
    table = Table.new(get("comune"), seed=1)
    table.play("e5-")
    table.resign(0)
    record = from_table(table)
    record.result["winners"] = [0]
    with pytest.raises(RecordError):
        to_table(record)
