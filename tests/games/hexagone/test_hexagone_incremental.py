"""What the engine keeps up to date as it plays agrees with what it would compute afresh.

The reform search updates, place by place, what every empty cell touches; the proof of a
placement's legality by replaying a known completion is a shortcut for a search. Both are
checked here against a computation from scratch on the positions of many random games.
"""

from __future__ import annotations

import random

from ludoteca import core
from ludoteca.games.hexagone.geometry import NEIGHBOURS
from ludoteca.games.hexagone.kernel import random_move
from ludoteca.games.hexagone.reform import SHIFT, ReformSearch
from ludoteca.games.hexagone.state import REFORM


def _fresh_neighbourhood(cells: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    touch: dict[int, int] = {}
    near: dict[int, int] = {}
    for c, k in cells.items():
        for d in NEIGHBOURS:
            n = c + d
            if n not in cells:
                touch[n] = touch.get(n, 0) + 1
                near[n] = near.get(n, 0) + (1 << SHIFT[k])
    return touch, near


def _reform_positions(games: int, players: int = 2):
    rng = random.Random(7)
    for seed in range(games):
        state = core.get("hexagone", players=players).new_state(seed=seed)
        while not state.is_over:
            if state.phase == REFORM:
                yield state
            state.apply(random_move(state, rng))


def test_touch_counts_kept_by_place_and_unplace_equal_a_recount():
    rng = random.Random(3)
    checked = 0
    for state in _reform_positions(12):
        search = state.search()
        depth = 0
        for _ in range(6):
            options = search.options()
            if options and search.remaining() > 1 and rng.random() < 0.6:
                search.place(*rng.choice(options))
                depth += 1
            elif depth:
                search.unplace()
                depth -= 1
            assert (search.touch, search.near) == _fresh_neighbourhood(search.cells)
            checked += 1
        while depth:
            search.unplace()
            depth -= 1
        assert search.cells == state.cells
        assert (search.touch, search.near) == _fresh_neighbourhood(state.cells)
    assert checked > 100


def test_the_state_kept_search_agrees_with_a_fresh_one():
    """The search a state keeps across placements (and the one carried over from the check
    made at the capture) lists what a search built from the position alone lists."""
    checked = 0
    for players in (2, 3):
        for state in _reform_positions(8, players):
            kept = state.search()
            fresh = ReformSearch(state.cells, state.pool)
            assert kept.cells == state.cells and kept.pool == state.pool
            assert kept.legal_placements() == fresh.legal_placements()
            assert kept.options() == fresh.options()
            legal = set(fresh.legal_placements())
            for k, c in fresh.options():
                assert kept.placement_ok(k, c) == ((k, c) in legal)
            checked += 1
    assert checked > 30


def test_placements_proved_by_spreads_agree_with_a_search_per_placement():
    """The spreads of the pool prove placements in a few lookups (a spread less one piece,
    a displaced piece moved to a free cell or trading colours with a piece of the placed
    colour): on the reforms of games with 3 and 4 players and with gaps, what the listing
    keeps is what a search after each allowed placement finds."""
    checked = 0
    for players, gaps in ((3, False), (4, False), (2, True)):
        rng = random.Random(players)
        for seed in range(5):
            state = core.get("hexagone", players=players, gaps=gaps).new_state(seed=seed)
            while not state.is_over:
                if state.phase == REFORM:
                    expected = []
                    for k, c in ReformSearch(state.cells, state.pool).options():
                        fresh = ReformSearch(state.cells, state.pool)
                        fresh.place(k, c)
                        if fresh.feasible():
                            expected.append((k, c))
                    assert state.search().legal_placements() == expected
                    checked += 1
                state.apply(random_move(state, rng))
    assert checked > 100


def test_options_come_in_cell_order_whatever_was_searched():
    for state in _reform_positions(4):
        search = state.search()
        before = search.options()
        search.legal_placements()
        assert search.options() == before == sorted(before, key=lambda kc: (kc[1], kc[0]))


def _states(games: int, players: int = 2):
    rng = random.Random(5)
    for seed in range(games):
        state = core.get("hexagone", players=players).new_state(seed=seed)
        while not state.is_over:
            yield state
            state.apply(random_move(state, rng))


def test_swaps_listed_in_order_without_a_sort_equal_the_sorted_swaps():
    checked = 0
    for state in _states(10):
        if state.phase == "swap":
            assert state.legal_moves() == sorted(state.swap_list())
            checked += 1
    assert checked > 500


def test_the_quick_check_of_play_agrees_with_the_full_check():
    """``play`` accepts a move value in a few lookups when it can; that shortcut accepts
    exactly what the full check accepts, on legal moves and on near misses."""
    rng = random.Random(9)
    checked = 0
    for state in _states(6):
        legal = state.legal_moves()
        cells = sorted(state.cells)
        tries = list(legal[:5])
        for _ in range(20):  # moves shaped like the legal ones, mostly illegal
            kind = rng.choice(legal)[0] if legal else 0
            tries.append((kind, rng.randrange(7), rng.randrange(7)))
            tries.append((kind, rng.choice(cells), rng.choice(cells)))
            tries.append((kind, rng.randrange(7), rng.choice(cells) + rng.choice(NEIGHBOURS)))
        tries += [(2,), (3,), (True, cells[0], cells[1]), (1, True, 2)]
        for m in tries:
            quick = state._quick_legal(m)
            if quick:
                assert m in legal, m
            elif (
                m in legal[:5] and m[0] != 4 and all(type(v) is int for v in m)
            ):  # every legal value but ``main`` is quick
                raise AssertionError(f"{m} is legal but not accepted quickly")
            checked += 1
    assert checked > 5000


def test_undo_restores_every_move_including_those_that_move_no_piece():
    rng = random.Random(4)
    state = core.get("hexagone", players=2).new_state(seed=3)
    seen = []
    from ludoteca.core.table import sample_chance

    while not state.is_over and len(seen) < 300:
        seen.append(state.position())
        if state.to_move < 0:
            state.play(sample_chance(state, rng))
        else:
            state.play(rng.choice(state.legal_moves()))
    while seen:
        state.undo()
        assert state.position() == seen.pop()


def test_undo_then_listing_agrees_with_the_position_read_afresh():
    """A swap is undone by swapping back, a capture from copies of the pieces: after any
    undo, the moves listed (swaps from the pairs kept by colour included) are those of the
    same position read from its text."""
    from ludoteca.core.table import sample_chance

    rng = random.Random(6)
    game = core.get("hexagone", players=2)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_over:
            if state.to_move < 0:
                state.play(sample_chance(state, rng))
                continue
            state.legal_moves()  # the touching pairs listed before the move
            state.play(rng.choice(state.legal_moves()))
            if rng.random() < 0.3:
                state.undo()
                fresh = game.from_position(state.position())
                assert state.legal_moves() == fresh.legal_moves()
                assert state.cells == fresh.cells and state.counts == fresh.counts
                checked += 1
                state.play(rng.choice(state.legal_moves()))
    assert checked > 200


def test_a_capture_seen_not_to_split_the_block_does_not_split_it():
    """``_still_whole`` may only say yes when the sections say one piece."""
    from ludoteca.games.hexagone.geometry import sections
    from ludoteca.games.hexagone.state import _still_whole

    rng = random.Random(2)
    seen = {True: 0, False: 0}
    for state in _states(4):
        if state.phase != "roll" or len(sections(state.cells)) != 1:
            continue
        for _ in range(3):
            start = rng.choice(sorted(state.cells))
            taken = [start] + [start + d for d in rng.sample(NEIGHBOURS, 2)]
            taken = [c for c in taken if c in state.cells]
            rest = {c: k for c, k in state.cells.items() if c not in taken}
            whole = _still_whole(rest, taken)
            if whole:
                assert len(sections(rest)) == 1
            seen[whole] += 1
    assert seen[True] > 100 and seen[False] > 10


def test_chance_outcomes_kept_per_colour_set_equal_a_fresh_count():
    from ludoteca.games.hexagone.notation import ROLLS

    checked = 0
    for state in _states(6, players=3):
        if state.phase != "roll":
            continue
        rolls = [m for m in ROLLS if state.counts[m[1]] or state.counts[m[2]]]
        weights = [1 if m[1] == m[2] else 2 for m in rolls]
        expected = [(m, w / sum(weights)) for m, w in zip(rolls, weights, strict=True)]
        assert state.chance_outcomes() == expected
        checked += 1
    assert checked > 300
