"""The game log in words: each engine tells its last move by the players' names, with what it
caused, and never in the notation's letter codes (issue 41, defect 9).

Before, the club showed ``player 3 captured 4 R and 3 B``, ``sea: E@c3``, ``land closed a
group of 1`` and ``table: 21 draws``: seat codes, letters, and nothing a newcomer can read.
"""

from __future__ import annotations

import random
import re

import pytest

from ludoteca.core.protocol import CHANCE
from ludoteca.core.registry import get
from ludoteca.core.table import draw_at

NAMES = ["Ana", "Bob", "Cy", "Di"]


def _played(game: str, seed: int, **options):
    """A random game of ``game`` to the end: each move's notation, mover and log words."""
    state = get(game, **options).new_state(seed=seed)
    rng = random.Random(seed)
    out = []
    ply = 0
    while not state.is_over:
        mover = state.to_move
        if mover == CHANCE:
            move = draw_at(state, seed, ply)
        else:
            move = rng.choice(list(state.legal_moves()))
        text = state.move_to_str(move)
        state.play(move)
        out.append((text, mover, state.describe_last_move(NAMES[: state.num_players])))
        ply += 1
    return state, out


@pytest.mark.parametrize("game", ["comune", "comino", "kuniumi", "hexagone"])
def test_every_game_words_every_move_by_name(game):
    players = 2 if game != "hexagone" else 3
    options = {"players": players} if game == "hexagone" else {}
    _state, moves = _played(game, 5, **options)
    for text, mover, words in moves:
        assert words, (game, text)
        assert any(name in words for name in NAMES[:players]) or mover == CHANCE, (text, words)
        if mover >= 0:
            assert NAMES[mover] in words, (text, words)


def test_hexagone_names_who_rolled_and_captured_in_colour_words():
    captures = 0
    for seed in range(4):
        _state, moves = _played("hexagone", seed, players=3)
        for text, _mover, words in moves:
            if text.startswith("roll "):
                assert re.fullmatch(r"(Ana|Bob|Cy) rolled (a double \w+|\w+ and \w+)", words), words
                assert not re.search(r"\b[ROYGBPW]{2}\b", words), words  # no "BP"
            if "captured" in words:
                captures += 1
                assert re.search(r"captured \d+ (red|orange|yellow|green|blue|purple|white)", words)
                assert "player" not in words, words
    assert captures


def test_kuniumi_set_up_and_the_closed_group_in_words():
    state, moves = _played("kuniumi", 2)
    assert moves[0][2].startswith("Ana placed the Earth God on ")
    assert moves[1][2].startswith("Ana placed the Sea God on ")
    assert moves[6][2].startswith("Bob chose to play ")
    last = moves[-1][2]
    assert "closed group" in last, last
    # the squares named are the winner's closed group on the board
    squares = re.search(r"the closed group ([a-f1-6, and]+) ends", last).group(1)
    named = re.findall(r"[a-f][1-6]", squares)
    assert named and len(named) == int(re.search(r"group of (\d+)", last).group(1))
    # and the board outlines that group
    svg = state.game.render_svg(state)
    assert sorted(re.findall(r'class="closed-group" data-cell="(\w+)"', svg)) == sorted(named)


def test_comino_deal_is_told_to_a_newcomer():
    _state, moves = _played("comino", 3)
    deal = [w for _t, mover, w in moves if mover == CHANCE]
    assert len(deal) == 21
    assert "start tile" in deal[0]
    assert deal[1].startswith("Ana was dealt ") and deal[-2].startswith("Bob was dealt ")
    whole = deal[-1]
    assert "Ana" in whole and "Bob" in whole and "11 tiles" in whole and "draws" not in whole
    placed = [w for _t, mover, w in moves if mover >= 0]
    assert all(re.match(r"(Ana|Bob) (placed|could place no tile)", w) for w in placed)


def test_comune_names_the_angles_in_words():
    _state, moves = _played("comune", 1)
    first = moves[0][2]
    assert re.match(r"Ana placed an? (horizontal|rising|falling) piece", first), first
    assert "score" in first
