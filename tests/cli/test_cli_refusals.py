"""Every refusal is one line and exit status 2, in plain words; nothing hangs or reads without
limit; Ctrl-C stops a tournament with one line and keeps its finished games (issue 44, items
5-10)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.core.errors import RecordError
from ludoteca.core.table import Table
from ludoteca.record import MAX_RECORD_BYTES, Record, from_table, load, save

from .terminal import Terminal


def refused(capsys, *argv: str) -> str:
    """Run a command that must be refused in one line; return that line."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, out[-300:], err[-300:])
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


def finished_record(game: str, **options) -> Record:
    table = Table.new(get(game, **options), seed=4)
    while not table.is_over:
        table.play(table.draw() if table.state.to_move < 0 else table.state.legal_moves()[0])
    return from_table(table)


# --- 5. a record is read in pieces, up to a bound --------------------------------------------
def test_replay_of_an_endless_file_is_refused_at_once(capsys):
    started = time.monotonic()
    line = refused(capsys, "replay", "/dev/zero")
    assert "too large for a record" in line
    assert time.monotonic() - started < 5


def test_a_record_just_over_the_bound_is_refused_and_one_under_is_read(tmp_path, capsys):
    record = finished_record("kuniumi")
    text = record.dumps()
    big = tmp_path / "big.json"
    big.write_text(text[:-2] + " " * (MAX_RECORD_BYTES - len(text) + 1) + "}\n")
    assert "too large" in refused(capsys, "replay", str(big))
    big.write_text(text[:-2] + " " * (MAX_RECORD_BYTES - len(text) - 2) + "}\n")
    assert load(big).moves == record.moves


def test_a_record_starting_with_a_byte_order_mark_is_read(tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + finished_record("kuniumi").dumps().encode())
    assert main(["replay", str(path)]) == 0
    assert "verified:" in capsys.readouterr().out


@pytest.mark.parametrize(("game", "options"), [("comino", {}), ("comune", {})])
def test_whole_scores_are_stored_as_integers(tmp_path, game, options):
    path = save(finished_record(game, **options), tmp_path / "r.json")
    scores = json.loads(path.read_text())["result"]["scores"]
    assert scores and all(type(s) is int for s in scores), scores


# --- 6. Ctrl-C in a tournament on worker processes --------------------------------------------
@pytest.mark.parametrize("command", ["arena", "analyze"])
def test_ctrl_c_with_jobs_prints_one_line_and_keeps_the_finished_games(tmp_path, command):
    argv = (
        ["arena", "kuniumi", "random", "random", "--games", "10000", "--out", "out"]
        if command == "arena"
        else ["analyze", "kuniumi", "--games", "10000"]
    )
    with Terminal(*argv, "--jobs", "2", cwd=tmp_path) as term:
        term.wait_for(r"\b[1-9][0-9]*/10000")
        term.interrupt()
        assert term.finish() == 130
    shown = term.text
    assert "Traceback" not in shown and "KeyboardInterrupt" not in shown
    said = [line for line in shown.splitlines() if line.startswith("interrupted")]
    assert len(said) == 1
    played = int(re.match(r"interrupted: (\d+) of 10000 games were played", said[0])[1])
    assert played > 0
    if command == "arena":
        summary = json.loads((tmp_path / "out" / "summary.json").read_text())
        assert summary["interrupted"] == {"games_played": played, "games_planned": 10000}
        assert summary["total_games"] == played == len(list((tmp_path / "out" / "games").iterdir()))
    else:
        assert f"kuniumi: {played} self-play games" in shown


# --- 8. serve refuses what it cannot use, before starting --------------------------------------
@pytest.fixture
def no_club(monkeypatch):
    def no_server(*_args, **_kwargs):
        raise AssertionError("the club was started")

    monkeypatch.setattr("ludoteca.web.app.create_app", no_server)
    monkeypatch.setattr("uvicorn.run", no_server)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--database", "mysql://x"], "the database driver is not installed"),
        (["--host", "not a host"], "--host is not an address to listen on"),
        (["--host", ""], "--host must name an address"),
        (["--host", "192.0.2.1"], "cannot listen there"),
    ],
)
def test_serve_refuses_in_one_line(capsys, no_club, argv, words):
    assert words in refused(capsys, "serve", *argv)


# --- 9. admin never creates a club -----------------------------------------------------------
def test_admin_on_a_missing_database_creates_nothing(capsys, tmp_path):
    missing = tmp_path / "nowhere" / "x.db"
    line = refused(capsys, "admin", "roles", "--database", f"sqlite:///{missing}")
    assert "no club database there" in line
    assert not missing.parent.exists()


def test_admin_on_a_database_that_is_not_a_club_leaves_it_alone(capsys, tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    line = refused(capsys, "admin", "grant", "ann", "moderator", "--database", f"sqlite:///{empty}")
    assert "not a club database" in line
    assert empty.read_bytes() == b""


# --- 10. refusals in plain words, one line each ------------------------------------------------
def hexagone_position(players: int) -> str:
    return get("hexagone", players=players).new_state(seed=1).position()


@pytest.mark.parametrize("command", ["show", "legal", "apply", "perft"])
def test_a_players_option_the_position_contradicts_is_refused(capsys, command):
    extra = {"apply": [], "perft": ["1"]}.get(command, [])
    line = refused(capsys, command, "hexagone", hexagone_position(2), *extra, "-o", "players=3")
    assert "the position is for 2 player(s), but -o players=3" in line


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:seconds=1e9", "budget seconds must be above 0 and at most 3600"),
        ("alphabeta:depth=1000000", "budget depth must be from 1 to 64"),
        ("mcts:iterations=1000000000000", "budget iterations must be from 1 to 100000000"),
        ("mcts:iterations=2.5", "budget iterations must be a whole number"),
        ("mcts:foo=1", "mcts has no setting 'foo' (its settings: best_of, c,"),
        ("mcts:seconds=-1", "budget seconds must be above 0"),
    ],
)
def test_absurd_or_unknown_bot_settings_are_refused_in_plain_words(capsys, tmp_path, spec, words):
    line = refused(capsys, "play", "kuniumi", "--vs", spec, "--record", str(tmp_path / "r.json"))
    assert words in line and "__init__" not in line and "keyword" not in line


@pytest.mark.parametrize(
    ("name", "words"),
    [(" ", "the name is blank"), ("a\nb.json", "control characters"), ("x\x1b[2J", "control")],
)
def test_record_names_a_person_cannot_type_again_are_refused(capsys, tmp_path, name, words):
    path = name if not name.strip() else str(tmp_path / name)
    assert words in refused(capsys, "play", "kuniumi", "--record", path)


def test_bench_limits_must_be_a_folder_of_c_limits(capsys):
    assert "--limits must name a folder" in refused(
        capsys, "bench", "kuniumi", "--limits", "/etc/passwd"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["perft", "kuniumi", "x", "1", "--bogus"],
        ["play", "kuniumi", "--seat", "x"],
        ["arena"],
        ["nosuchcommand"],
    ],
)
def test_usage_errors_are_one_line(capsys, argv):
    line = refused(capsys, *argv)
    assert line.startswith("ludoteca") and "--help" in line


def test_messages_do_not_nest(capsys):
    line = refused(capsys, "play", "kuniumi", "--record", "/proc/1/sub/r.json")
    assert line.count("malformed input") == 1 and line.count("--record") == 1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": "7"}, "field 'seed' must be an integer"),
        ({"players": {}}, "field 'players' must be a list"),
        ({"options": []}, "field 'options' must be an object"),
    ],
)
def test_record_messages_are_grammatical(change, words):
    data = finished_record("kuniumi").to_json() | change
    with pytest.raises(RecordError, match=re.escape(words)):
        Record.from_json(data)


def test_json_errors_do_not_repeat_at(tmp_path, capsys):
    path = Path(tmp_path / "r.json")
    path.write_text('{"game": "kuniumi", "moves": ["unterminated')
    line = refused(capsys, "replay", str(path))
    assert "at at" not in line and "line 1, column" in line


def test_budget_messages_are_grammatical(capsys, tmp_path):
    line = refused(
        capsys, "play", "kuniumi", "--vs", "mcts:iterations=0", "--record", str(tmp_path / "r")
    )
    assert "a iterations" not in line and "budget iterations must be" in line


def test_a_refused_move_in_a_record_is_quoted_once(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text('{"game": "kuniumi", "rules_version": "1", "moves": ["E@c3", "zz"]}')
    main(["replay", str(path)])
    line = capsys.readouterr().err.strip()
    assert line.startswith("ludoteca replay: invalid record 'zz': move 2: ")
