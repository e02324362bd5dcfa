"""A search warms up (compiles) its game's fast playout only when it will play through it:
Hexagone's playouts are cut short and go move by move through the engine, so ``ludoteca
play hexagone --vs master`` must not wait for a kernel its search never runs."""

from __future__ import annotations

import subprocess
import sys

from ludoteca.bots import mcts
from ludoteca.bots.registry import make_bot
from ludoteca.core.registry import get


def warmed_by(monkeypatch, spec: str, game: str, **options) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(mcts, "warm_up", lambda state: calls.append(state.game.id))
    state = get(game, **options).new_state(seed=1)
    make_bot(spec).warm_up(state)
    return calls


def signatures_after_warm_up(game: str, module: str, function: str) -> int:
    """In a fresh process, warm a search up on ``game``'s start and count the compiled
    signatures of ``module``'s compiled ``function``: at least one if it was compiled."""
    code = (
        "from ludoteca.core.registry import get\n"
        "from ludoteca.bots.mcts import warm_up\n"
        f"from {module} import compiled\n"
        f"warm_up(get({game!r}).new_state(seed=1))\n"
        f"print(len(compiled().{function}.signatures))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=True
    )
    return int(out.stdout.strip().splitlines()[-1])


def test_whole_playouts_are_warmed_up(monkeypatch):
    assert warmed_by(monkeypatch, "mcts", "kuniumi") == ["kuniumi"]
    assert warmed_by(monkeypatch, "hard", "kuniumi") == ["kuniumi"]


def test_playouts_cut_short_or_solo_need_no_warm_up(monkeypatch):
    assert warmed_by(monkeypatch, "mcts", "hexagone", players=2) == []
    assert warmed_by(monkeypatch, "master", "hexagone", players=2) == []
    assert warmed_by(monkeypatch, "mcts", "hexagone", players=1) == []


def test_a_search_told_to_play_whole_playouts_warms_up(monkeypatch):
    assert warmed_by(monkeypatch, "mcts:cutoff=0", "hexagone", players=2) == ["hexagone"]


def test_the_warm_up_compiles_kuniumis_endgame_solver_too():
    """The first endgame a timed search solves must not wait for the compiler."""
    assert signatures_after_warm_up("kuniumi", "ludoteca.games.kuniumi.jit", "solve") >= 1


def test_the_warm_up_compiles_cominos_playout_even_during_the_deal():
    """The club warms a bot up on a game whose deal is not over: the compiled playout the
    search will use must still be ready before its first timed move."""
    assert signatures_after_warm_up("comino", "ludoteca.games.comino.jit", "play_from") >= 1
