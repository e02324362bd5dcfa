"""Text and SVG rendering: legible, complete, deterministic, and free of rules of their own."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from ludoteca.core import MalformedError, get
from ludoteca.games.comune.render import UNIT

GAME = get("comune")
SVG = "{http://www.w3.org/2000/svg}"
FIG3 = "5/6/7/3fh3/3F1H3/8/7/6/5 D 0"  # e5 closed to both


def fig3():
    return GAME.from_position(FIG3)


# --- text --------------------------------------------------------------------------------
def test_text_board_shape_and_labels():
    lines = GAME.render_text(GAME.new_state()).splitlines()
    board = lines[:11]
    assert board[0].split() == list("efghi")  # the columns that end on the top row
    rows = board[1:10]
    # every row between the names of its first and last cells, read along the row
    assert [line.split()[0] for line in rows] == [
        "e9",
        "d8",
        "c7",
        "b6",
        "a5",
        "a4",
        "a3",
        "a2",
        "a1",
    ]
    assert [line.split()[-1] for line in rows] == [
        "i9",
        "i8",
        "i7",
        "i6",
        "i5",
        "h4",
        "g3",
        "f2",
        "e1",
    ]
    assert [line.count(".") for line in rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    assert board[10].split() == list("abcde")


def test_text_shows_colour_angle_and_closed_cells_without_colour():
    text = GAME.render_text(fig3())
    row5 = text.splitlines()[5]
    assert row5.split() == ["a5", ".", ".", ".", "[\\]", "x", "[-]", ".", ".", ".", "i5"]
    row6 = text.splitlines()[4]
    assert "(\\) (-)" in row6
    assert "[" not in text.replace("[-]", "").replace("[/]", "").replace("[\\]", "")
    assert "dark" in text and "<- to move" in text
    assert "score 1 x 0 x 1 = 0" in text


def test_text_rows_are_offset_half_a_cell():
    lines = GAME.render_text(GAME.new_state()).splitlines()
    first_dot = [line.index(".") for line in lines[1:10]]
    steps = [b - a for a, b in zip(first_dot, first_dot[1:], strict=False)]
    assert steps == [-2] * 4 + [2] * 4


def test_text_color_uses_markup_that_rich_renders_to_the_plain_board():
    from rich.text import Text

    plain = GAME.render_text(fig3())
    colored = GAME.render_text(fig3(), color=True)
    assert colored != plain and "[bold yellow]" in colored
    assert Text.from_markup(colored).plain == plain


def test_text_leaves_the_result_to_whoever_shows_it():
    s = GAME.new_state()
    s.play("pass")
    s.play("pass")
    assert "game over" not in GAME.render_text(s)  # said once, by whoever shows the board
    assert "Light's first turn" not in GAME.render_text(s)


# --- SVG ---------------------------------------------------------------------------------
def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_svg_root_contract():
    root = parse(GAME.render_svg(GAME.new_state()))
    assert root.tag == f"{SVG}svg"
    assert root.get("class") == "board comune"
    assert len(root.get("viewBox").split()) == 4
    assert root.get("data-position") == "5/6/7/8/9/8/7/6/5 L 0"


def test_svg_has_61_cells_with_binding_names():
    root = parse(GAME.render_svg(GAME.new_state()))
    cells = [e for e in root.iter() if "cell" in (e.get("class") or "").split()]
    names = {e.get("data-cell") for e in cells}
    assert len(cells) == 61 and len(names) == 61 and {"a1", "e5", "i9"} <= names
    assert all(e.tag == f"{SVG}polygon" and len(e.get("points").split()) == 6 for e in cells)


def test_svg_cells_sit_where_the_rules_draw_them():
    root = parse(GAME.render_svg(GAME.new_state()))
    centres = {}
    for e in root.iter(f"{SVG}polygon"):
        pts = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
        centres[e.get("data-cell")] = (
            sum(x for x, _ in pts) / 6,
            sum(y for _, y in pts) / 6,
        )
    ex, ey = centres["e5"]
    fx, fy = centres["f5"]  # (c+1, r): right
    assert fx - ex == pytest.approx(UNIT, abs=0.05) and fy == pytest.approx(ey, abs=0.05)
    gx, gy = centres["f6"]  # (c+1, r+1): up-right
    assert gx - ex == pytest.approx(UNIT / 2, abs=0.05) and gy < ey
    hx, hy = centres["e6"]  # (c, r+1): up-left
    assert hx - ex == pytest.approx(-UNIT / 2, abs=0.05)
    assert ey - hy == pytest.approx(UNIT * math.sqrt(3) / 2, abs=0.05)


def test_svg_pieces_carry_colour_angle_and_rotation():
    root = parse(GAME.render_svg(fig3()))
    pieces = [e for e in root.iter() if "piece" in (e.get("class") or "").split()]
    got = {
        (e.get("data-cell"), e.get("data-angle"), e.get("class"), e.get("transform").split()[0])
        for e in pieces
    }
    assert got == {
        ("f5", "-", "piece light angle-h", "rotate(0"),
        ("d5", "\\", "piece light angle-f", "rotate(60"),
        ("f6", "-", "piece dark angle-h", "rotate(0"),
        ("e6", "\\", "piece dark angle-f", "rotate(60"),
    }
    assert all(e.tag == f"{SVG}rect" for e in pieces)


def test_svg_marks_closed_cells_and_highlights():
    root = parse(GAME.render_svg(fig3(), highlight=["a1", "c3/", 60]))
    by_name = {e.get("data-cell"): e.get("class").split() for e in root.iter(f"{SVG}polygon")}
    assert "closed" in by_name["e5"]
    assert sum("closed" in c for c in by_name.values()) == 1
    assert {n for n, c in by_name.items() if "highlight" in c} == {"a1", "c3", "i9"}


def test_svg_coordinates_on_the_rim():
    root = parse(GAME.render_svg(GAME.new_state()))
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert sorted(texts) == sorted([str(n) for n in range(1, 10)] + list("abcdefghi"))


def test_svg_is_deterministic():
    assert GAME.render_svg(fig3(), highlight=["e5"]) == GAME.render_svg(fig3(), highlight=["e5"])
    assert GAME.render_svg(fig3()) != GAME.render_svg(GAME.new_state())


def test_svg_bad_highlight_is_refused():
    with pytest.raises(MalformedError):
        GAME.render_svg(fig3(), highlight=["z9"])
    with pytest.raises(MalformedError):
        GAME.render_svg(fig3(), highlight=[99])
