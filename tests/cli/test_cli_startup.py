"""``ludoteca play`` shows the board at once: compiled playouts are readied only for bots that
search with them, in the background, and a bot's first move waits for them.

The time itself is measured by ``python bench/startup.py`` (a timed unit test would be
flaky on a shared machine); these check the mechanism.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from ludoteca.bots import mcts
from ludoteca.cli.main import main

SCRIPT = """
import sys
from ludoteca.cli.main import main
main(["play", GAME, "--vs", "random", "--seed", "1", "--record", RECORD])
print("numba" in sys.modules)
"""


@pytest.mark.parametrize("game", ["kuniumi", "comune", "hexagone"])
def test_play_against_random_never_imports_numba(tmp_path, game):
    script = SCRIPT.replace("GAME", repr(game)).replace("RECORD", repr(str(tmp_path / "r.json")))
    out = subprocess.run(
        [sys.executable, "-c", script],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_a_searching_bot_moves_only_once_its_playouts_are_ready(monkeypatch, tmp_path, capsys):
    """The computer moves first here: its move waits for the warm-up running beside it."""
    events: list[str] = []
    real_warm_up, real_choose = mcts.warm_up, mcts.MCTSBot.choose

    def slow_warm_up(state):
        time.sleep(0.3)  # longer than the board takes to show: the move must wait for it
        real_warm_up(state)
        events.append("warmed")

    def choose(self, state, **kwargs):
        events.append("choose")
        return real_choose(self, state, **kwargs)

    monkeypatch.setattr(mcts, "warm_up", slow_warm_up)
    monkeypatch.setattr(mcts.MCTSBot, "choose", choose)
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    path = tmp_path / "game.json"
    code = main(
        ["play", "kuniumi", "--vs", "mcts:iterations=20", "--seat", "2", "--seed", "3"]
        + ["--record", str(path)]
    )
    assert code == 0
    assert "Kuniumi - seed 3" in capsys.readouterr().out
    assert events[:2] == ["warmed", "choose"]


def test_the_board_shows_before_the_warm_up_ends(monkeypatch, tmp_path, capsys):
    """A person moving first sees the board and is asked for a move while it runs."""
    release = threading.Event()
    done = threading.Event()
    asked: list[bool] = []

    def held_warm_up(state):
        release.wait(2)
        done.set()

    def answer(prompt=""):
        asked.append(not done.is_set())
        release.set()
        return "quit"

    monkeypatch.setattr(mcts, "warm_up", held_warm_up)
    monkeypatch.setattr("builtins.input", answer)
    code = main(
        ["play", "kuniumi", "--vs", "hard", "--seed", "3", "--record", str(tmp_path / "g.json")]
    )
    assert code == 0 and asked == [True]
