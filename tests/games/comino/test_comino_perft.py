"""``legal`` and ``perft`` against the independent brute-force reference, on fixed positions,
and the command-line ``legal`` / ``perft`` agreeing with them."""

from __future__ import annotations

import math

import pytest
from comino_reference import legal as reference_legal
from comino_reference import parse_board
from comino_reference import perft as reference_perft

from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.core.perft import perft

GAME = get("comino")

# positions: after the deal, mid game, late game, a forced removal, the seed example
AFTER_DEAL = (
    "BRYY@0,0 BBBR,BBRY,BRBR,BRRY,BYBY,BYRY,BYYY,RRRY,RYRY,RYYY,YYYY "
    "BBBY,BBRR,BBYR,BBYY,BRBY,BRRR,BRYR,BYRR,BYYR,RRRR,RRYY 0 0 1"
)
MID = "BBRR@0,0;BBBR@1,0;YRBB@1,1 BBBY,BRYY,BYBY,RYRY,YYYY BRRR,BYYR,RRRR,RRYY,RYYY 4 6 1"
LATE = (
    "BBRR@0,0;BRYY@0,2;RBRR@1,-1;BBBR@1,0;YRBB@1,1;RRRY@1,2;BBYB@2,0;BBRY@3,0 "
    "BBYY,BYRY,YYYY BYBY,RRRR,RYRY 10 12 1"
)
STUCK = "BBBY@0,0 BRBR,BRRR,BRYR,RRRY,RRYY,RYRY,YYYY BBBR,BBRR,BBRY,BBYR,BBYY,BRBY,RRRR 0 0 1"


def reference_args(text: str):
    board, h1, h2, _, _, mover = text.split()
    hands = [set() if h == "-" else set(h.split(",")) for h in (h1, h2)]
    return parse_board(board), hands, int(mover) - 1


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (AFTER_DEAL, 1),
        (AFTER_DEAL, 2),
        (MID, 1),
        (MID, 2),
        (MID, 3),
        (LATE, 1),
        (LATE, 2),
        (LATE, 3),
        (LATE, 4),
        (STUCK, 1),
        (STUCK, 2),
    ],
)
def test_perft_matches_the_reference(text, depth):
    board, hands, mover = reference_args(text)
    assert perft(GAME.from_position(text), depth) == reference_perft(board, hands, mover, depth)


@pytest.mark.parametrize("text", [AFTER_DEAL, MID, LATE, STUCK])
def test_legal_moves_match_the_reference(text):
    board, hands, mover = reference_args(text)
    s = GAME.from_position(text)
    assert sorted(str(m) for m in s.legal_moves()) == reference_legal(board, hands[mover])


def test_perft_through_the_deal_counts_each_draw_once():
    s = GAME.new_state()
    for depth in range(4):
        assert perft(s, depth) == math.perm(21, depth)
    assert s.position() == "- YYYY RRRR 0 0 deal"


def test_perft_across_the_end_of_the_deal():
    # two draws left, both to hand 2 whatever their order; then player 1 moves
    dealing = AFTER_DEAL.replace(",RRYY", "").replace(",BBYY", "").replace(" 1", " deal")
    s = GAME.from_position(dealing)
    assert s.to_move < 0 and len(s.chance_outcomes()) == 2
    board, hands, _ = reference_args(AFTER_DEAL)
    assert perft(s, 2) == 2
    assert perft(s, 3) == 2 * reference_perft(board, hands, 0, 1)


def test_cli_legal_prints_every_placement_once(capsys):
    assert main(["legal", "comino", MID]) == 0
    lines = capsys.readouterr().out.split()
    board, hands, mover = reference_args(MID)
    assert lines == reference_legal(board, hands[mover])
    assert len(lines) == len(set(lines))


def test_cli_legal_prints_the_removals_when_nothing_fits(capsys):
    assert main(["legal", "comino", STUCK]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == sorted(f"remove {t}" for t in STUCK.split()[1].split(","))


def test_cli_perft_agrees_with_legal(capsys):
    assert main(["perft", "comino", LATE, "1"]) == 0
    count = int(capsys.readouterr().out.split()[-1])
    assert main(["legal", "comino", LATE]) == 0
    assert count == len(capsys.readouterr().out.split())


def test_cli_refuses_a_bad_position(capsys):
    assert main(["legal", "comino", "BBBY@0,0 YYYY RRRR 0 0 2"]) == 2
    assert "impossible position" in capsys.readouterr().err
