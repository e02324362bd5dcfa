"""MCTS with RAVE ("all moves as first" statistics) and named playout policies."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.base import BotError, Budget
from ludoteca.bots.mcts import MCTSBot, Node, _amaf_backup
from ludoteca.core import get
from ludoteca.core.errors import MalformedError
from ludoteca.core.table import resolve_chance


def _start(game_id: str, plies: int = 0, seed: int = 1):
    state = get(game_id).new_state(seed=seed)
    resolve_chance(state, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("game_id, plies", [("comune", 0), ("comune", 9), ("kuniumi", 8)])
def test_every_simulation_through_a_child_credits_its_move(game_id, plies):
    """At the root, a child's move counts in the statistics of every simulation that went
    through it, and of some that played it later: never fewer than its visits, never more
    than the root's."""
    bot = MCTSBot(seed=3, rave=300)
    root = bot.search(_start(game_id, plies), Budget(iterations=400))
    assert root.amaf_n is not None and root.children
    for child in root.children:
        assert child.key >= 0
        assert child.visits <= root.amaf_n[child.key] <= root.visits
    assert root.amaf_n.sum() > sum(ch.visits for ch in root.children)  # later moves count
    assert (root.amaf_w <= root.amaf_n).all() and (root.amaf_w >= 0).all()


def test_untried_moves_are_added_best_amaf_mean_first():
    bot = MCTSBot(seed=4, rave=300)
    root = bot.search(_start("comune", 2), Budget(iterations=60))
    assert root.untried, "a Comune position has more first placements than 60 simulations"
    keys = root.untried_keys
    assert keys.tolist() == [bot._amaf_index(m) for m in root.untried]
    means = [root.amaf_w[k] / root.amaf_n[k] if root.amaf_n[k] else 2.0 for k in keys]
    pick, _ = bot._to_expand(root, False)
    assert pick is None or pick == max(range(len(keys)), key=means.__getitem__)
    assert max(means) <= 2.0


def test_backup_credits_each_mover_with_what_it_played_from_its_node_on():
    def decision(player: int) -> Node:
        node = Node.__new__(Node)
        node.player = player
        node.amaf_n, node.amaf_w = np.zeros(5), np.zeros(5)
        return node

    top, below = decision(0), decision(1)
    events = [(0, 1), (1, 2), (0, 3), (1, 2), (0, 1), (1, 4)]
    _amaf_backup([(top, 0), (below, 1)], events, (1.0, 0.0))
    assert top.amaf_n.tolist() == [0, 1, 0, 1, 0]  # 1 and 3, the repeated 1 once
    assert top.amaf_w.tolist() == [0, 1, 0, 1, 0]
    assert below.amaf_n.tolist() == [0, 0, 1, 0, 1]  # its own moves from event 1 on
    assert below.amaf_w.tolist() == [0] * 5  # player 1 lost


def test_a_rave_search_is_seeded():
    def line(seed):
        bot = MCTSBot(seed=seed, rave=300, iterations=300)
        state = _start("kuniumi", 7)
        return [state.move_to_str(bot.choose(state.clone())) for _ in range(2)]

    assert line(5) == line(5)


def test_rave_where_a_game_keeps_no_move_statistics_is_refused():
    state = get("toy-nim", pile=7).new_state()
    with pytest.raises(BotError, match="rave"):
        MCTSBot(seed=1, rave=100).choose(state, iterations=10)
    MCTSBot(seed=1).choose(state, iterations=10)  # the game's default: off


@pytest.mark.parametrize("spec", ["mcts:rave=-1", "mcts:rave=nonsense"])
def test_bad_rave_values_are_refused(spec):
    with pytest.raises(MalformedError):
        make_bot(spec)


def test_an_unknown_playout_policy_is_refused_with_the_game_s_list():
    with pytest.raises(BotError, match="it has: uniform, grow"):
        make_bot("mcts:playout=smart", seed=1).choose(_start("comune"), iterations=5)
    with pytest.raises(BotError, match="it has: uniform"):
        make_bot("mcts:playout=grow", seed=1).choose(_start("kuniumi"), iterations=5)


def test_kuniumi_playout_moves_are_reported_by_player_and_index():
    """A playout's reported moves replay through the engine: each by the player to move,
    each the index of a legal action (a God move by the square it fills)."""
    from ludoteca.games.kuniumi import flat as bits
    from ludoteca.games.kuniumi.ai import _traced, playout
    from ludoteca.games.kuniumi.jit import compiled, new_trace

    k = compiled()
    for start in (_start("kuniumi", 0), _start("kuniumi", 6), _start("kuniumi", 11)):
        trace = new_trace()
        seed = k.rng_seed(99)
        args = (start.land, start.sea, start.earth_god, start.sea_god, start.phase)
        _, plies, _ = k.playout(*args, start.first, start.side, seed, trace)
        reported = _traced(start, trace, plies)
        replay = start.clone()
        for (player, index), action in zip(reported, trace[:plies].tolist(), strict=True):
            assert player == replay.to_move
            assert index == bits.amaf_index(action) < bits.AMAF_SIZE
            replay.play(action)
        assert replay.is_over
        amaf: list = []
        playout(start, random.Random(3), amaf=amaf)
        assert amaf and all(0 <= i < bits.AMAF_SIZE for _, i in amaf)
