"""The exact endgame solver (:func:`ludoteca.games.kuniumi.flat.solve`) against brute force.

The reference below is plain minimax through the engine's validating ``play`` and its
results, written independently of the solver's bitboards, alpha-beta and table.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np

from ludoteca.bots.mcts import MCTSBot
from ludoteca.core import get
from ludoteca.games.kuniumi import ai
from ludoteca.games.kuniumi import flat as bits
from ludoteca.games.kuniumi.jit import compiled

GAME = get("kuniumi")


def brute(state) -> int:
    """The value for the player to move (1, 0, -1) by full minimax through the engine."""

    @cache
    def value(position: str) -> int:
        s = GAME.from_position(position)
        me = s.to_move
        best = -1
        for move in s.legal_moves():
            child = s.clone()
            child.play(move)
            if child.is_over:
                v = round(2 * child.result.payoffs()[me]) - 1
            else:
                v = -value(child.position())
            best = max(best, v)
            if best == 1:
                break
        return best

    return value(state.position())


def endgames(count: int, empties: int, seed: int):
    """Play positions of random games with at most ``empties`` empty squares."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = GAME.new_state()
        while not s.is_over and not (
            s.phase == bits.PLAY and bits.empty_count(s.land, s.sea) <= empties
        ):
            s.play(rng.choice(s.legal_moves()))
        if not s.is_over:
            out.append(s)
    return out


def table(size_bits: int = 12):
    n = 1 << size_bits
    return np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)


def run(solve, state, tt, limit: int = 10**9) -> int:
    work = np.array([0, limit], np.int64)
    stack = np.zeros(bits.SOLVE_STACK, np.int64)
    args = (state.land, state.sea, state.earth_god, state.sea_god, state.side)
    return int(solve(*args, *tt, work, stack))


SMALL = endgames(120, 7, seed=3)


def test_the_sample_holds_wins_losses_and_draws():
    values = {brute(s) for s in SMALL}
    assert values >= {1, -1}


def test_compiled_solver_equals_brute_force(k):
    shared = table(16)  # one table for all: what one position stores must not spoil another
    for s in SMALL:
        want = brute(s)
        assert run(k.solve, s, table()) == want, s.position()
        assert run(k.solve, s, shared) == want, s.position()


def test_plain_solver_equals_brute_force():
    for s in SMALL[:40]:
        assert run(bits.solve, s, table()) == brute(s), s.position()


def test_a_tiny_table_full_of_collisions_gives_the_same_values(k):
    tiny = table(2)
    for s in SMALL:
        assert run(k.solve, s, tiny) == brute(s), s.position()


def test_deeper_positions_agree_between_fresh_and_shared_tables(k):
    shared = table(18)
    for s in endgames(30, 12, seed=8):
        assert run(k.solve, s, shared) == run(k.solve, s, table(18)), s.position()


def test_the_work_limit_gives_up_and_stores_nothing_wrong(k):
    s = endgames(1, 14, seed=21)[0]
    tt = table(16)
    assert run(k.solve, s, tt, limit=5) == bits.UNKNOWN
    assert run(k.solve, s, tt) == run(k.solve, s, table(16))


def test_exact_value_gives_the_solved_shares():
    for s in SMALL[:30]:
        v = brute(s)
        shares = ai.exact_value(s)
        assert shares is not None
        assert shares[s.to_move] == (v + 1) / 2
        assert sum(shares) == 1.0


def test_exact_value_knows_nothing_early_or_in_the_set_up():
    s = GAME.new_state()
    assert ai.exact_value(s) is None
    rng = random.Random(1)
    while s.phase != bits.PLAY:
        s.play(rng.choice(s.legal_moves()))
    assert bits.empty_count(s.land, s.sea) > ai.EXACT_EMPTIES
    assert ai.exact_value(s) is None


def wrong_answers(state, move) -> float:
    """The share of the opponent's replies to ``move`` that give the mover more than the
    opponent's best reply, by brute force (-1 for a move that ends the game)."""
    me = state.to_move
    child = state.clone()
    child.play(move)
    if child.is_over:
        return -1.0
    values = []
    for reply in child.legal_moves():
        after = child.clone()
        after.play(reply)
        if after.is_over:
            values.append(after.result.payoffs()[me])
        else:
            v = brute(after)
            values.append((v + 1) / 2 if after.to_move == me else (1 - v) / 2)
    return sum(1 for v in values if v > min(values)) / len(values)


def test_hardest_picks_the_move_answered_wrongly_most_often():
    lost = [s for s in SMALL if brute(s) < 1 and len(s.legal_moves()) > 1]
    assert len(lost) >= 5
    varied = 0
    for s in lost:
        moves = s.legal_moves()
        shares = {m: wrong_answers(s, m) for m in moves}
        pick = ai.hardest(s, moves)
        assert pick in moves
        assert shares[pick] == max(shares.values()), s.position()
        varied += len(set(shares.values())) > 1
    assert varied  # some positions where the pick matters


def test_the_search_keeps_a_won_endgame_won():
    won = [s for s in endgames(40, 14, seed=5) if brute_fast(s) == 1][:6]
    assert won
    for s in won:
        move = MCTSBot(seed=2, iterations=300).choose(s)
        child = s.clone()
        child.play(move)
        assert (
            child.is_over and child.result.payoffs()[s.to_move] == 1.0 or (brute_fast(child) == -1)
        ), s.position()


def brute_fast(state) -> int:
    """The compiled solver's value, for positions too deep for :func:`brute`."""
    return run(compiled().solve, state, table(18))


def test_hardest_keeps_to_the_time_it_is_given(monkeypatch):
    """With no time left the first move that does not end the game stands (one that does
    would lose at once) and nothing is solved; with some, no more solver nodes than it
    allows (plus one solve's cap)."""
    lost = [s for s in SMALL if brute(s) < 1 and len(s.legal_moves()) > 1]
    calls = []
    real = ai.solved

    def counted(state, spent=None):
        calls.append(1)
        return real(state, spent)

    def goes_on(state, move) -> bool:
        after = state.clone()
        after.play(move)
        return not after.is_over

    monkeypatch.setattr(ai, "solved", counted)
    ending_first = 0
    for s in lost:
        moves = s.legal_moves()
        first = next((m for m in moves if goes_on(s, m)), moves[0])
        ending_first += first != moves[0]
        assert ai.hardest(s, moves, 0.0) == first
        assert ai.hardest(s, moves, -1.0) == first
    assert calls == []
    assert ending_first  # positions whose first move ends the game are among them
    for s in lost:
        assert ai.hardest(s, s.legal_moves(), 1.0) in s.legal_moves()
    assert calls


TRAP = ["E@c3", "S@d4", "l@b1", "l@a2", "s@f5", "s@e6"]
"""A set-up the levels placed as the first player: whichever side the second player takes,
the first player, moving first with the other, wins."""


def test_the_first_player_can_place_a_set_up_lost_for_either_choice():
    state = GAME.new_state()
    for move in TRAP:
        state.play(move)
    placer = 1 - state.to_move
    # the chooser takes sea: land's God goes to f3, and whatever sea answers, it ends its
    # move on f6, shut in by the two sea tokens: a closed group of land, land wins
    sea = state.clone()
    sea.play("choose sea")
    assert sea.to_move == placer
    sea.play("c3-f3")
    for reply in sea.legal_moves():
        after = sea.clone()
        after.play(reply)
        if after.is_over:
            assert after.result.payoffs()[placer] == 1.0
            continue
        after.play("f3-f6")
        assert after.is_over and after.result.payoffs()[placer] == 1.0, sea.move_to_str(reply)
    # the chooser takes land: sea, moving first, wins with best play (the exact solver)
    land = state.clone()
    land.play("choose land")
    assert land.to_move == placer
    assert run(compiled().solve, land, table(20)) == 1
