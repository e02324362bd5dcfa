"""The generic commands on Hexagone positions (JSON), run in-process."""

from __future__ import annotations

import json

from hexagone_support import Ref, line, position, ref_perft

from ludoteca.cli.main import main

TWELVE = line("ROYGBPWROYGBR")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_lists_each_distinct_roll_once(capsys):
    code, out, _ = run(capsys, "legal", "hexagone", position(TWELVE))
    assert code == 0
    rolls = out.split("\n")[:-1]
    assert len(rolls) == 21 and len(set(rolls)) == 21 and "roll RG" in rolls


def test_legal_lists_swaps_and_placements(capsys):
    text = position(TWELVE, phase="swap", dice="RG")
    code, out, _ = run(capsys, "legal", "hexagone", text)
    assert code == 0 and out.splitlines() == sorted(out.splitlines())
    assert sorted(out.strip().splitlines()) == sorted(Ref(text).moves())
    text = position(line("ORORORORY"), phase="reform", pool="RG", rolled=1)
    _, out, _ = run(capsys, "legal", "hexagone", text)
    assert out.splitlines() == ["place G 0,1", "place G 1,-1", "place G 7,1", "place G 8,-1"]


def test_perft_counts_like_the_reference(capsys):
    text = position(line("RROROOYGBPWGYBPWYG"))
    code, out, _ = run(capsys, "perft", "hexagone", text, "2")
    assert code == 0 and int(out.strip().splitlines()[-1]) == ref_perft(Ref(text), 2)


def test_bad_positions_and_moves_exit_with_status_2(capsys):
    code, _, err = run(capsys, "legal", "hexagone", "{not json")
    assert code == 2 and "not valid JSON" in err
    code, _, err = run(capsys, "apply", "hexagone", position(TWELVE), "roll WW")
    assert code == 2 and "white" in err


def test_apply_prints_the_resulting_position(capsys):
    code, out, _ = run(capsys, "apply", "hexagone", position(TWELVE), "roll GR", "swap 1,0 0,0")
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert data["phase"] == "second" and data["cells"]["0,0"] == "O"
