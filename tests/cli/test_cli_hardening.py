"""Hostile command lines get one line on stderr and exit status 2, never a traceback, and a
refused command writes nothing. Each test names the kind of input that once slipped through.
"""

from __future__ import annotations

import json

import pytest

from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.record import Record, save

KUNIUMI = "6/6/6/6/6/6 setup"
HUGE = "9" * 5000


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str) -> str:
    """Run a command that must be refused; return its one-line message."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out[-300:], err[-300:])
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert lines, "a refusal says why"
    assert len(lines[-1]) < 400, "a long input is cut in the message"
    return lines[-1]


def hexagone_start(players: int = 2) -> str:
    return get("hexagone", players=players).new_state(seed=3).position()


def with_huge_number(position: str) -> str:
    """The Hexagone position with a 5000-digit number where a small one is expected."""
    data = json.loads(position)
    data["captured"][0] = [int(HUGE[:10])]
    return json.dumps(data).replace(HUGE[:10], HUGE)


# --- finding 10: option values, players, huge numbers ----------------------------------------
@pytest.mark.parametrize("value", ["--3", "²", "１", "٣", HUGE, "-" + HUGE, "3.0", ""])
def test_a_bad_players_option_is_refused_in_one_line(capsys, value):
    line = refused(capsys, "legal", "hexagone", hexagone_start(), "-o", f"players={value}")
    assert line.startswith("ludoteca legal: ") and "players" in line


def test_an_option_given_twice_or_without_a_value_is_refused(capsys):
    start = hexagone_start()
    assert "twice" in refused(
        capsys, "legal", "hexagone", start, "-o", "players=2", "-o", "gaps=0", "-o", "players=2"
    )
    refused(capsys, "legal", "hexagone", start, "-o", "players")
    refused(capsys, "arena", "hexagone", "random", "random", "-o", "players=2", "--players", "3")


@pytest.mark.parametrize(
    "argv",
    [
        ("analyze", "comune", "--players", "1", "--games", "1", "-j", "1", "-q"),
        ("analyze", "comino", "--players", "3", "--games", "1", "-j", "1", "-q"),
        ("arena", "comune", "random", "--players", "1", "--games", "1", "-j", "1", "-q"),
        ("arena", "kuniumi", "random", "random", "random", "--players", "3", "-q"),
        ("arena", "hexagone", "random", "--players", "5", "-q"),
        ("analyze", "hexagone", "--players", "0", "-q"),
        ("bench", "comune", "-o", "players=3", "--seconds", "0.1"),
    ],
)
def test_a_number_of_players_the_game_is_not_for_is_refused_before_any_game(
    capsys, monkeypatch, argv
):
    def no_games(*_args, **_kwargs):
        raise AssertionError("games were played before the command was refused")

    monkeypatch.setattr("ludoteca.bots.arena.run_jobs", no_games)
    monkeypatch.setattr("ludoteca.bots.analysis.run_jobs", no_games)
    assert "players" in refused(capsys, *argv)


def test_play_refuses_a_number_of_players_the_game_is_not_for(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": "pass")
    line = refused(capsys, "play", "comune", "--players", "1", "--no-color")
    assert "Comune is for 2 players" in line
    assert list(tmp_path.iterdir()) == [], "a refused game leaves no record"


@pytest.mark.parametrize("command", ["legal", "show", "perft"])
def test_a_huge_number_in_a_hexagone_position_is_refused(capsys, command):
    extra = ["1"] if command == "perft" else []
    line = refused(capsys, command, "hexagone", with_huge_number(hexagone_start()), *extra)
    assert "5" in line and "characters" in line  # the position is named, cut


def test_a_record_with_a_huge_seed_or_start_is_refused(capsys, tmp_path):
    state = get("kuniumi").new_state(seed=1)
    path = save(Record.begin(state, seed=1, players=["a", "b"]), tmp_path / "seed.json")
    path.write_text(path.read_text().replace('"seed": 1', f'"seed": {HUGE}'))
    assert "seed.json" in refused(capsys, "replay", str(path))

    hexagone = get("hexagone", players=2).new_state(seed=3)
    record = Record.begin(hexagone, seed=3, players=["a", "b"])
    record.start = with_huge_number(hexagone.position())
    path = save(record, tmp_path / "start.json")
    refused(capsys, "replay", str(path))


@pytest.mark.parametrize("command", ["arena", "analyze"])
@pytest.mark.parametrize("plot", ["/nonexistent/x.png", "{tmp}", "{tmp}/x.nosuchformat"])
def test_a_plot_path_is_checked_before_any_game(capsys, monkeypatch, tmp_path, command, plot):
    def no_games(*_args, **_kwargs):
        raise AssertionError("games were played before the plot path was checked")

    monkeypatch.setattr("ludoteca.bots.arena.run_jobs", no_games)
    monkeypatch.setattr("ludoteca.bots.analysis.run_jobs", no_games)
    bots = ["random", "random"] if command == "arena" else []
    path = plot.format(tmp=tmp_path)
    line = refused(capsys, command, "kuniumi", *bots, "--games", "1", "-q", "--plot", path)
    assert "--plot" in line


def test_an_arena_out_folder_that_is_a_file_is_refused_before_any_game(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    line = refused(capsys, "arena", "kuniumi", "random", "random", "--out", str(blocker / "x"))
    assert "--out" in line


@pytest.mark.parametrize("command", ["arena", "analyze"])
def test_a_plot_that_cannot_be_written_after_the_games_keeps_the_results(
    capsys, monkeypatch, tmp_path, command
):
    import matplotlib.figure

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", disk_full)
    bots = ["random", "greedy"] if command == "arena" else []
    argv = [command, "race", *bots, "--games", "2", "-j", "1", "-q"]
    line = refused(capsys, *argv, "--plot", str(tmp_path / "plot.png"))
    assert "No space left" in line
    code, out, _ = run(capsys, *argv, "--plot", str(tmp_path / "plot.png"))
    assert "random" in out, "the results were printed before the plot failed"


# --- finding 11: only ASCII digits are numbers -------------------------------------------------
@pytest.mark.parametrize("depth", ["١", "１", "٣", "²", " 1", "1_0", "+1", "-1", "1.0", HUGE])
def test_perft_depth_is_plain_ascii_digits(capsys, depth):
    refused(capsys, "perft", "kuniumi", KUNIUMI, depth)


@pytest.mark.parametrize(
    "argv",
    [
        ("arena", "race", "random", "random", "--games", "１"),
        ("arena", "race", "random", "random", "--seed", "-1"),
        ("analyze", "race", "--jobs", "٢"),
        ("play", "race", "--seat", "１"),
        ("play", "race", "--seed", HUGE),
        ("bench", "race", "--seconds", "nan"),
        ("bench", "race", "--seconds", "inf"),
        ("bench", "race", "--seconds", "-1"),
        ("serve", "--port", "99999"),
        ("serve", "--port", "８０"),
    ],
)
def test_every_count_is_plain_ascii_digits_in_range(capsys, monkeypatch, tmp_path, argv):
    monkeypatch.chdir(tmp_path)
    refused(capsys, *argv)
    assert list(tmp_path.iterdir()) == []


# --- finding 10: perft with an absurd depth -----------------------------------------------------
@pytest.mark.parametrize(("game", "position"), [("kuniumi", KUNIUMI), ("race", "0 0")])
def test_perft_refuses_a_depth_no_game_reaches(capsys, game, position):
    longest = get(game).max_game_length
    line = refused(capsys, "perft", game, position, str(longest + 1))
    assert f"at most {longest}" in line
    code, out, _ = run(capsys, "perft", "race", "0 0", "40")
    assert code == 0 and out.strip() == "0"


# --- finding 13: long inputs are cut in messages ------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ("legal", "kuniumi", "x" * 5000),
        ("apply", "kuniumi", KUNIUMI, "E@" + "c" * 5000),
        ("legal", "nosuchgame" * 500, "x"),
        ("arena", "kuniumi", "mcts:" + "seconds=1," * 500 + "x"),
        ("perft", "kuniumi", KUNIUMI, "x" * 5000),
        ("legal", "kuniumi", KUNIUMI, "-o", "k" * 5000 + "=1"),
        ("legal", "kuniumi", "\n".join(["6/6/6"] * 50)),
    ],
)
def test_long_inputs_are_cut_in_messages(capsys, argv):
    line = refused(capsys, *argv)
    assert "characters" in line or len(line) < 200


def test_play_cuts_a_long_typed_move_in_its_message(capsys, monkeypatch, tmp_path):
    answers = iter(["+" + "9" * 5000, "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "race", "--seed", "1", "--record", str(tmp_path / "r.json"))
    assert code == 0
    assert max(len(line) for line in out.splitlines()) < 400
    assert "characters" in out


def test_error_messages_stay_on_one_line(capsys):
    line = refused(capsys, "legal", "kuniumi", "6/6/6\n6/6/6\r\u2028setup")
    code, _, err = run(capsys, "legal", "kuniumi", "6/6/6\n6/6/6\r\u2028setup")
    assert code == 2 and err.count("\n") == 1 and line.startswith("ludoteca legal: ")


@pytest.mark.parametrize("url", ["nosuch://", "not a url", "postgresql+nosuch://u@h/d"])
def test_serve_refuses_a_database_url_it_cannot_use_before_starting(capsys, monkeypatch, url):
    def no_server(*_args, **_kwargs):
        raise AssertionError("the club was started with a database URL it cannot use")

    monkeypatch.setattr("ludoteca.web.app.create_app", no_server)
    monkeypatch.setattr("uvicorn.run", no_server)
    assert "database URL" in refused(capsys, "serve", "--database", url)
