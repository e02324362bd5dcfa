"""The computer review as a person reads it (issue 41, defect 11): move numbers count the
players' moves, not the deal's draws (Comino's "move 24" was its 4th placement); the curve
starts after the deal, has labelled axes in the reader's language, and each mark names the
player who made it."""

from __future__ import annotations

import re

from ludoteca.web.analysis.curve import annotated_marks, curve_svg
from ludoteca.web.i18n.catalogs import language

DEAL = [-1] * 21  # Comino: the table's 21 draws, then the players alternate
PLAYERS = DEAL + [0, 1] * 11
VALUES = [[0.5, 0.5]] * 22 + [[0.5 + 0.02 * (i % 3), 0.5 - 0.02 * (i % 3)] for i in range(22)]
MARK = {"ply": 25, "player": 1, "move": "BBRY@1,0", "kind": "mistake", "drop": 0.23}


def test_marks_count_the_players_moves_and_name_who_made_them():
    (mark,) = annotated_marks([MARK], PLAYERS, ["Ana", "Bob"])
    assert mark["number"] == 4  # the 4th placement, the record's ply 25
    assert mark["who"] == "Bob"


def test_the_curve_skips_the_deal_and_has_axes_in_the_readers_language():
    marks = annotated_marks([MARK], PLAYERS, ["Ana", "Bob"])
    svg = curve_svg(VALUES, marks, PLAYERS, ["Ana", "Bob"])
    plies = [int(p) for p in re.findall(r'class="hit" data-ply="(\d+)"', svg)]
    assert plies[0] == 21 and plies[-1] == 43  # from the first placement's position on
    assert "Ana's expected result" in svg and ">move<" in svg
    ticks = re.findall(r'class="tick"[^>]*>([^<]+)<', svg)
    assert {"0", "½", "1"} <= set(ticks)  # the y axis, and the x axis by players' moves:
    numbered = [int(t) for t in ticks if t.isdigit() and int(t) > 1]
    assert len(numbered) >= 5 and max(numbered) <= 22
    assert "Mistake by Bob: move 4" in svg
    german = curve_svg(VALUES, marks, PLAYERS, ["Ana", "Bob"], language("de").text)
    japanese = curve_svg(VALUES, marks, PLAYERS, ["Ana", "Bob"], language("ja").text)
    assert ">move<" not in german and ">move<" not in japanese
    assert "Ana" in german and "Ana" in japanese
