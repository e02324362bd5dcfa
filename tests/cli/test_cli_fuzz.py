"""Property-based search for command lines that end in a traceback.

Every command is run in-process through :func:`ludoteca.cli.main.main` with arguments drawn
from valid ones, mutated ones and known troublemakers (numbers in other scripts, 5000-digit
numbers, NaN, missing folders, NUL bytes, lone surrogates, broken JSON). Whatever the
arguments, the command must end with status 0 or 2 (argparse's usage errors are 2 too), print
no traceback, keep a refusal to one short line, and write nothing when it refuses.

Work that valid arguments would start (a tournament, a benchmark, a deep perft, a server) is
replaced by :class:`Started`: by then every argument has been checked, which is what is
searched here; the work itself has its own tests. ``LUDOTECA_FUZZ_EXAMPLES=5000`` searches
longer than the default 200 examples a test.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ludoteca.bots.base import Bot
from ludoteca.bots.registry import make_bot
from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.core.errors import MalformedError

GAMES = ["comune", "comino", "kuniumi", "hexagone"]
HUGE = "9" * 5000

NUMBERS = [
    "0", "1", "2", "3", "4", "5", "-1", "--3", "+1", "007", "1.0", "1e9", "1e999", "0x10",
    "١", "１", "²", "٣", "๓", " 1", "1 ", "1_0", "nan", "inf", "-inf", "NaN", HUGE, "-" + HUGE,
    "99999999999999999999", "2147483648", "9223372036854775808",
]  # fmt: skip
JUNK = [
    "", " ", "\t", "\n", "-", "--", "\x00", "a\x00b", "é", "\u2028", "\udcff", "\ud800",
    "{}", "[]", "null", "{", '{"cells":{}}', '{"captured":[[' + HUGE + "]]}", "[" * 3000,
    "x" * 5000, "=", "==", ",", ":", "random", "pass", "/", ".", "..",
]  # fmt: skip
PATHS = [
    "/nonexistent/x.png", "/dev/null/x.png", "/dev/null", "/", ".", "", "\x00", "x.png",
    "out/x.png", "x.nosuchformat", "x", "a" * 300 + ".png", "/proc/version",
]  # fmt: skip
BOT_NAMES = [
    "random", "greedy", "mcts", "alphabeta", "planner", "easy", "medium", "hard", "master",
    "human", "nosuch", "", "RANDOM", " random ",
]  # fmt: skip
BOT_KEYS = [
    "seconds", "iterations", "depth", "c", "cutoff", "best_of", "max_nodes", "reuse", "step",
    "noise", "seed", "x", "", "__class__",
]  # fmt: skip


class Started(Exception):
    """Raised where a valid command would start its long work: its arguments all passed."""


def _positions() -> dict[str, list[str]]:
    """Each game's start (for every number of players) and a few positions later on."""
    from random import Random

    from ludoteca.core.table import sample_chance

    positions: dict[str, list[str]] = {}
    for game in GAMES:
        players = [1, 2, 3, 4] if game == "hexagone" else [2]
        positions[game] = []
        for n in players:
            state = get(game, players=n).new_state(seed=n)
            rng = Random(n)
            for ply in range(31):
                if ply % 10 == 0:
                    positions[game].append(state.position())
                if state.is_over:
                    break
                if state.to_move < 0:
                    state.play(sample_chance(state, rng))
                else:
                    state.play(rng.choice(state.legal_moves()))
    return positions


POSITIONS = _positions()
MOVES = {
    game: sorted(
        {
            str(get(game, players=2).new_state(seed=1).move_to_str(m))
            for m in get(game, players=2).new_state(seed=1).legal_moves()[:20]
        }
    )
    for game in GAMES
}


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with one edit: a character changed, a cut, a huge number or junk inserted."""
    if not text:
        return draw(st.sampled_from(JUNK))
    where = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["change", "cut", "insert", "same"]))
    if kind == "change":
        return text[:where] + draw(st.characters()) + text[where + 1 :]
    if kind == "cut":
        return text[:where]
    if kind == "insert":
        return (
            text[:where]
            + draw(st.sampled_from(["9" * 5000, "-", "١", "[", ",", " "]))
            + text[where:]
        )
    return text


def hostile(*valid: str) -> st.SearchStrategy[str]:
    """Any argument: mostly one of the valid ones (so that the rest of a command line gets
    its turn), else one mutated, a known troublemaker, or any text."""
    choices = [st.sampled_from(NUMBERS), st.sampled_from(JUNK), st.text(max_size=30)]
    if valid:
        choices = [*[st.sampled_from(valid)] * 6, st.sampled_from(valid).flatmap(mutated), *choices]
    return st.one_of(*choices)


@st.composite
def bot_spec(draw, cheap: bool = False) -> str:
    """A bot spec: a name and budgets, valid or not. ``cheap`` keeps valid bots fast."""
    names = ["random", "greedy", "human", "nosuch", "", " greedy "] if cheap else BOT_NAMES
    name = draw(st.sampled_from(names))
    if draw(st.integers(0, 3)) == 0:  # half the time a plain name: most specs are
        return name
    parts = draw(
        st.lists(
            st.tuples(
                st.sampled_from(BOT_KEYS), st.one_of(st.sampled_from(NUMBERS), st.text(max_size=5))
            ),
            max_size=3,
        )
    )
    if cheap and name.strip() == "greedy":
        parts = [("noise", v) for _, v in parts]
    text = ",".join(f"{k}={v}" for k, v in parts)
    spec = f"{name}:{text}" if parts or draw(st.booleans()) else name
    return draw(
        st.one_of(*[st.just(spec)] * 3, st.just(spec).flatmap(mutated), st.sampled_from(JUNK))
    )


def game_name() -> st.SearchStrategy[str]:
    return st.one_of(
        *[st.sampled_from(GAMES)] * 4, st.sampled_from(["race", "Comune", "chess", ""])
    )


@st.composite
def options(draw, players: bool = True) -> list[str]:
    argv: list[str] = []
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        key = draw(st.sampled_from(["players", "gaps", "target", "x", "", "players "]))
        value = draw(hostile("1", "2", "3", "4", "true", "false"))
        argv += [draw(st.sampled_from(["-o", "--option"])), f"{key}={value}"]
    if players and draw(st.integers(0, 3)) == 0:
        argv += ["--players", draw(hostile("1", "2", "3", "4"))]
    return argv


@st.composite
def position_command(draw) -> list[str]:
    command = draw(st.sampled_from(["legal", "show", "perft", "apply"]))
    game = draw(st.sampled_from(GAMES))
    argv = [command, draw(st.one_of(st.just(game), game_name()))]
    argv.append(draw(hostile(*POSITIONS[game])))
    if command == "perft":
        argv.append(draw(hostile("0", "1", "2", "3", "30")))
        if draw(st.booleans()):
            argv.append("--divide")
    if command == "apply":
        argv += draw(st.lists(hostile(*MOVES[game]), max_size=3))
    if command == "show" and draw(st.booleans()):
        argv.append("--json")
    return argv + draw(options(players=False))


@st.composite
def tournament_command(draw) -> list[str]:
    command = draw(st.sampled_from(["arena", "analyze"]))
    argv = [command, draw(game_name())]
    if command == "arena":
        argv += draw(st.lists(bot_spec(), min_size=1, max_size=3))
    else:
        argv += ["--level", draw(bot_spec())]
    for flag, valid in [
        ("--games", ("1", "2")),
        ("--seed", ("1", "0")),
        ("--jobs", ("1", "2")),
        ("--plot", PATHS),
        ("--out", ("out", "out/deeper")),
    ]:
        if (command == "analyze" and flag == "--out") or not draw(st.booleans()):
            continue
        argv += [flag, draw(hostile(*valid))]
    return argv + draw(options()) + ["-q"]


@st.composite
def play_command(draw) -> list[str]:
    argv = ["play", draw(game_name()), "--no-color"]
    if draw(st.booleans()):
        argv += ["--vs", draw(bot_spec(cheap=True))]
    if draw(st.booleans()):
        seats = draw(st.lists(bot_spec(cheap=True), min_size=1, max_size=5))
        argv += ["--seats", ",".join(seats)]
    for flag, valid in [("--seat", ("1", "2")), ("--seed", ("1", "5"))]:
        if draw(st.booleans()):
            argv += [flag, draw(hostile(*valid))]
    if draw(st.booleans()):
        argv += ["--record", draw(hostile("r.json", "games/r.json", *PATHS))]
    return argv + draw(options())


@st.composite
def other_command(draw) -> list[str]:
    command = draw(st.sampled_from(["bench", "serve", "replay", "nosuch", ""]))
    if command == "bench":
        argv = ["bench", draw(game_name()), "--no-limit"]
        argv += ["--seconds", draw(hostile("0.1", "1"))]
        if draw(st.booleans()):
            argv += ["--seed", draw(hostile("1"))]
        return argv + draw(options())
    if command == "serve":
        argv = ["serve"]
        for flag, valid in [
            ("--port", ("8000", "0", "65535")),
            ("--registrations-per-hour", ("1", "10")),
            ("--database", ("sqlite:///club.sqlite3", "postgresql://u@h/db", "nosuch://")),
            ("--bot-pool", ("process", "thread")),
            ("--bot-workers", ("1", "8")),
        ]:
            if draw(st.booleans()):
                argv += [flag, draw(hostile(*valid))]
        return argv
    if command == "replay":
        return ["replay", "{record}", *draw(st.lists(st.sampled_from(["--boards"]), max_size=1))]
    return [command, *draw(st.lists(hostile("-h", "--version"), max_size=2))]


RECORD_FIELDS = ["game", "rules_version", "options", "seed", "start", "players", "moves", "result"]


@st.composite
def record_text(draw) -> str:
    """A game record, whole or with one field replaced by something hostile."""
    game = draw(st.sampled_from(GAMES))
    state = get(game, players=2).new_state(seed=1)
    data = {
        "format": "ludoteca-record",
        "format_version": 1,
        "game": game,
        "rules_version": get(game, players=2).rules_version,
        "options": dict(get(game, players=2).options),
        "seed": 1,
        "start": state.position(),
        "players": ["a", "b"],
        "moves": [state.move_to_str(state.legal_moves()[0])],
        "result": None,
        "started": "2026-01-01T00:00:00Z",
    }
    if draw(st.booleans()):
        field = draw(st.sampled_from(RECORD_FIELDS))
        value = draw(
            st.one_of(
                st.sampled_from([None, True, -1, 2**70, [], {}, [[]], {"players": "--3"}]),
                hostile(),
                st.just(HUGE),
            )
        )
        data[field] = value
    text = json.dumps(data)
    if draw(st.booleans()):  # a huge bare number, which json.dumps would quote
        text = text.replace('"seed": 1', f'"seed": {HUGE}').replace(
            '"seed": "' + HUGE + '"', f'"seed": {HUGE}'
        )
    return draw(st.one_of(st.just(text), st.just(text).flatmap(mutated)))


def run_in_empty_folder(argv: list[str], answers: list[str], record: str | None = None) -> tuple:
    """Run ``main(argv)`` in a fresh folder; return the status, outputs and files left.

    Output goes through UTF-8 streams as in a terminal: stdout strict (an unprintable
    character echoed there would raise), stderr with backslash escapes, as Python sets them.
    """
    lines = iter(answers)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    with tempfile.TemporaryDirectory() as folder:
        here = os.getcwd()
        os.chdir(folder)
        try:
            if record is not None:
                Path(folder, "r.json").write_text(record, encoding="utf-8", errors="surrogatepass")
                argv = [a.replace("{record}", "r.json") for a in argv]
                before = {"r.json"}
            else:
                before = set()
            import builtins

            saved_input = builtins.input
            builtins.input = fake_input
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    try:
                        code: int | str = main(argv)
                    except Started:
                        code = "started"
                    out.flush()
                    err.flush()
            finally:
                builtins.input = saved_input
            left = {str(p.relative_to(folder)) for p in Path(folder).rglob("*")} - before
        finally:
            os.chdir(here)
    text_out = out.buffer.getvalue().decode("utf-8", "replace")
    text_err = err.buffer.getvalue().decode("utf-8", "replace")
    return code, text_out, text_err, left


def check(argv: list[str], answers: list[str] = (), record: str | None = None) -> None:
    code, out, err, left = run_in_empty_folder(list(argv), list(answers), record)
    event(f"{argv[0] if argv else 'no command'}: {code}")
    shown = [a[:80] for a in argv]
    assert code in (0, 2, "started"), (shown, code, err[-800:])
    assert "Traceback" not in out + err, (shown, err[-800:])
    if code == 2:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        assert last, (shown, "a refusal says why")
        assert len(last) < 500, (shown, "a long input is cut in the message", last[:200])
        assert not left, (shown, "a refused command wrote", left)


@pytest.fixture
def no_long_work(monkeypatch):
    """Replace the long work valid commands start by :class:`Started`."""
    from ludoteca.cli.commands import perft as perft_command
    from ludoteca.core import perft as perft_module

    def started(*_args, **_kwargs):
        raise Started

    for target in (
        "ludoteca.cli.commands.arena.run_jobs",
        "ludoteca.bots.analysis.run_jobs",
        "ludoteca.cli.commands.bench.api_rate",
        "ludoteca.web.app.create_app",
        "uvicorn.run",
    ):
        monkeypatch.setattr(target, started)

    def shallow(real):
        def count(state, depth):
            if depth > 2:
                raise Started
            return real(state, depth)

        return count

    monkeypatch.setattr(perft_command, "perft", shallow(perft_module.perft))
    monkeypatch.setattr(perft_command, "divide", shallow(perft_module.divide))


FUZZ = settings(
    max_examples=int(os.environ.get("LUDOTECA_FUZZ_EXAMPLES", "200")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(argv=position_command())
def test_position_commands_never_fail_with_a_traceback(no_long_work, argv):
    check(argv)


@FUZZ
@given(argv=tournament_command())
def test_arena_and_analyze_never_fail_with_a_traceback(no_long_work, argv):
    check(argv)


@settings(FUZZ, max_examples=FUZZ.max_examples)
@given(argv=play_command(), answers=st.lists(hostile("moves", "undo", "board", "help"), max_size=4))
def test_play_never_fails_with_a_traceback(no_long_work, argv, answers):
    check(argv, answers + ["quit"])


@FUZZ
@given(argv=other_command(), record=record_text())
def test_bench_serve_replay_and_unknown_commands_never_fail_with_a_traceback(
    no_long_work, argv, record
):
    check(argv, record=record)


# --- bot specs ---------------------------------------------------------------------------------
@settings(max_examples=400, deadline=None, database=None)
@given(spec=st.one_of(bot_spec(), st.text(max_size=40)))
def test_every_bot_spec_gives_a_bot_or_the_documented_error(spec):
    try:
        bot = make_bot(spec, seed=1)
    except MalformedError as exc:
        assert str(exc) and "\n" not in exc.reason
    else:
        assert isinstance(bot, Bot)


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:seconds=nan",
        "mcts:seconds=inf",
        "mcts:seconds=1e999",
        "mcts:seconds=" + HUGE,
        "mcts:seconds=１",
        "mcts:c=nan",
        "alphabeta:depth=1_0",
        "mcts:seconds=1,seconds=2",
    ],
)
def test_bot_specs_refuse_numbers_no_clock_can_keep(spec):
    with pytest.raises(MalformedError):
        make_bot(spec)
