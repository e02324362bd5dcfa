"""No command loses a game or overwrites a file it was not asked to (issue 44, items 1-4).

The terminal cases run ``ludoteca`` in a pseudo-terminal, as a person does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludoteca.bots.base import BotError
from ludoteca.bots.random_bot import RandomBot
from ludoteca.cli.main import main
from ludoteca.core.errors import RecordError
from ludoteca.core.registry import get
from ludoteca.core.table import Table
from ludoteca.record import Record, from_table, load, replay, save_new

from .terminal import run


def one_error_line(term_text: str) -> list[str]:
    return [line for line in term_text.splitlines() if line.startswith("ludoteca ")]


# --- 1. records are never overwritten unless asked ------------------------------------------
def test_play_refuses_an_existing_record_and_replaces_it_only_with_force(tmp_path):
    kept = tmp_path / "game.json"
    kept.write_text("a finished game\n")
    term = run("play", "kuniumi", "--record", "game.json", cwd=tmp_path)
    assert term.proc.returncode == 2
    assert term.text.strip().splitlines() == [
        "ludoteca play: malformed input 'game.json': --record: a file is already there "
        "(add --force to replace it)"
    ]
    assert kept.read_text() == "a finished game\n"
    term = run("play", "kuniumi", "--record", str(kept), "--force", cwd=tmp_path, lines=("quit",))
    assert term.proc.returncode == 0
    assert load(kept).game == "kuniumi"


def test_two_games_started_in_the_same_second_keep_both_records(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("time.strftime", lambda fmt, *a: "20260101-120000")
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    for seed in ("1", "2"):
        assert main(["play", "kuniumi", "--seed", seed]) == 0
    records = sorted((tmp_path / "ludoteca-games").glob("*.json"))
    assert [p.name for p in records] == [
        "kuniumi-20260101-120000-2.json",
        "kuniumi-20260101-120000.json",
    ]
    assert {load(p).seed for p in records} == {1, 2}


def test_arena_out_refuses_an_earlier_tournament_unless_forced(tmp_path, capsys):
    out = tmp_path / "t"
    argv = [
        "arena",
        "kuniumi",
        "random",
        "random",
        "--games",
        "2",
        "-q",
        "-j",
        "1",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    first = (out / "summary.json").read_text()
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main([*argv[:4], "--games", "1", *argv[6:]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "earlier tournament" in err and "--force" in err
    assert (out / "summary.json").read_text() == first
    assert main([*argv[:4], "--games", "1", *argv[6:], "--force"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    games = sorted(p.name for p in (out / "games").iterdir())
    assert games == [Path(g["record"]).name for g in summary["games"]] == ["game-00001.json"]
    assert summary["games_per_table"] == 1
    assert (out / "notes.txt").read_text() == "mine"  # not the arena's: left alone


# --- 2. a bot that cannot play is refused before the game; any ending saves ----------------
def test_the_planner_in_a_two_player_game_is_refused_before_the_game(tmp_path):
    term = run("play", "kuniumi", "--vs", "planner", cwd=tmp_path)
    assert term.proc.returncode == 2
    assert one_error_line(term.text) == term.text.strip().splitlines()
    assert "planner plays solo games" in term.text
    assert not (tmp_path / "ludoteca-games").exists() or not any(
        (tmp_path / "ludoteca-games").iterdir()
    )


def test_a_game_ended_by_a_failing_bot_is_saved(tmp_path, monkeypatch, capsys):
    def fail(self, state, **kwargs):
        raise BotError("kuniumi", "the bot gave up")

    monkeypatch.setattr(RandomBot, "choose", fail)
    record = tmp_path / "r.json"
    assert (
        main(
            [
                "play",
                "hexagone",
                "-o",
                "players=2",
                "--seed",
                "3",
                "--seat",
                "2",
                "--record",
                str(record),
            ]
        )
        == 2
    )
    out = capsys.readouterr()
    assert "record saved to" in out.out and "the bot gave up" in out.err
    saved = load(record)
    assert saved.result == {
        "over": False,
        "reason": "stopped by an error",
    }
    replay(saved)


# --- 3. a failed save says so in one line and saves elsewhere -------------------------------
@pytest.mark.parametrize("target", ["/dev/full", "/proc/version"])
def test_a_record_that_cannot_be_written_is_saved_elsewhere(tmp_path, target):
    extra = ("--force",) if target == "/proc/version" else ()
    term = run(
        "play", "kuniumi", "--seed", "5", "--record", target, *extra, cwd=tmp_path, lines=("quit",)
    )
    assert term.proc.returncode == 0, term.text
    assert "Traceback" not in term.text
    failures = [line for line in term.text.splitlines() if "could not save" in line]
    assert len(failures) == 1 and failures[0].startswith(
        f"ludoteca play: could not save the record to {target} ("
    )
    saved = list((tmp_path / "ludoteca-games").glob("kuniumi-*.json"))
    assert len(saved) == 1 and load(saved[0]).seed == 5
    assert f"record saved to ludoteca-games/{saved[0].name}" in term.text


# --- 4. started is when the game began; replay checks the order -----------------------------
def test_a_record_is_started_when_the_game_begins(monkeypatch):
    times = iter(["2026-03-01T10:00:00+00:00", "2026-03-01T10:30:00+00:00"])
    monkeypatch.setattr("ludoteca.record.now", lambda: next(times))
    monkeypatch.setattr("ludoteca.core.table.now", lambda: next(times))
    table = Table.new(get("kuniumi"), seed=1)
    table.resign(0)
    record = from_table(table)
    assert (record.started, record.finished) == (
        "2026-03-01T10:00:00+00:00",
        "2026-03-01T10:30:00+00:00",
    )


def test_replay_refuses_a_record_finished_before_it_started():
    table = Table.new(get("kuniumi"), seed=1)
    table.resign(1)
    data = from_table(table).to_json()
    data["started"], data["finished"] = "2026-03-01T10:30:00+00:00", "2026-03-01T10:00:00+00:00"
    with pytest.raises(RecordError, match="before the game started"):
        Record.from_json(data)


def test_a_new_name_is_claimed_also_where_the_file_system_has_no_links(tmp_path, monkeypatch):
    def no_links(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("os.link", no_links)
    record = from_table(Table.new(get("kuniumi"), seed=1))
    first = save_new(record, tmp_path, "kuniumi-x")
    second = save_new(record, tmp_path, "kuniumi-x")
    assert (first.name, second.name) == ("kuniumi-x.json", "kuniumi-x-2.json")
    assert load(first).seed == load(second).seed == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kuniumi-x-2.json", "kuniumi-x.json"]
