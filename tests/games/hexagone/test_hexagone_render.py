"""Terminal and SVG rendering: content, colours, the web club's SVG contract, determinism."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from hexagone_support import line, load, position
from rich.text import Text

import ludoteca.core as core
from ludoteca.core.errors import MalformedError

SVG = "{http://www.w3.org/2000/svg}"
GAME = core.get("hexagone", players=2)


def swap_state():
    return load(position(line("ROYGBPWROYGBR"), phase="swap", dice="RG", captured=["YYY", ""]))


def test_plain_text_shows_the_map_the_dice_and_the_piles_without_markup():
    state = swap_state()
    text = GAME.render_text(state)
    assert "[" not in text and "]" not in text
    for q, colour in enumerate("ROYGBPWROYGBR"):
        assert f"{colour}{q}" in text
    assert "dice: R G" in text
    assert "player 1 captured: 3" in text and "Y×3" in text
    assert "player 1 to swap" in text


def test_the_map_keeps_hex_neighbours_next_to_each_other():
    state = load(position({**line("ROYGBPWROYGBR"), "0,1": "B", "-1,1": "G"}))
    rows = GAME.render_text(state).splitlines()
    top = next(r for r in rows if r.startswith("r=  0"))
    below = next(r for r in rows if r.startswith("r=  1"))
    # row r=1 is shifted half a piece: 0,1 sits between 0,0 and 1,0 of the row above
    assert top.index("R0") < below.index("B0") < top.index("O1")
    assert below.index("G-1") < top.index("R0")


def test_colour_text_is_rich_markup_that_parses():
    state = swap_state()
    text = GAME.render_text(state, color=True)
    assert "[bold red]R0" in text and "[bold green]G3" in text
    plain = Text.from_markup(text).plain
    assert plain == GAME.render_text(state)


def test_text_for_other_phases():
    reform = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1))
    assert "pool: R×1 G×1" in GAME.render_text(reform)
    over = load(position(line("RO"), phase="over", captured=["RRRR", ""]))
    assert "game over" not in GAME.render_text(over)  # said once, by whoever shows it
    solo = load(position(line("ROYGBPWROYGBR"), players=1, rolls_left=4))
    assert "rolls left: 4" in GAME.render_text(solo)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_svg_contract_root_cells_and_pieces():
    state = swap_state()
    root = parse(GAME.render_svg(state))
    assert root.tag == SVG + "svg"
    assert root.get("class") == "board hexagone"
    assert len(root.get("viewBox").split()) == 4
    cells = {
        g.get("data-cell"): g for g in root.iter(SVG + "g") if "cell" in g.get("class", "").split()
    }
    assert set(cells) == set(json.loads(state.position())["cells"])
    pieces = [p for p in root.iter(SVG + "polygon") if "piece" in p.get("class", "").split()]
    assert {p.get("data-cell"): p.get("data-colour") for p in pieces} == line("ROYGBPWROYGBR")
    assert {p.get("fill") for p in pieces if p.get("data-colour") == "R"} == {"#d62828"}
    dice = [r.get("data-colour") for r in root.iter(SVG + "rect") if "die" in r.get("class", "")]
    assert dice == ["R", "G"]
    piles = [g for g in root.iter(SVG + "g") if "captured" in g.get("class", "").split()]
    assert len(piles) == 2
    assert len([t for t in piles[0] if "token" in t.get("class", "")]) == 3


def test_svg_marks_swappable_pieces_and_highlights():
    state = swap_state()
    root = parse(GAME.render_svg(state, highlight=["2,0", (3, 0)]))
    swappable = {
        p.get("data-cell")
        for p in root.iter(SVG + "polygon")
        if "swappable" in p.get("class", "").split()
    }
    expected = set()
    for m in state.legal_moves():
        expected.update(state.move_to_str(m).split()[1:])
    assert swappable == expected
    highlighted = {
        g.get("data-cell")
        for g in root.iter(SVG + "g")
        if "highlight" in g.get("class", "").split()
    }
    assert highlighted == {"2,0", "3,0"}


def test_svg_shows_reform_targets_as_empty_cells():
    state = load(position(line("ORORORORY"), phase="reform", pool="RG", rolled=1))
    root = parse(GAME.render_svg(state))
    targets = {
        g.get("data-cell")
        for g in root.iter(SVG + "g")
        if {"cell", "empty", "target"} <= set(g.get("class", "").split())
    }
    assert targets == {"0,1", "1,-1", "7,1", "8,-1"}
    assert any("pool" in g.get("class", "").split() for g in root.iter(SVG + "g"))


def test_svg_is_deterministic_and_a_pure_function_of_the_state():
    state = core.get("hexagone", players=3).new_state(seed=4)
    state.play("roll RR")
    before = state.position()
    first = GAME.render_svg(state, highlight=["0,0"])
    assert GAME.render_svg(state.clone(), highlight=["0,0"]) == first
    assert GAME.render_svg(load(before), highlight=["0,0"]) == first
    assert state.position() == before


def test_svg_refuses_bad_highlights():
    with pytest.raises(MalformedError):
        GAME.render_svg(swap_state(), highlight=["nowhere"])
    with pytest.raises(MalformedError):
        GAME.render_svg(swap_state(), highlight=[3.5])


def test_the_panel_says_in_words_what_the_player_to_move_does():
    """A 4-player panel read "player 2: second": the phase's notation, which tells a player
    nothing. Every phase of a random 4-player game is told in words, with the player."""
    import random

    from ludoteca.core import get
    from ludoteca.core.protocol import CHANCE
    from ludoteca.core.table import sample_chance
    from ludoteca.games.hexagone.render import PHASE_HINTS, render_svg

    seen = set()
    for seed in range(20):
        rng = random.Random(seed)
        state = get("hexagone", players=4).new_state(seed=seed)
        while not state.is_over and len(seen) < 4:
            if state.phase != "roll":
                svg = render_svg(state)
                assert f"player {state.player + 1} to move" in svg
                assert f">{PHASE_HINTS[state.phase].replace(chr(39), '&#x27;')}<" in svg
                assert f": {state.phase}<" not in svg
                seen.add(state.phase)
            if state.to_move == CHANCE:
                state.play(sample_chance(state, rng))
            else:
                state.play(rng.choice(state.legal_moves()))
    assert {"swap", "second"} <= seen
