"""Every registered game's parsers, swept: positions, moves and options.

Hand-picked findings first (each was silently accepted before), then property tests over
every game in :func:`ludoteca.core.names`: a position text either parses, and then prints
canonically and reads back to the same state, or is refused with a ``GameError``; a move
text either plays or is refused and leaves the state as it was; options are refused unless
the game takes them. What each game's validation checks, and what it does not, is written
in its rules tests (and in the Hexagone and Comino position modules).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.core import get, names
from ludoteca.core.errors import GameError, IllegalPositionError, MalformedError
from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import game_class
from ludoteca.core.table import sample_chance

GAMES = sorted(g for g in names() if game_class(g).__module__.startswith("ludoteca.games."))
"""The installed games (the suite's toy games, registered for other tests, are left out)."""


# --- findings -------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_an_option_the_game_does_not_take_is_refused(game):
    with pytest.raises(MalformedError, match="option"):
        get(game, flavour="mint")


@pytest.mark.parametrize("game", ["comune", "comino", "kuniumi"])
def test_a_number_of_players_the_game_is_not_for_is_refused(game):
    for players in (1, 3, "3"):
        with pytest.raises(MalformedError, match="players"):
            get(game, players=players)


def test_kuniumi_refuses_a_set_up_board_presented_as_won():
    with pytest.raises(IllegalPositionError, match="no move was played"):
        get("kuniumi").from_position("ES1l2/ss1l2/6/6/6/6 play land land")


def test_comino_refuses_placements_that_scored_nothing():
    finished = (
        "BBRR@0,0;BRYY@0,2;RBRR@1,-1;BBBR@1,0;YRBB@1,1;RRRY@1,2;BBYB@2,0;BBRY@3,0 BBYY RRRR 0 0 1"
    )
    with pytest.raises(IllegalPositionError, match="score at least 7"):
        get("comino").from_position(finished)


def test_comino_refuses_a_finished_game_where_every_tile_was_removed():
    with pytest.raises(IllegalPositionError, match="removed only when no placement exists"):
        get("comino").from_position("BBBY@0,0 - - 0 0 1")


# --- the sweep --------------------------------------------------------------------------------
def _positions(game: str, count: int = 12) -> list[str]:
    """Positions from seeded random games of ``game``: the start, the middle, the end."""
    out = []
    options = {"players": 2} if game == "hexagone" else {}
    for seed in range(3):
        rng = random.Random(seed)
        state = get(game, **options).new_state(seed=seed)
        seen = [state.position()]
        while not state.is_over and len(seen) < 400:
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
            else:
                state.play(rng.choice(state.legal_moves()))
            seen.append(state.position())
        out += [seen[i * (len(seen) - 1) // (count // 3)] for i in range(count // 3 + 1)]
    return out


POSITIONS = {game: _positions(game) for game in GAMES}
NOISE = st.text(alphabet=st.characters(codec="utf-8"), max_size=6) | st.sampled_from(
    ["0", "9" * 30, "-1", "١", "１", "²", ",", "@", "{", "}", '"', " ", "/", "null", "x"]
)


@st.composite
def mutated_position(draw) -> tuple[str, str]:
    game = draw(st.sampled_from(GAMES))
    text = draw(st.sampled_from(POSITIONS[game]))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 4)))
        text = text[:i] + draw(NOISE) + text[j:]
    return game, text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated_position())
def test_a_position_parses_and_reads_back_or_is_refused(case):
    game, text = case
    g = get(game, players=2) if game == "hexagone" else get(game)
    try:
        state = g.from_position(text)
    except GameError:
        return
    canonical = state.position()
    again = g.from_position(canonical)
    assert again.position() == canonical


@st.composite
def move_case(draw):
    game = draw(st.sampled_from(GAMES))
    text = draw(st.sampled_from(POSITIONS[game]))
    g = get(game, players=2) if game == "hexagone" else get(game)
    state = g.from_position(text)
    if state.is_over:
        legal = ["pass"]
    elif state.to_move == CHANCE:
        legal = [state.move_to_str(m) for m, _ in state.chance_outcomes()]
    else:
        legal = [state.move_to_str(m) for m in state.legal_moves()[:50]]
    move = draw(st.sampled_from(legal))
    if draw(st.booleans()):
        i = draw(st.integers(0, len(move)))
        move = move[:i] + draw(NOISE) + move[i + 1 :]
    return state, move


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=move_case())
def test_a_move_plays_or_is_refused_and_changes_nothing(case):
    state, move = case
    before = state.position()
    try:
        state.play(move)
    except GameError:
        assert state.position() == before
        return
    assert state.position() != before or state.is_over


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    key=st.sampled_from(["players", "gaps", "x", ""]),
    value=st.one_of(
        st.integers(-(10**30), 10**30), st.text(max_size=8), st.booleans(), st.none(), st.floats()
    ),
)
def test_options_give_a_game_or_a_clear_refusal(game, key, value):
    try:
        g = get(game, **{key: value})
    except GameError:
        return
    g.new_state(seed=1)  # a game that was built plays


def test_comino_writes_the_deal_as_its_rules_file_does():
    """``rules/comino.md`` (Decision): the start is ``- YYYY RRRR 0 0 deal``, the first draw
    is the start tile, the next ten go to hand 1 and the last ten to hand 2, then player 1
    moves."""
    state = get("comino").new_state(seed=1)
    assert state.position() == "- YYYY RRRR 0 0 deal"
    state.play("deal BRYY")
    assert state.position() == "BRYY@0,0 YYYY RRRR 0 0 deal"
    rng = random.Random(2)
    hands = []
    while state.to_move == CHANCE:
        state.play(sample_chance(state, rng))
        fields = state.position().split()
        hands.append((len(fields[1].split(",")), len(fields[2].split(","))))
    assert hands[:10] == [(2 + i, 1) for i in range(10)]
    assert hands[10:] == [(11, 2 + i) for i in range(10)]
    assert state.position().endswith(" 0 0 1")
    assert get("comino").from_position(state.position()).position() == state.position()
