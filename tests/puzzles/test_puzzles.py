"""The generator keeps only proven puzzles, and the shipped set is proven again here.

Re-proving is bounded: every shipped Kuniumi puzzle is solved again (the exact solver takes
milliseconds a puzzle), and so is every Comune puzzle by the exact two-turn count (about 10 ms
each); for Comino and Hexagone every puzzle's answer must be legal and gain the most by the
margin, counted exactly again, and a fixed sample of :data:`SAMPLE` per game has both searches
re-run too (each search takes about a second: all of them would take most of an hour)."""

from __future__ import annotations

import random

import pytest

from ludoteca.core.registry import get as get_game
from ludoteca.puzzles.generate import generate, self_play_positions, worth_trying
from ludoteca.puzzles.prove import (
    GAIN_MARGIN,
    MIN_TURNS,
    NET_MARGIN,
    candidate,
    gains,
    kuniumi_holds,
    prove,
    prove_kuniumi,
    two_turn_counts,
)
from ludoteca.puzzles.shipped import GAMES, puzzles

SAMPLE = 2
SHIPPED_AT_LEAST = 500
"""The issue asks for at least 500 proven puzzles per two-player game."""


def test_the_generator_keeps_kuniumi_puzzles_the_solver_proves():
    found, tried, _seconds = generate("kuniumi", 1, minutes=1.0, seed=5)
    assert len(found) == 1 and tried >= 1
    for data in found:
        state = get_game("kuniumi").from_position(data["position"])
        again = prove_kuniumi(state)
        assert again is not None and again.answer == data["answer"]
        assert data["proof"]["answer"] == 1 and all(v < 1 for v in data["proof"]["others"].values())
        assert set(data["refutations"]) == {state.move_to_str(m) for m in state.legal_moves()} - {
            data["answer"]
        }


def test_a_position_with_two_winning_moves_is_no_puzzle():
    """Drop what is not unique: a position where two moves win is refused."""
    for state in self_play_positions("kuniumi", 11):
        if not worth_trying(state):
            continue
        from ludoteca.puzzles.prove import _kuniumi_value

        values = [_kuniumi_value(state, m) for m in state.legal_moves()]
        if values.count(1) >= 2:
            assert prove_kuniumi(state) is None
            return
    pytest.fail("no position with two winning moves in that game")


def test_the_search_proof_drops_a_position_without_a_clear_gain():
    state = get_game("comino").new_state(seed=3)
    while state.to_move < 0:
        state.play(state.chance_outcomes()[0][0])
    # the first placement: every tile gains about the same, no margin of GAIN_MARGIN
    if candidate(state) is None:
        assert prove(state, {}, iterations=50) is None


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_puzzle_is_proven_again(game):
    shipped = puzzles(game)
    assert len(shipped) >= SHIPPED_AT_LEAST, f"{len(shipped)} shipped puzzles of {game}"
    for p in shipped:
        state = get_game(game, **p.options).from_position(p.position)
        legal = {state.move_to_str(m) for m in state.legal_moves()}
        assert p.answer in legal, (p.id, p.answer)
    if game == "kuniumi":
        for p in shipped:
            assert kuniumi_holds(get_game(game).from_position(p.position), p.answer), p.id
        return
    if game == "comune":  # the exact two-turn count: milliseconds a puzzle, so every one
        for p in shipped:
            again = prove(get_game(game).from_position(p.position), p.options)
            assert again is not None and again.answer == p.answer, p.id
            assert again.proof == p.proof, p.id
        return
    for p in shipped:  # the exact part of the proof, for every one (a millisecond each)
        found = candidate(get_game(game, **p.options).from_position(p.position))
        assert found is not None and found[0] == p.answer, p.id
        assert found[1] - found[2] >= GAIN_MARGIN[game], p.id
    for p in random.Random(49).sample(shipped, min(SAMPLE, len(shipped))):
        state = get_game(game, **p.options).from_position(p.position)
        again = prove(state, p.options, p.proof["searches"][0]["iterations"])
        assert again is not None and again.answer == p.answer, p.id


def test_the_generator_takes_positions_from_a_clubs_game_records(tmp_path):
    """``--from-records``: the positions of finished games' records are tried too."""
    from ludoteca.record import Record, save

    state = get_game("kuniumi").new_state(seed=2)
    record = Record.begin(state, players=["a", "b"])
    # the moves of one whole game at random, written as a record
    rng = random.Random(5)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        record.moves.append(state.move_to_str(move))
        state.play(move)
    record.finish(state)
    save(record, tmp_path / "game.json")
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    found, tried, _ = generate("kuniumi", 50, minutes=1.0, records=str(tmp_path))
    assert tried > 0
    for data in found:
        position = get_game("kuniumi").from_position(data["position"])
        assert kuniumi_holds(position, data["answer"])


def test_a_lost_position_is_no_puzzle_even_with_a_clear_gain():
    """Comune: the most-scoring turn here scores 2 more than any other and nets 2 more after
    the best answer, but leaves Dark behind after it: a lost game's best move is no puzzle."""
    behind = "2h2/2h2R/4FH1/1RR2HF1/rrrR1HHF1/f1rR2FF/3rhff/4hf/3Hh D 0"
    state = get_game("comune").from_position(behind)
    counted = two_turn_counts(state)
    best = max(counted, key=lambda c: c.score)
    assert len(counted) >= MIN_TURNS and candidate(state) is not None
    assert best.net - max(c.net for c in counted if c is not best) >= NET_MARGIN
    assert best.net < 0 and prove(state, {}) is None


def test_a_comune_turn_that_scores_most_but_gives_away_more_is_no_puzzle():
    """The most-scoring turn is not the best once the opponent answers: dropped."""
    outnetted = "hhhhH/1hhHHR/R2HFHF/rRRRRHFF/rrrRHHHFF/frrR2FF/ffrrhff/1r2hf/rr1Hh D 0"
    state = get_game("comune").from_position(outnetted)
    counted = two_turn_counts(state)
    best = max(counted, key=lambda c: c.score)
    assert len(counted) >= MIN_TURNS and candidate(state) is not None
    assert best.net - max(c.net for c in counted if c is not best) < NET_MARGIN
    assert prove(state, {}) is None


def test_a_comune_position_with_few_turns_is_no_puzzle():
    """Late in a game a full board leaves a handful of turns: too small a choice."""
    few = "ffFFF/FfFFHF/RFFHHHF/RRR1hHHH/rRRRrhhhh/RRrrrhhr/H1hrhHh/hrrr1h/rrr1H D 0"
    state = get_game("comune").from_position(few)
    assert len(two_turn_counts(state)) < MIN_TURNS and candidate(state) is not None
    assert prove(state, {}) is None


def test_the_generator_keeps_comune_puzzles_proven_over_two_turns():
    """A small run: each kept puzzle's answer scores most by the margin, counted by the engine
    itself (every turn played), and is proven again."""
    found, tried, _seconds = generate("comune", 1, minutes=1.0, seed=2)
    assert len(found) == 1 and tried >= 1
    data = found[0]
    state = get_game("comune").from_position(data["position"])
    ranked = gains(state)  # the engine plays every turn: what each scores
    assert ranked[0][1] == data["answer"] and ranked[0][0] - ranked[1][0] >= GAIN_MARGIN["comune"]
    assert data["proof"]["method"] == "exact two turns" and data["proof"]["net"] >= 0
    again = prove(state, {})
    assert again is not None and again.to_json() == data
