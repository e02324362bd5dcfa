"""A timed search tells the move it leads with as it goes (``ludoteca.bots.progress``), for a
caller that must answer by a deadline even when the search's process is held up."""

from __future__ import annotations

import random

from ludoteca.bots.mcts import MCTSBot
from ludoteca.bots.progress import REPORT_SHARE, leading_moves, sink
from ludoteca.core import get


def test_a_timed_search_tells_legal_leading_moves_as_it_goes():
    state = get("kuniumi").new_state()
    bot = MCTSBot(seed=3)
    bot.warm_up(state)  # its compiled playout loaded first, not inside the searched time
    told: list = []
    with leading_moves(told.append):
        move = bot.choose(state, seconds=0.4)
    assert sink() is None  # the thread's sink is gone with the block
    # one at once, then one every tenth of the time (the search stopping a little early):
    # several, however busy the machine, not one at the end
    assert 3 <= len(told) <= int(1 / REPORT_SHARE) + 1, len(told)
    legal = state.legal_moves()
    assert all(m in legal for m in told)
    assert move in legal


def test_a_search_in_parts_tells_only_whole_moves():
    state = get("comune").new_state()
    rng = random.Random(2)
    for _ in range(4):  # past the opening's single placements: turns of two parts
        state.play(rng.choice(state.legal_moves()))
    told: list = []
    with leading_moves(told.append):
        MCTSBot(seed=5).choose(state, seconds=0.5)
    legal = set(map(state.move_to_str, state.legal_moves()))
    assert told and all(state.move_to_str(m) in legal for m in told)


def test_searches_without_a_sink_or_a_time_budget_tell_nothing():
    told: list = []
    state = get("kuniumi").new_state()
    MCTSBot(seed=1).choose(state, seconds=0.2)  # no sink: nothing to tell
    with leading_moves(told.append):
        MCTSBot(seed=1).choose(state, iterations=300)  # no deadline to answer by
    assert told == []


def test_telling_the_leading_move_draws_nothing():
    """The leading move is read off the tree's best children: the bot's generator is left as
    it was, so a seeded search goes on the same whether anyone asks or not."""
    bot = MCTSBot(seed=7)
    state = get("kuniumi").new_state()
    root = bot.search(state, bot._budget(None, 400, None))
    before = bot.rng.getstate()
    leading = bot._leading_move(root)
    assert bot.rng.getstate() == before
    assert leading in state.legal_moves()
