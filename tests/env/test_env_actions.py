"""The shared action layer: every legal move has ids, and ids play exactly the legal moves."""

from __future__ import annotations

import random

import pytest

from ludoteca.core import CHANCE, IllegalMoveError, get
from ludoteca.env.actions import Play, space_for

from .common import GAMES, IDS, random_positions


def all_sequences(play: Play, limit: int = 20000) -> dict:
    """Every complete id sequence from a move's start, and the move each one plays."""
    found: dict = {}
    stack = [()]
    while stack:
        prefix = stack.pop()
        for a in play.decision.legal(prefix):
            ids = prefix + (a,)
            move = play.decision.complete(ids)
            if move is None:
                stack.append(ids)
            else:
                found[ids] = move
        assert len(found) < limit
    return found


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_ids_play_exactly_the_legal_moves(name, options):
    space = space_for(get(name, **options))
    for play in random_positions(name, options, seed=11, every=4):
        if play.is_over:
            assert play.legal_actions() == []
            continue
        legal = play.state.legal_moves()
        found = all_sequences(play)
        assert sorted(map(str, found.values())) == sorted(map(str, legal))
        for ids, move in found.items():
            assert all(0 <= a < space.size for a in ids)
            assert len(ids) <= space.max_steps
            assert play.actions_of(move) == ids
            assert play.actions_of(play.state.move_to_str(move)) == ids


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_stepping_plays_the_move_through_the_engine(name, options):
    rng = random.Random(5)
    for play in random_positions(name, options, seed=3, every=7):
        if play.is_over:
            break
        move = rng.choice(play.state.legal_moves())
        probe, reference = play.clone(), play.state.clone()
        for a in play.actions_of(move):
            probe.apply(a)
        reference.play(move)
        assert probe.prefix == ()
        assert probe.state.position() == reference.position()
        assert play.prefix == ()  # the clone was independent
        # completes() names the move at its last id, and only there, playing nothing
        probe = play.clone()
        ids = play.actions_of(move)
        for i, a in enumerate(ids):
            before = (probe.state.position(), probe.prefix)
            named = probe.completes(a)
            assert (probe.state.position(), probe.prefix) == before
            assert named == (move if i == len(ids) - 1 else None)
            assert probe.apply(a) == named


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_chance_ids_carry_the_engine_probabilities(name, options):
    game = get(name, **options)
    space = space_for(game)
    play = Play.new(game, seed=2)
    rng = random.Random(2)
    seen = 0
    while not play.is_over and seen < 30:
        if play.to_move == CHANCE:
            seen += 1
            outcomes = play.chance_outcomes()
            engine = play.state.chance_outcomes()
            assert len(outcomes) == len(engine)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert all(0 <= a < space.chance_size for a, _ in outcomes)
            by_id = {space.chance_id(m): p for m, p in engine}
            assert dict(outcomes) == by_id
            # what PettingZoo's draw reads: the same probabilities, and the i-th outcome
            assert play.chance_probabilities() == tuple(p for _, p in outcomes)
            i = rng.randrange(len(outcomes))
            move = play.completes(outcomes[i][0])
            by_id_played = play.state.clone()
            by_id_played.play(move)
            assert play.apply_chance(i) == move
            assert play.state.position() == by_id_played.position()
            continue
        play.apply(rng.choice(play.legal_actions()))
    assert seen or not game.has_chance


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_an_illegal_id_is_refused_and_changes_nothing(name, options):
    game = get(name, **options)
    space = space_for(game)
    for play in random_positions(name, options, seed=8, every=10):
        if play.is_over:
            break
        legal = set(play.legal_actions())
        wrong = next(a for a in range(space.size) if a not in legal)
        before = (play.state.position(), play.prefix)
        with pytest.raises(IllegalMoveError):
            play.apply(wrong)
        assert (play.state.position(), play.prefix) == before


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_returns_at_the_end(name, options):
    *_, end = random_positions(name, options, seed=21, every=1000)
    result = end.state.result
    values = end.returns()
    if result.num_players == 1:
        assert values == (float(result.scores[0]),)
        return
    assert abs(sum(values)) < 1e-9
    for p, v in enumerate(values):
        assert (v > 0) == (p in result.winners and len(result.winners) < result.num_players)


def test_pinned_ids():
    """Ids are part of the interface: a trained agent or a record of ids depends on them."""
    kuniumi = Play.new(get("kuniumi"))
    assert kuniumi.actions_of("E@c3") == (14,)  # Earth God (kind 0), c3 = rank 2 * 6 + file 2

    comune = Play.new(get("comune"))
    assert comune.actions_of("e5-") == (90, 183)  # e5 is cell 30, angle 0; then END
    assert comune.actions_of("pass") == (184,)
    for a in (90, 183):
        comune.apply(a)
    assert comune.actions_of("i9/ a1-") == (0, 181)  # lower angle first: a1- (0), i9/ (60*3+1)

    comino = Play(space_for(get("comino")), get("comino").from_position("BRYY@0,0 YYYY RRRR 0 0 1"))
    assert comino.actions_of("YYYY@0,1") == (79 * 1013 + 507,)
    assert comino.actions_of("remove BRYY") == (80 * 1013 + 11,)
    deal = Play.new(get("comino"))
    assert dict(deal.chance_outcomes()).keys() == set(range(21))

    hexagone = Play.new(get("hexagone", players=2), seed=4)
    roll = hexagone.state.legal_moves()[0]
    hexagone.state.play(roll)
    cells = hexagone.state.cells
    q0 = min(c // (1 << 16) for c in cells) - 1
    r0 = min(c % (1 << 16) for c in cells) - 1
    swap = hexagone.state.legal_moves()[0]
    ids = hexagone.actions_of(swap)
    assert ids == tuple((c // (1 << 16) - q0) * 44 + (c % (1 << 16) - r0) for c in swap[1:])
    assert space_for(get("hexagone")).size == 44 * 44 + 7 + 2


def test_hexagones_own_decision_is_the_listing_of_every_moves_ids():
    """Hexagone decides a position without encoding every move (its space's ``decision``:
    a swap's read off the engine's flags, ``HexagoneDecision`` otherwise): at every move's
    start of random games, through swaps after mixed rolls and doubles, again/stop choices
    and reforms, it offers the same ids after every prefix, and completes the same moves,
    as the decision made of every move's encoded ids."""
    from ludoteca.env.actions import TrieDecision
    from ludoteca.games.hexagone.notation import AGAIN, PLACE, STOP, SWAP

    kinds = set()
    for seed in (4, 9):
        for play in random_positions("hexagone", {"players": 2}, seed=seed):
            if play.is_over:
                continue
            state = play.state
            encode = play.space.encoder(state)
            own = play.space.decision(state)
            listed = TrieDecision(state.legal_moves(), encode)
            kinds.update(m[0] for m in state.legal_moves())
            if state.dice is not None:
                kinds.add("double" if state.dice[0] == state.dice[1] else "mixed")
            assert own.legal(()) == listed.legal(())
            for first in listed.legal(()):
                assert own.legal((first,)) == listed.legal((first,))
                assert own.complete((first,)) == listed.complete((first,))
                for second in listed.legal((first,)):
                    assert own.complete((first, second)) == listed.complete((first, second))
            assert own.legal((-1,)) == [] and own.complete((-1, 0)) is None
    assert {SWAP, "mixed", "double", AGAIN, STOP, PLACE} <= kinds, kinds
