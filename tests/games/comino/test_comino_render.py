"""Terminal and SVG rendering, and the web club's placement query."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from ludoteca.core import MalformedError, get
from ludoteca.core.table import resolve_chance
from ludoteca.games.comino import Place, placements_for
from ludoteca.games.comino.geometry import rotate

GAME = get("comino")
SEED_EXAMPLE = (
    "BBRR@0,0;BRYY@0,2;RBRR@1,-1;BBBR@1,0;YRBB@1,1;RRRY@1,2;BBYB@2,0;BBRY@3,0 BBYY RRRR 12 9 1"
)
NS = "{http://www.w3.org/2000/svg}"


def svg_root(text: str):
    return ET.fromstring(text)


def by_class(root, name):
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


# --- text -------------------------------------------------------------------------------
def test_text_shows_every_tiles_four_corners_and_both_racks():
    s = GAME.from_position(SEED_EXAMPLE)
    text = GAME.render_text(s)
    lines = text.splitlines()
    # the start tile BBRR: top row "BB" above bottom row "RR" in the column of x = 0
    header = next(line for line in lines if line.strip().startswith("y"))
    col = header.index("   0") + 2
    row0 = next(i for i, line in enumerate(lines) if line.startswith("   0"))
    assert lines[row0][col : col + 2] == "BB"
    assert lines[row0 + 1][col : col + 2] == "RR"  # bottom-left R, bottom-right R
    assert "rack: BBYY" in text and "rack: RRRR" in text
    assert "[" not in text  # no markup without colour


def test_text_with_colour_uses_rich_markup():
    s = GAME.from_position(SEED_EXAMPLE)
    text = GAME.render_text(s, color=True)
    assert "[bold blue]B[/bold blue]" in text
    from rich.text import Text

    assert "B" in Text.from_markup(text).plain


def test_text_of_the_start_state_and_of_a_finished_game():
    s = GAME.new_state()
    assert "empty" in GAME.render_text(s)
    rng = random.Random(2)
    resolve_chance(s, rng)
    while not s.is_over:
        s.play(rng.choice(s.legal_moves()))
    assert "game over" not in GAME.render_text(s)  # said once, by whoever shows it
    assert "rack: (empty)" in GAME.render_text(s) and "turned" not in GAME.render_text(s)


# --- SVG --------------------------------------------------------------------------------
def test_svg_root_carries_the_contract():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s))
    assert root.tag == NS + "svg"
    assert root.get("viewBox")
    assert root.get("class").split() == ["board", "comino"]


def test_svg_has_a_cell_for_every_tile_and_open_square():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s))
    cells = {e.get("data-cell") for e in by_class(root, "cell")}
    for x, y in list(s.board) + list(s.frontier):
        assert f"{x},{y}" in cells
    pieces = {e.get("data-cell"): e.get("data-tile") for e in by_class(root, "piece")}
    assert pieces == {f"{x},{y}": t for (x, y), t in s.board.items()}


def test_svg_pieces_have_four_corner_quadrants_in_the_tiles_colours():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s))
    piece = next(e for e in by_class(root, "piece") if e.get("data-cell") == "1,1")
    quads = [e for e in piece if "corner" in (e.get("class") or "")]
    assert [q.get("class").split()[-1] for q in quads] == [f"corner-{c}" for c in "YRBB"]
    # top-left quadrant is above and left of the bottom-right one
    tl, br = quads[0], quads[2]
    assert float(tl.get("x")) < float(br.get("x")) and float(tl.get("y")) < float(br.get("y"))


def test_svg_highlight_of_a_tile_marks_where_it_fits_and_in_which_rotations():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s, highlight=["BBYY"]))
    lit = {e.get("data-cell"): e for e in by_class(root, "highlight")}
    legal = {(m.x, m.y) for m in s.legal_moves() if isinstance(m, Place)}
    assert set(lit) == {f"{x},{y}" for x, y in legal}
    cell = lit["0,1"]
    assert "YYBB@0,1" in cell.get("data-moves").split()
    for r in map(int, cell.get("data-rotations").split()):
        assert f"{rotate('BBYY', r)}@0,1" in cell.get("data-moves").split()


def test_svg_highlight_of_squares():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s, highlight=["0,1", (-1, 2)]))
    assert {e.get("data-cell") for e in by_class(root, "highlight")} == {"0,1", "-1,2"}
    with pytest.raises(MalformedError):
        GAME.render_svg(s, highlight=[3.5])
    with pytest.raises(MalformedError):
        GAME.render_svg(s, highlight=["BBBB"])


def test_svg_shows_both_racks():
    s = GAME.from_position(SEED_EXAMPLE)
    root = svg_root(GAME.render_svg(s))
    racks = {e.get("data-player"): e for e in by_class(root, "rack")}
    assert set(racks) == {"1", "2"}
    assert [t.get("data-tile") for t in by_class(racks["1"], "rack-tile")] == ["BBYY"]
    assert [t.get("data-tile") for t in by_class(racks["2"], "rack-tile")] == ["RRRR"]


def test_svg_is_deterministic_and_a_function_of_the_position():
    rng = random.Random(4)
    s = GAME.new_state(seed=4)
    resolve_chance(s, rng)
    for _ in range(9):
        s.play(rng.choice(s.legal_moves()))
    again = GAME.from_position(s.position())
    assert GAME.render_svg(s) == GAME.render_svg(again) == GAME.render_svg(s)
    assert GAME.render_text(s) == GAME.render_text(again)


def test_svg_of_the_empty_start_state_parses():
    root = svg_root(GAME.render_svg(GAME.new_state()))
    assert root.get("viewBox")


# --- where a rack tile fits -------------------------------------------------------------
def test_placements_for_lists_every_fitting_rotation():
    s = GAME.from_position(SEED_EXAMPLE)
    spots = placements_for(s, "BBYY")
    assert spots == sorted(spots)
    legal = {str(m) for m in s.legal_moves()}
    assert {f"{rotate('BBYY', r)}@{x},{y}" for x, y, r in spots} == legal
    # the tile may be given in any orientation
    assert placements_for(s, "YYBB") == spots


def test_placements_for_a_symmetric_tile_lists_equivalent_rotations():
    s = GAME.from_position("BRBY@0,0 YYYY BRBR,RRRR 0 0 2")
    spots = placements_for(s, "BRBR")
    assert (0, 1, 1) in spots and (0, 1, 3) in spots  # RBRB, seen at rotation 1 or 3
    assert (0, 1, 0) not in spots


def test_placements_for_a_tile_not_in_the_movers_hand_is_empty():
    s = GAME.from_position(SEED_EXAMPLE)
    assert placements_for(s, "RRRR") == []
    assert placements_for(GAME.new_state(), "YYYY") == []
    with pytest.raises(MalformedError):
        placements_for(s, "XXXX")


def test_structured_moves_give_the_page_tiles_orientations_and_removals():
    """The page's tile picker reads these instead of working out notation or rotations."""
    stuck = GAME.from_position(
        "BBBY@0,0 BRBR,BRRR,BRYR,RRRY,RRYY,RYRY,YYYY BBBR,BBRR,BBRY,BBYR,BBYY,BRBY,RRRR 0 0 1"
    )
    infos = [stuck.move_info(m) for m in stuck.legal_moves()]
    assert sorted(i["tile"] for i in infos) == sorted(stuck.hands[0])  # only removals left
    assert all(
        i["remove"] and stuck.move_cells(m) == ()
        for i, m in zip(infos, stuck.legal_moves(), strict=True)
    )
    s = GAME.from_position(SEED_EXAMPLE)
    for m in s.legal_moves():
        info = s.move_info(m)
        assert info["tile"] == "BBYY" and rotate(info["orientation"], 0) == m.tile
        assert s.move_cells(m) == (f"{m.x},{m.y}",)
    turns = s.tile_turns()["BBYY"]
    assert [t["orientation"] for t in turns] == [rotate("BBYY", q) for q in range(4)]
    assert list(turns[1]["corners"]) == list(rotate("BBYY", 1))  # clockwise, top-left first
