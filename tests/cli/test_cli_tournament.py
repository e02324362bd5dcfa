"""``ludoteca tournament``: the formats played by bots to the end, standings and records."""

from __future__ import annotations

import json

from ludoteca.cli.main import main
from ludoteca.record import load


def test_a_swiss_of_bots_writes_standings_and_every_record_and_never_overwrites(tmp_path):
    out = tmp_path / "swiss"
    argv = ["tournament", "kuniumi", "--format", "swiss", "--players", "random", "random"]
    argv += ["greedy", "random", "random", "--rounds", "3", "-j", "1", "-q", "--out", str(out)]
    assert main(argv) == 0
    summary = json.loads((out / "standings.json").read_text())
    games = [g for g in summary["games"] if not g.get("bye")]
    byes = [g for g in summary["games"] if g.get("bye")]
    assert len(games) == 6 and len(byes) == 3  # five players, three rounds
    assert len({b["players"][0] for b in byes}) == 3  # never the same bye twice
    assert len(summary["records"]) == 6
    for path in summary["records"]:
        assert load(path).game == "kuniumi"
    points = {s["player"]: s["points"] for s in summary["standings"]}
    recount = {p: 0.0 for p in summary["players"]}
    for g in summary["games"]:
        for p, x in zip(g["players"], g["points"], strict=True):
            recount[p] += x
    assert points == recount
    assert main(argv) == 2  # the folder holds a tournament: refused, nothing overwritten
    assert len(list((out / "games").iterdir())) == 6


def test_a_round_robin_of_three_player_tables_and_an_arena(tmp_path, capsys):
    argv = ["tournament", "hexagone", "--format", "round-robin", "--table-size", "3"]
    argv += ["--players", "random", "random", "random", "random", "-j", "1", "-q", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    tables = [g for g in summary["games"]]
    assert tables and all(len(g["players"]) == 3 for g in tables)  # someone sits out
    argv = ["tournament", "comino", "--format", "arena", "--minutes", "0.02"]
    argv += ["--players", "random", "random", "greedy", "-j", "1", "-q", "--json"]
    assert main(argv) == 0
    arena = json.loads(capsys.readouterr().out)
    assert arena["games"] and all(len(g["players"]) == 2 for g in arena["games"])


def test_bad_tournaments_are_refused_in_one_line(capsys):
    assert main(["tournament", "hexagone", "--format", "swiss", "--players", "a", "b"]) == 2
    assert main(["tournament", "kuniumi", "--format", "arena", "--players", "random"]) == 2
    argv = ["tournament", "kuniumi", "--format", "round-robin", "--players", "random", "random"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 3
