"""The installed ``ludoteca`` command as a person runs it: real processes, real games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

START = "6/6/6/6/6/6 setup"


def ludoteca(*argv: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli.main", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.mark.parametrize(("depth", "count"), [(1, 36), (2, 1260), (3, 42832)])
def test_kuniumi_perft_from_the_start(depth, count):
    out = ludoteca("perft", "kuniumi", START, str(depth))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == str(count)


def test_comune_legal_at_the_start_is_pass_and_183_placements():
    out = ludoteca("legal", "comune", "5/6/7/8/9/8/7/6/5 L 0")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == 184 and "pass" in lines
    assert lines == sorted(lines)
    perft = ludoteca("perft", "comune", "5/6/7/8/9/8/7/6/5 L 0", "1")
    assert perft.stdout.strip() == "184"


@pytest.mark.parametrize(
    "argv",
    [
        ("legal", "kuniumi", "6/6/6 setup"),
        ("show", "kuniumi", "6/6/6/6/6/6 play"),
        ("apply", "kuniumi", START, "E@z9"),
        ("apply", "kuniumi", START, "l@a1"),
        ("perft", "comune", "5/6/7/8/9/8/7/6/5 X 0", "1"),
        ("legal", "nosuchgame", "x"),
    ],
)
def test_bad_input_gives_a_message_and_status_2(argv):
    out = ludoteca(*argv)
    assert out.returncode == 2
    assert out.stderr.startswith(f"ludoteca {argv[0]}: ") and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_apply_names_the_rule_an_illegal_move_breaks():
    out = ludoteca("apply", "kuniumi", START, "E@c3", "l@a1")
    assert out.returncode == 2 and "'l@a1'" in out.stderr and "move 2 of 2" in out.stderr


def test_show_json_on_a_finished_kuniumi_game():
    # play a random game through the engine, then ask the command about its end
    from random import Random

    from ludoteca.core import get

    state = get("kuniumi").new_state()
    rng = Random(7)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    data = json.loads(ludoteca("show", "kuniumi", state.position(), "--json").stdout)
    assert data["over"] is True and data["legal_count"] == 0 and data["to_move"] is None
    expected = "draw" if state.result.draw else state.side_name(state.result.winners[0])
    assert data["winner"] == expected and expected in ("land", "sea", "draw")


@pytest.mark.parametrize(
    ("game", "extra"),
    [("kuniumi", []), ("comune", []), ("comino", []), ("hexagone", ["--players", "2"])],
)
def test_a_computer_game_plays_to_the_end_and_its_record_replays(tmp_path, game, extra):
    path = tmp_path / f"{game}.json"
    seats = "random,random"
    out = ludoteca("play", game, "--seats", seats, "--seed", "5", "--record", str(path), *extra)
    assert out.returncode == 0, out.stderr
    assert "game over" in out.stdout
    record = json.loads(path.read_text())
    assert record["result"]["over"] is True and record["seed"] == 5
    again = ludoteca("replay", str(path))
    assert again.returncode == 0, again.stderr
    assert f"verified: {len(record['moves'])} moves" in again.stdout


def test_a_person_plays_kuniumi_through_standard_input(tmp_path):
    path = tmp_path / "k.json"
    # the person (seat 1) places the set-up; the random computer then chooses a side
    moves = ["help", "moves", "E@c3", "S@d4", "l@a1", "l@a2", "s@f6", "s@f5", "resign"]
    out = ludoteca(
        "play",
        "kuniumi",
        "--seed",
        "2",
        "--record",
        str(path),
        "--no-color",
        stdin="\n".join(moves) + "\n",
    )
    assert out.returncode == 0, out.stderr
    assert "commands:" in out.stdout and "resigned" in out.stdout
    record = json.loads(path.read_text())
    assert record["moves"][:6] == ["E@c3", "S@d4", "l@a1", "l@a2", "s@f6", "s@f5"]
    assert record["moves"][6].startswith("choose ")
    assert record["result"]["resigned"] == [0]
    assert ludoteca("replay", str(path)).returncode == 0


def _start(*argv: str) -> subprocess.Popen:
    """A ``ludoteca`` process that Ctrl-C (SIGINT) reaches as it would from a terminal, even
    when this test runs where SIGINT is ignored (a background job inherits that)."""
    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli.main", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _read_until(proc: subprocess.Popen, text: str, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    seen = ""
    while text not in seen:
        assert time.monotonic() < deadline, f"no {text!r} in {seen[-500:]!r}"
        line = proc.stdout.readline()
        assert line, f"the process ended before {text!r}: {seen[-500:]!r}"
        seen += line
    return seen


def test_ctrl_c_in_a_terminal_game_saves_the_record_as_quit_does(tmp_path):
    path = tmp_path / "k.json"
    proc = _start("play", "kuniumi", "--seed", "2", "--record", str(path), "--no-color")
    try:
        proc.stdin.write("E@c3\nS@d4\n")
        proc.stdin.flush()
        _read_until(proc, "S@d4")
        time.sleep(0.3)  # let it reach the next prompt
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "record saved" in out
    record = json.loads(path.read_text())
    assert record["moves"] == ["E@c3", "S@d4"] and record["seed"] == 2
    assert record["result"] is None or not record["result"].get("over")
    assert ludoteca("replay", str(path)).returncode == 0


def test_ctrl_c_stops_a_long_perft_at_once():
    proc = _start("perft", "kuniumi", START, "30")
    try:
        time.sleep(2)  # well into the count, which would take years
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted" in err
    assert "Traceback" not in err and out == ""
