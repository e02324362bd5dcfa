"""``ludoteca analyze`` on toy games whose statistics are known exactly."""

from __future__ import annotations

import json

import pytest

from ludoteca.bots.analysis import analyse, self_play
from ludoteca.cli.main import main
from ludoteca.core import get


def test_pile_of_one_always_goes_to_the_first_player():
    game = get("toy-nim", pile=1)
    report = analyse(game, "random", self_play(game, "random", 10, seed=1), seed=1)
    assert report["first_player_win_rate"]["rate"] == 1.0
    assert report["first_player_win_rate"]["low"] > 0.65
    assert report["draws"]["count"] == 0
    assert report["length"]["mean"] == 1
    assert report["branching"]["mean"] == 1


def test_branching_by_decision_in_nim():
    # pile 6, take 1..3: the first decision always has 3 choices
    game = get("toy-nim", pile=6)
    outcomes = self_play(game, "random", 30, seed=2)
    report = analyse(game, "random", outcomes, seed=2)
    curve = report["branching_by_decision"]
    assert curve[0] == {"decision": 1, "mean": 3.0, "games": 30}
    assert all(1 <= point["mean"] <= 3 for point in curve)
    lengths = [o.moves for o in outcomes]
    assert report["length"]["max"] == max(lengths) and report["length"]["min"] == min(lengths)


def test_solo_scores_and_chance():
    game = get("toy-coins", rounds=2)
    outcomes = self_play(game, "greedy", 50, seed=3)
    report = analyse(game, "greedy", outcomes, seed=3)
    assert "seat_wins" not in report
    assert report["chance_outcomes"]["mean"] == 3
    # greedy takes the first coin and must skip the second: the score is the first coin
    scores = [o.scores[0] for o in outcomes]
    assert set(scores) <= {1.0, 2.0, 3.0}
    assert report["scores"]["by_seat"][0]["mean"] == pytest.approx(sum(scores) / 50, abs=1e-3)


def test_cli_json_and_png(tmp_path, capsys):
    png = tmp_path / "a.png"
    assert (
        main(
            [
                "analyze",
                "toy-nim",
                "-o",
                "pile=5",
                "--games",
                "12",
                "--jobs",
                "1",
                "--json",
                "-q",
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 12 and report["level"] == "random"
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_text(capsys):
    assert main(["analyze", "toy-nim", "--games", "6", "--jobs", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 wins" in out and "branching factor" in out


def test_cli_refuses_a_bad_level(capsys):
    assert main(["analyze", "toy-nim", "--level", "nosuch", "-q"]) == 2
