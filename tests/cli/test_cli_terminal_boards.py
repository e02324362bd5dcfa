"""Terminal boards a person can read, checked in a pseudo-terminal as a person plays (issue 44,
items 11-13): Comune's rows named at both ends, ``moves`` filtered by cell, one "game over";
Comino's deal in one line and its rack turned; Hexagone's cells written out, move lists
broken between moves, ``start`` as a position, Ctrl-L, and "(you)" in a solo game."""

from __future__ import annotations

import re

from .terminal import Terminal

PROMPT = r"to move> "


def test_comune_rows_moves_by_cell_and_one_game_over(tmp_path):
    with Terminal("play", "comune", "--seats", "human,human", "--seed", "1", cwd=tmp_path) as t:
        board = t.expect(PROMPT)
        rows = [line.split() for line in board.splitlines() if re.match(r"\s*[a-e][1-9]\s", line)]
        assert [(row[0], row[-1]) for row in rows] == list(
            zip(
                ["e9", "d8", "c7", "b6", "a5", "a4", "a3", "a2", "a1"],
                ["i9", "i8", "i7", "i6", "i5", "h4", "g3", "f2", "e1"],
                strict=True,
            )
        )
        t.send("c7/")
        t.expect(PROMPT)
        t.send("moves")
        listed = t.expect(PROMPT)
        assert re.search(r"\d{4} legal moves: too many to list; type 'moves CELL'", listed)
        start = len(listed)
        t.send("moves e5")
        shown = t.expect(PROMPT)[start:]
        moves = [m for line in shown.splitlines()[1:-1] for m in line.split("  ") if m]
        assert moves and all("e5" in m for m in moves) and "e5-" in moves
        assert all(re.fullmatch(r"[a-i][1-9][-/\\]( [a-i][1-9][-/\\])?", m) for m in moves)
        t.send("pass")
        t.expect(PROMPT)
        t.send("pass")
        assert t.finish() == 0
    assert t.text.count("game over") == 1


def test_comino_deal_in_one_line_and_the_rack_turned(tmp_path):
    with Terminal("play", "comino", "--seed", "1", cwd=tmp_path) as t:
        shown = t.expect(PROMPT)
        t.send("quit")
        t.finish()
    chance = [line for line in shown.splitlines() if "chance" in line]
    assert len(chance) == 1 and chance[0].lstrip().startswith("1-21. chance: deal x21:")
    rack = re.search(r"> first .*rack: ([BRY ]+)", shown)[1].split()
    turned = shown[shown.index("turned clockwise") :]
    for tile in rack:  # each tile with its turns: BBRY YBBR RYBB BRYB
        turns = [tile[4 - k :] + tile[: 4 - k] for k in range(4)]
        assert " ".join(dict.fromkeys(turns)) in turned


def test_hexagone_cells_wrapped_moves_clear_screen_and_you(tmp_path):
    with Terminal("play", "hexagone", "--seed", "1", cwd=tmp_path, columns=80) as t:
        board = t.expect(r"player1 \(you\) to move> ")
        pieces = re.findall(r"\b[ROYGBPW](-?\d+),(-?\d+)\b", board)
        rows = re.findall(r"^r=\s*(-?\d+)(.*)$", board, re.M)
        assert pieces and all(
            set(re.findall(r"[ROYGBPW]-?\d+,(-?\d+)", rest)) == {r} for r, rest in rows
        )
        start = len(t.text)
        t.send("moves")
        listed = t.expect(r"\(you\) to move> ")[start:].splitlines()[1:-1]
        assert len(listed) > 3 and all(len(line) <= 80 for line in listed)
        for line in listed:
            assert all(re.fullmatch(r"swap -?\d+,-?\d+ -?\d+,-?\d+", m) for m in line.split("  "))
        t.send_raw(b"\x0c")
        t.expect(r"\(you\) to move> ")
        t.send("quit")
        assert t.finish() == 0
    assert "^L" not in t.text and b"\x1b[2J" in t.raw.split(b"moves")[-1]


def test_show_start(tmp_path):
    with Terminal("show", "hexagone", "start", "-o", "players=3", cwd=tmp_path) as t:
        assert t.finish() == 0
    assert "player 3 captured" in t.text and "to move: chance" in t.text
