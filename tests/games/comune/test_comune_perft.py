"""``legal`` and ``perft`` against the independent brute-force reference, on fixed positions,
and the command-line ``legal`` / ``perft`` agreeing with them."""

from __future__ import annotations

import random

import pytest
from comune_reference import Ref
from comune_reference import from_text as reference_of
from comune_reference import perft as reference_perft

from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.core.perft import perft

GAME = get("comune")
START = "5/6/7/8/9/8/7/6/5 L 0"

# mid-game positions reached by random play (seeds 0, 2, 5), a late one with few placements
MID = [
    "fr3/3h2/R1f1r1R/FRr2h2/F2R3F1/1f1H1f1R/1r1H1h1/f1hh2/F2HF L 0",
    "1f2h/H2f1r/1RRF3/h3HRr1/h1H1FH2R/r2FR3/r1H1r1h/h4f/r1R1F D 0",
    "HHRF1/HF1F1f/1FFH2f/1F3R1r/1H1f4f/Hh1fhrh1/2rh3/hhr1RF/h2F1 D 0",
]


def late_position() -> str:
    """A seeded random game played with the reference until few placements remain."""
    rng = random.Random(11)
    ref = Ref()
    while True:
        turns = ref.turns()
        if len(turns) < 40:
            return ref.position()
        ref = ref.play(rng.choice(turns))


def engine_turns(text: str) -> list[str]:
    s = GAME.from_position(text)
    return sorted(s.move_to_str(m) for m in s.legal_moves())


@pytest.mark.parametrize("text", [START, "5/6/7/8/4H4/8/7/6/5 D 0", *MID])
def test_legal_turns_equal_the_reference(text):
    assert engine_turns(text) == sorted(reference_of(text).turns())


def test_start_lists_pass_and_183_single_placements():
    turns = engine_turns(START)
    assert len(turns) == 184 and "pass" in turns
    assert sum(1 for t in turns if " " not in t and t != "pass") == 183


@pytest.mark.parametrize("text", MID)
def test_perft_depth_1_and_2_equal_the_reference(text):
    ref = reference_of(text)
    state = GAME.from_position(text)
    assert perft(state, 1) == reference_perft(ref, 1)
    assert perft(state, 2) == reference_perft(ref, 2)
    assert state.position() == text


def test_perft_depth_2_from_the_start_equals_reference():
    assert perft(GAME.from_position(START), 2) == reference_perft(Ref(), 2)


def test_perft_after_light_opening_equals_reference():
    text = "5/6/7/8/4H4/8/7/6/5 D 0"
    assert perft(GAME.from_position(text), 1) == reference_perft(reference_of(text), 1)


def test_perft_depth_3_late_position_equals_reference():
    text = late_position()
    assert perft(GAME.from_position(text), 3) == reference_perft(reference_of(text), 3)


def test_random_positions_agree_with_reference():
    """Engine and reference play the same random games; every position lists the same
    turns, the same scores and at the end the same winner."""
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_state()
        ref = Ref()
        while True:
            assert state.is_over == ref.over()
            if state.is_over:
                break
            turns = sorted(state.move_to_str(m) for m in state.legal_moves())
            if len(turns) < 3000:  # the reference is slow on the widest positions
                assert turns == sorted(ref.turns())
            assert state.scores() == (float(ref.score("L")), float(ref.score("D")))
            choice = rng.choice(turns)
            state.play(choice)
            ref = ref.play(choice)
        want = {"L": (0,), "D": (1,), None: ()}[ref.winner()]
        assert state.result.winners == want


def test_cli_legal_and_perft_agree(capsys):
    text = MID[0]
    assert main(["legal", "comune", text]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(reference_of(text).turns())
    assert main(["perft", "comune", text, "1"]) == 0
    assert capsys.readouterr().out.split()[-1] == str(len(lines))


def test_cli_legal_on_the_start_position(capsys):
    assert main(["legal", "comune", START]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 184 and "pass" in lines and "e5-" in lines and "e5\\" in lines
