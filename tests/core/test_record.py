"""Game records: save, load, replay with verification, and refusal of bad records."""

from __future__ import annotations

import json
import random

import pytest

from ludoteca.core import RecordError, get
from ludoteca.core.table import sample_chance
from ludoteca.record import Record, load, replay, save


def _played(seed: int = 3, dice: int = 1) -> tuple[Record, object]:
    table = random.Random(seed)  # the table draws from the seed, as ``ludoteca play`` does
    rng = random.Random(seed + 1000)  # the players' choices
    state = get("race", dice=dice, target=7).new_state(seed=seed)
    record = Record.begin(state, seed=seed, players=["ann", "bob"])
    while not state.is_over:
        move = sample_chance(state, table) if state.to_move < 0 else rng.choice(state.legal_moves())
        record.moves.append(state.move_to_str(move))
        state.play(move)
    record.finish(state)
    return record, state


def test_record_holds_what_the_design_asks_for():
    record, state = _played()
    data = json.loads(record.dumps())
    for key in (
        "game",
        "rules_version",
        "options",
        "seed",
        "players",
        "moves",
        "result",
        "started",
        "finished",
        "start",
    ):
        assert key in data
    assert data["game"] == "race" and data["options"] == {"dice": 1, "target": 7}
    assert data["players"] == ["ann", "bob"]
    assert data["result"]["over"] is True


def test_save_load_replay_round_trip(tmp_path):
    record, state = _played()
    path = save(record, tmp_path / "sub" / "game.json")
    again = load(path)
    assert again == record
    assert replay(again).position() == state.position()


def test_replay_reports_each_move():
    record, _ = _played()
    seen = []
    replay(record, on_move=lambda n, text, st: seen.append((n, text)))
    assert seen == list(enumerate(record.moves, start=1))


def test_illegal_move_is_refused_with_its_number_and_reason():
    record, _ = _played(dice=0)
    record.moves[1] = "+3"
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.move_number == 2
    assert "move 2" in str(info.value) and "+1 or +2" in str(info.value)


def test_a_move_after_the_end_is_refused():
    record, _ = _played(dice=0)
    record.moves.append("+1")
    with pytest.raises(RecordError, match=f"move {len(record.moves)}"):
        replay(record)


def test_a_forged_result_is_refused():
    record, _ = _played(dice=0)
    record.result["winners"] = [1 - record.result["winners"][0]]
    with pytest.raises(RecordError, match="winners"):
        replay(record)


def test_an_unfinished_game_claiming_to_be_over_is_refused():
    record, _ = _played(dice=0)
    record.moves.pop()
    with pytest.raises(RecordError, match="do not finish"):
        replay(record)


def test_resignation_is_recorded_and_replays():
    state = get("race", target=9).new_state()
    record = Record.begin(state, players=["a", "b"])
    state.play("+1")
    record.moves.append("+1")
    record.resign(state, 1)
    assert record.result["winners"] == [0] and record.result["resigned"] == [1]
    assert replay(Record.loads(record.dumps())).position() == "1 1"
    record.result["resigned"] = 1
    with pytest.raises(RecordError, match="list of seats"):
        replay(record)
    for _ in range(4):
        state.play("+2")
        record.moves.append("+2")
    assert state.is_over
    record.resign(state, 0)
    with pytest.raises(RecordError, match="already over"):
        replay(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"game": "race", "rules_version": "1"}', "missing field 'moves'"),
        ('{"game": "race", "rules_version": "1", "moves": "+1"}', "must be a list"),
        ('{"game": "race", "rules_version": "1", "moves": [1]}', "string"),
        ('{"game": "race", "rules_version": "1", "moves": [], "seed": "x"}', "'seed'"),
        ('{"format": "pgn", "game": "race", "rules_version": "1", "moves": []}', "format"),
    ],
)
def test_malformed_records_are_refused(text, message):
    with pytest.raises(RecordError, match=message):
        Record.loads(text)


def test_unknown_game_wrong_rules_version_and_bad_start_are_refused():
    with pytest.raises(RecordError, match="no such game"):
        replay(Record(game="chess", rules_version="1"))
    with pytest.raises(RecordError, match="rules version 9"):
        replay(Record(game="race", rules_version="9"))
    with pytest.raises(RecordError, match="bad start position"):
        replay(Record(game="race", rules_version="1", start="banana"))


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load(bad)


def test_a_record_saved_to_a_pipe_or_device_is_written_into_it_not_over_it(tmp_path):
    """``--record /dev/null`` discards a record; renaming a file over the path, as a
    regular record is saved, would replace the device by a plain file."""
    import os
    import stat
    import threading

    from ludoteca.record import Record, save

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    record = Record(game="comune", rules_version="1", moves=["a1-"])
    save(record, fifo)
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert Record.loads(got[0]).moves == ["a1-"]
