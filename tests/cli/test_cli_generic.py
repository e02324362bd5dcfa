"""The generic commands, run in-process on the toy race game (every answer known by hand)."""

from __future__ import annotations

import json

import pytest

from ludoteca.cli.main import main
from ludoteca.record import Record, save


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_command_with_a_summary(capsys):
    code, out, _ = run(capsys)
    assert code == 0
    for command in ("play", "legal", "perft", "apply", "show", "replay", "bench"):
        assert command in out


def test_legal_lists_sorted_moves_one_per_line(capsys):
    assert run(capsys, "legal", "race", "0 0") == (0, "+1\n+2\n", "")
    assert run(capsys, "legal", "race", "4 1")[1] == "+1\n"
    assert run(capsys, "legal", "race", "5 1")[1] == ""  # over: nothing


def test_legal_lists_chance_outcomes_at_a_chance_node(capsys):
    assert run(capsys, "legal", "race", "-o", "dice=1", "0 0 c")[1] == "coin 0\ncoin 1\n"


def test_perft_prints_the_number_last(capsys):
    code, out, _ = run(capsys, "perft", "race", "0 0", "3")
    assert code == 0 and out.strip().splitlines()[-1] == "7"
    code, out, _ = run(capsys, "perft", "race", "0 0", "3", "--divide")
    assert out.splitlines() == ["+1: 4", "+2: 3", "7"]


def test_apply_plays_in_order_and_names_an_illegal_move(capsys):
    assert run(capsys, "apply", "race", "0 0", "+1", "+2") == (0, "3 0\n", "")
    code, out, err = run(capsys, "apply", "race", "3 0", "+1", "+2")
    assert code == 2 and out == ""
    assert "'+2'" in err and "move 2 of 2" in err and "Traceback" not in err


def test_show_json_reports_state_and_winner_by_side_name(capsys):
    code, out, _ = run(capsys, "show", "race", "5 1", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["over"] is True and data["winner"] == "north" and data["legal_count"] == 0
    data = json.loads(run(capsys, "show", "race", "2 1", "--json")[1])
    assert data["over"] is False and data["to_move"] == "south" and data["winner"] is None
    assert data["legal_count"] == 2
    data = json.loads(run(capsys, "show", "race", "-o", "dice=1", "6 0", "--json")[1])
    assert data["winner"] == "draw"


@pytest.mark.parametrize(
    "argv",
    [
        ("legal", "race", "banana"),
        ("legal", "chess", "x"),
        ("perft", "race", "0 0", "two"),
        ("perft", "race", "0 0", "-1"),
        ("show", "race", "99 0"),
        ("apply", "race", "0 0", "+7"),
        ("legal", "race", "-o", "oops", "0 0"),
        ("replay", "/nonexistent/record.json"),
    ],
)
def test_bad_input_exits_2_with_a_message_not_a_traceback(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert f"ludoteca {argv[0]}:" in err.splitlines()[-1] and "Traceback" not in err


def test_replay_prints_the_game_and_verifies_it(capsys, tmp_path):
    from ludoteca.core import get

    state = get("race").new_state()
    record = Record.begin(state, players=["a", "b"])
    for move in ("+2", "+2", "+1"):
        state.play(move)
        record.moves.append(move)
    record.finish(state)
    path = save(record, tmp_path / "r.json")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "1. north" in out and "3. north" in out and "north wins" in out
    assert "verified: 3 moves" in out
    record.moves[2] = "+2"
    save(record, path)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "move 3" in err


def test_bench_reports_rates_as_json(capsys):
    code, out, _ = run(capsys, "bench", "race", "--seconds", "0.2", "--json", "--no-limit")
    data = json.loads(out)
    assert code == 0 and data["games_per_s"] > 0 and data["api_games_per_s"] > 0
    assert data["moves_per_s"] >= data["games_per_s"]


def test_play_against_random_to_the_end_saves_a_record(capsys, monkeypatch, tmp_path):
    answers = iter(["help", "moves", "+9", "+1", "+1", "+1", "+1", "+1", "+1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "race", "--seed", "4", "--record", str(path))
    assert code == 0
    assert "commands:" in out and "+1 or +2" in out and "game over" in out
    data = json.loads(path.read_text())
    assert data["result"]["over"] and data["seed"] == 4 and data["players"][0] == "human"


def test_play_undo_and_resign(capsys, monkeypatch, tmp_path):
    answers = iter(["undo", "+1", "undo", "+2", "resign"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    code, out, _ = run(
        capsys, "play", "race", "-o", "target=9", "--seed", "1", "--record", str(path)
    )
    assert code == 0 and "nothing to undo" in out and "taken back" in out and "resigned" in out
    data = json.loads(path.read_text())
    assert data["moves"][0] == "+2" and data["result"]["resigned"] == [0]


def test_play_two_people_and_end_of_input(capsys, monkeypatch, tmp_path):
    answers = iter(["+2", "+2"])

    def fake_input(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    path = tmp_path / "g.json"
    code, out, _ = run(capsys, "play", "race", "--vs", "human", "--record", str(path))
    assert code == 0 and "stopped before the end" in out
    assert json.loads(path.read_text())["moves"] == ["+2", "+2"]
