"""Records keep the offers made during a game (optional: records without them load as
before) and the two endings agreed by the players: a draw, and an abort with no result."""

from __future__ import annotations

import pytest

from ludoteca.core.errors import RecordError
from ludoteca.core.protocol import Result
from ludoteca.core.registry import get
from ludoteca.core.table import Table
from ludoteca.record import Record, from_table, replay


def _record() -> tuple[Record, Table]:
    table = Table(get("comune").new_state(), seed=1, players=["ann", "bob"])
    table.play(table.state.legal_moves()[0])
    return from_table(table), table


def test_agreed_endings_and_offers_round_trip_and_are_checked():
    record, table = _record()
    assert "offers" not in record.to_json()  # the old form when there were none
    record.result = Result.by_agreement(table.state).to_json(table.state)
    record.offers = [
        {"ply": 1, "kind": "draw", "action": "offered", "seat": 1},
        {"ply": 1, "kind": "draw", "action": "accepted", "seat": 0},
        {"ply": 1, "kind": "draw", "action": "agreed", "seat": 1},
    ]
    again = Record.loads(record.dumps())
    assert again.offers == record.offers
    assert replay(again) is not None and again.typed_result().draw
    aborted = Result.aborted_at(table.state)
    record.result = aborted.to_json(table.state)
    loaded = Record.loads(record.dumps())
    replay(loaded)
    typed = loaded.typed_result()
    assert typed.ended == "aborted" and not typed.draw and typed.headline(["a", "b"]) == "Aborted"
    record.result["winners"] = [0]  # an abort has no winner
    with pytest.raises(RecordError, match="winners"):
        replay(Record.loads(record.dumps()))


@pytest.mark.parametrize(
    "bad",
    [
        "draw",
        [{"ply": 1, "kind": "dance", "action": "offered", "seat": 0}],
        [{"ply": 1, "kind": "draw", "action": "shouted", "seat": 0}],
        [{"ply": -1, "kind": "draw", "action": "offered", "seat": 0}],
        [{"ply": 1, "kind": "draw", "action": "offered", "seat": 5}],
        [{"ply": 1, "kind": "takeback", "action": "agreed", "seat": 0, "undone": [3]}],
        [{"ply": 1, "kind": "draw", "action": "offered", "seat": 0, "extra": 1}],
    ],
)
def test_malformed_offers_are_refused_with_the_field(bad):
    record, _ = _record()
    data = record.to_json()
    data["offers"] = bad
    with pytest.raises(RecordError) as caught:
        Record.from_json(data)
    assert "offers" in str(caught.value)
