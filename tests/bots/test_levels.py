"""Named levels: each is its documented bot, per game where a game names another."""

from __future__ import annotations

import ludoteca.bots.levels as levels_module
from ludoteca.bots import LEVELS, make_bot
from ludoteca.bots.levels import Level, LevelBot
from ludoteca.core import get
from ludoteca.games.comino import ai as comino_ai
from ludoteca.games.kuniumi import ai as kuniumi_ai
from tests.bots.helpers import random_positions


def test_levels_are_the_documented_bots():
    assert [LEVELS[n].spec for n in ("easy", "medium", "hard", "master")] == [
        "greedy",
        "mcts:seconds=0.25",
        "mcts:seconds=1",
        "mcts:seconds=4",
    ]
    for level in LEVELS.values():
        assert f"``{level.spec}``" in levels_module.__doc__


def test_a_level_plays_as_its_bot_with_the_same_seed():
    positions = random_positions(get("toy-nim", pile=30), 20, seed=1)
    easy, greedy = make_bot("easy", seed=7), make_bot("greedy", seed=7)
    assert [easy.choose(s) for s in positions] == [greedy.choose(s) for s in positions]


def test_call_budgets_override_the_level():
    bot = make_bot("master", seed=1)
    bot.choose(get("toy-nim", pile=300).new_state(), iterations=12)
    (inner,) = bot._bots.values()
    assert inner.last_iterations == 12


def test_per_game_specs(monkeypatch):
    """A game's search knowledge names the spec a level plays there, per player count."""
    from ludoteca.core.ai import SearchKnowledge

    nim, coins = type(get("toy-nim")), type(get("toy-coins"))
    own = {
        nim: SearchKnowledge(level_specs={"custom": "greedy"}),
        coins: SearchKnowledge(solo_level_specs={"custom": "planner"}),
    }
    for cls, knowledge in own.items():
        monkeypatch.setattr(cls, "search_knowledge", lambda self, k=knowledge: k)
    level = Level("custom", "test", "random")
    bot = LevelBot(level, make_bot, seed=1)
    assert level.spec_for(get("toy-nim").new_state()) == "greedy"
    assert level.spec_for(get("toy-coins").new_state()) == "planner"
    assert level.spec_for(get("toy-gamble").new_state()) == "random"
    assert bot.choose(get("toy-nim", pile=2).new_state()) == 2  # greedy takes the win


def test_hexagone_levels_with_two_to_four_players_are_their_own_ladder():
    """Below the search: greedy with a falling share of random moves, then MCTS on top."""
    solo = get("hexagone").new_state(seed=1)
    for players in (2, 3, 4):
        state = get("hexagone", players=players).new_state(seed=1)
        specs = [LEVELS[n].spec_for(state) for n in ("easy", "medium", "hard", "master")]
        noise = [make_bot(spec).noise for spec in specs[:3]]
        assert noise[0] > noise[1] > noise[2] == 0
        assert make_bot(specs[3]).name == "mcts"
        for spec in specs:
            assert f"``{spec}``" in levels_module.__doc__
    for level in LEVELS.values():
        assert level.spec_for(solo) == level.spec


def test_comino_levels_play_scoring_playouts_medium_a_twentieth_and_master_eight_seconds():
    """Comino's master used to play out with the better of two placements; against hard's
    scoring playouts (the best of ten) that was no better than hard, so master plays hard's
    playouts. With compiled playouts a quarter of a second held four times the simulations it
    used to and four seconds as many again, so neither medium nor master was a clear step
    from hard: medium searches a twentieth of a second, master eight seconds."""
    state = get("comino").new_state(seed=1)
    specs = {n: LEVELS[n].spec_for(state) for n in LEVELS}
    assert specs == {n: LEVELS[n].spec for n in LEVELS} | {
        "medium": "mcts:seconds=0.05",
        "master": "mcts:seconds=8",
    }
    master = make_bot(specs["master"])
    assert master.budget.seconds == 8 and master.best_of == 1
    assert make_bot(specs["medium"]).budget.seconds == 0.05
    assert comino_ai.KNOWLEDGE.playout_policy == "scoring"


def test_kuniumi_medium_is_the_plain_search():
    """Kuniumi's medium searches a quarter of a second without the endgame solver and with
    uniform playouts, so that hard is a step above it; the other levels are the standard
    ones, which keep both."""
    state = get("kuniumi").new_state(seed=1)
    specs = {n: LEVELS[n].spec_for(state) for n in LEVELS}
    assert specs["medium"] == kuniumi_ai.LEVEL_SPECS["medium"]
    medium = make_bot(specs["medium"])
    assert medium.budget.seconds == 0.25
    assert medium.exact is False and medium.playout == "uniform"
    hard = make_bot(specs["hard"])
    assert hard.exact is True and hard.playout is None
    assert [specs[n] for n in ("easy", "hard", "master")] == [
        LEVELS[n].spec for n in ("easy", "hard", "master")
    ]
    assert f"``{specs['medium']}``" in levels_module.__doc__
