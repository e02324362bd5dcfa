"""Adding a game is one package: ``tests/support/threerow``, named in
``LUDOTECA_GAME_PACKAGES``, is listed, played in the terminal, in the arena with every kind of
bot, passes the conformance checks and the board contract, and is played to the end in the
club in a real browser, with no edit anywhere in ``ludoteca``."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.core import registry
from ludoteca.core.conformance import check_playout
from tests.web.browser import browser  # noqa: F401 - the Chromium fixture

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tests.support.threerow"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), registry.PACKAGES_VARIABLE: PACKAGE}


def ludoteca(*args: str, env=ENV, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture
def plugged(monkeypatch):
    monkeypatch.setenv(registry.PACKAGES_VARIABLE, PACKAGE)
    return registry.get("threerow")


def test_it_is_listed_only_when_named():
    listed = {g["id"]: g for g in json.loads(ludoteca("games", "--json").stdout)}
    assert listed["threerow"]["package"] == PACKAGE
    plain = {**ENV}
    del plain[registry.PACKAGES_VARIABLE]
    listed = json.loads(ludoteca("games", "--json", env=plain).stdout)
    assert "threerow" not in {g["id"] for g in listed}


def test_a_package_that_is_no_game_is_named_in_the_refusal():
    out = ludoteca("games", env={**ENV, registry.PACKAGES_VARIABLE: "tests.support.nothing"})
    assert out.returncode == 2
    assert "game package 'tests.support.nothing' cannot be imported" in out.stderr


def test_it_plays_in_the_terminal_and_its_record_replays(tmp_path):
    record = tmp_path / "game.json"
    out = ludoteca(
        "play", "threerow", "--seats", "random,greedy", "--seed", "3", "--record", str(record)
    )
    assert out.returncode == 0, out.stderr
    assert re.search(r"x made a line|o made a line|the grid is full", out.stdout)
    replayed = ludoteca("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr


def test_it_plays_in_the_arena_against_every_kind_of_bot():
    out = ludoteca(
        "arena",
        "threerow",
        "random",
        "greedy",
        "mcts:iterations=200",
        "alphabeta:depth=9",
        "--games",
        "2",
        "--jobs",
        "1",
        "--seed",
        "1",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    text = json.dumps(report)
    assert all(bot in text for bot in ("random", "greedy", "mcts", "alphabeta"))


def test_it_passes_the_conformance_checks_and_the_board_contract(plugged):
    for seed in range(20):
        check_playout(plugged, seed)
    state = plugged.new_state()
    drawn = set(re.findall(r'data-cell="([^"]*)"', plugged.render_svg(state)))
    assert {state.move_cells(m)[0] for m in state.legal_moves()} == drawn
    assert plugged.search_knowledge().evaluate is not None  # its own ai.py is read


def test_it_is_played_to_the_end_in_the_club(browser, tmp_path):  # noqa: F811 - the fixture
    from tests.web.browser import register_in_browser, wait_my_turn_or_end
    from tests.web.helpers import Server

    srv = Server(
        f"sqlite:///{tmp_path / 'club.sqlite3'}",
        toy=False,
        log=tmp_path / "server.log",
        env={"PYTHONPATH": str(ROOT), registry.PACKAGES_VARIABLE: PACKAGE},
    ).start()
    try:
        context = browser.new_context(viewport={"width": 1000, "height": 800})
        page = context.new_page()
        register_in_browser(page, srv.base, "fifth1")
        page.goto(f"{srv.base}/games/new?game=threerow")
        page.select_option('select[name="seat0"]', "me")
        page.select_option('select[name="seat1"]', "bot")
        page.select_option('select[name="seat1_bot"]', "random")
        page.click("#create")
        page.wait_for_selector("#play[data-synced='1']")
        rng = random.Random(2)
        for _ in range(6):
            wait_my_turn_or_end(page)
            if page.get_attribute("#play", "data-status") == "finished":
                break
            assert "Click an empty square" in page.inner_text("#controls")
            free = page.eval_on_selector_all(
                "#board rect.cell.target", "els => els.map(e => e.dataset.cell)"
            )
            cell = rng.choice(free)
            ply = page.get_attribute("#play", "data-ply")
            page.locator(f'#board rect.cell[data-cell="{cell}"]').click()
            page.wait_for_function(
                "old => document.getElementById('play').dataset.ply !== old", arg=ply
            )
        page.wait_for_function(
            "() => document.getElementById('play').dataset.status === 'finished'"
        )
        status = page.inner_text("#status")
        assert "Winner" in status or "Draw" in status
        context.close()
    finally:
        srv.kill()
