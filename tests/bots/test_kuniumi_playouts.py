"""Kuniumi's search plays out with the wary policy unless told otherwise."""

from __future__ import annotations

import dataclasses

import ludoteca.games.kuniumi.ai as kuniumi_ai
from ludoteca.bots import make_bot
from ludoteca.bots.base import Budget
from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.games.kuniumi.ai import KNOWLEDGE

MIDGAME = "6/ll1lEl/3sss/1s4/2s1sS/l4l play sea sea"


def _policies(monkeypatch, bot: MCTSBot) -> set[str]:
    """The policies of the playouts ``bot``'s search asks the engine for."""
    seen: set[str] = set()
    original = kuniumi_ai.playout

    def spy(state, rng, *, policy="uniform", best_of=1, amaf=None):
        seen.add(policy)
        return original(state, rng, policy=policy, amaf=amaf)

    monkeypatch.setattr(kuniumi_ai, "KNOWLEDGE", dataclasses.replace(KNOWLEDGE, playout=spy))
    bot.search(get("kuniumi").from_position(MIDGAME), Budget(iterations=60))
    return seen


def test_the_default_playouts_are_wary(monkeypatch):
    assert KNOWLEDGE.playout_policy == "wary"
    assert _policies(monkeypatch, MCTSBot(seed=1)) == {"wary"}


def test_uniform_playouts_are_an_option(monkeypatch):
    bot = make_bot("mcts:playout=uniform", seed=1)
    assert isinstance(bot, MCTSBot)
    assert _policies(monkeypatch, bot) == {"uniform"}


def test_a_win_in_one_is_found_with_either_playout():
    state = get("kuniumi").from_position("1s2s1/s2ll1/3ll1/ss2ls/3Es1/4Sl play land sea")
    for spec in ("mcts:exact=0", "mcts:exact=0,playout=uniform"):
        move = make_bot(spec, seed=2).choose(state, iterations=300)
        after = state.clone()
        after.play(move)
        assert after.result is not None and after.result.winners == (state.to_move,)
