"""The text board and the SVG: readable, faithful to the position, deterministic, and the
SVG contract the web club relies on (viewBox, classes, data-cell)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ludoteca.core import MalformedError, get

GAME = get("kuniumi")
POSITION = "l4l/6/2S3/2Es2/6/s5 play land land"
SVG = "{http://www.w3.org/2000/svg}"


def board_from_text(text: str) -> dict[str, str]:
    """Read the drawn board back: square -> letter, from the rank-labelled lines."""
    out = {}
    for line in text.splitlines():
        m = re.fullmatch(r"\s*([1-6])\s+((?:\S\s){5}\S)\s+\1\s*", line)
        if m:
            for file, cell in zip("abcdef", m.group(2).split(), strict=True):
                if cell != ".":
                    out[f"{file}{m.group(1)}"] = cell
    return out


def pieces_of(position: str) -> dict[str, str]:
    out = {}
    for i, row in enumerate(position.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out[f"{'abcdef'[f]}{6 - i}"] = ch
                f += 1
    return out


def test_text_board_shows_every_piece_on_its_square_with_files_and_ranks():
    text = GAME.render_text(GAME.from_position(POSITION))
    assert board_from_text(text) == pieces_of(POSITION)
    assert text.splitlines()[0].split() == list("abcdef")
    ranks = [line.split()[0] for line in text.splitlines() if re.match(r"\s*[1-6]\s", line)]
    assert ranks == list("654321")  # rank 6 on top
    assert "[" not in text  # no markup without colour


def test_text_board_of_the_start_is_empty_and_names_the_next_piece():
    text = GAME.render_text(GAME.new_state())
    assert board_from_text(text) == {}
    assert text.count(".") >= 36
    assert "Earth God" in text.splitlines()[-1]


def test_text_board_in_colour_uses_markup_that_rich_accepts():
    from rich.text import Text

    marked = GAME.render_text(GAME.from_position(POSITION), color=True)
    assert "[green]l[/green]" in marked and "[blue]s[/blue]" in marked
    plain = Text.from_markup(marked).plain
    assert board_from_text(plain) == pieces_of(POSITION)


def test_gods_and_tokens_are_distinguishable():
    text = GAME.render_text(GAME.from_position(POSITION))
    board = board_from_text(text)
    assert board["c3"] == "E" and board["c4"] == "S"
    assert board["a6"] == "l" and board["d3"] == "s"


def parse_svg(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_svg_contract():
    state = GAME.from_position(POSITION)
    root = parse_svg(GAME.render_svg(state))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    assert root.get("class").split() == ["board", "kuniumi"]
    cells = [e for e in root.iter() if "cell" in (e.get("class") or "").split()]
    names = sorted(e.get("data-cell") for e in cells)
    assert names == sorted(f + r for f in "abcdef" for r in "123456")
    pieces = [e for e in root.iter() if "piece" in (e.get("class") or "").split()]
    drawn = {}
    for e in pieces:
        classes = e.get("class").split()
        side = "land" if "land" in classes else "sea"
        kind = "god" if "god" in classes else "token"
        letter = {("land", "god"): "E", ("sea", "god"): "S", ("land", "token"): "l"}.get(
            (side, kind), "s"
        )
        drawn[e.get("data-cell")] = letter
    assert drawn == pieces_of(POSITION)


def test_svg_highlight_marks_exactly_the_given_cells():
    state = GAME.from_position(POSITION)
    root = parse_svg(GAME.render_svg(state, highlight=["c5", "F3", 0]))
    marked = {
        e.get("data-cell") for e in root.iter() if "highlight" in (e.get("class") or "").split()
    }
    assert marked == {"c5", "f3", "a1"}
    assert all(
        "cell" in e.get("class").split()
        for e in root.iter()
        if "highlight" in (e.get("class") or "")
    )


@pytest.mark.parametrize("bad", ["z9", "c33", 36, -1, None, True])
def test_svg_refuses_bad_highlights(bad):
    with pytest.raises(MalformedError):
        GAME.render_svg(GAME.new_state(), highlight=[bad])


def test_svg_is_deterministic_and_follows_the_position():
    a = GAME.render_svg(GAME.from_position(POSITION))
    b = GAME.render_svg(GAME.from_position(POSITION))
    assert a == b
    state = GAME.from_position(POSITION)
    state.play("c3-c6")
    assert GAME.render_svg(state) != a
