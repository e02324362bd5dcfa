"""An independent, deliberately simple Comune reference for the tests.

Written straight from the rules file with coordinate tuples, dicts and sets: no bitboards,
no shared code with the engine. Slow, obvious, and the yardstick for ``legal`` and
``perft`` counts, scoring and random-game differentials.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

LETTERS = "abcdefghi"
SYMBOLS = "-/\\"
OFFSETS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]
CELLS = [(c, r) for r in range(9) for c in range(9) if abs(c - r) <= 4]
PIECE = {("L", 0): "H", ("L", 1): "R", ("L", 2): "F", ("D", 0): "h", ("D", 1): "r", ("D", 2): "f"}


def name(cell: tuple[int, int]) -> str:
    return f"{LETTERS[cell[0]]}{cell[1] + 1}"


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = cell
    return [(c + dc, r + dr) for dc, dr in OFFSETS if (c + dc, r + dr) in CELL_SET]


CELL_SET = set(CELLS)


@dataclass
class Ref:
    board: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    side: str = "L"
    passes: int = 0

    def supply(self, side: str) -> int:
        return 35 - sum(1 for s, _ in self.board.values() if s == side)

    def may_place(self, side: str, cell: tuple[int, int], angle: int) -> bool:
        if cell in self.board:
            return False
        for n in neighbours(cell):
            if n in self.board:
                s, a = self.board[n]
                if s != side and a != angle:
                    return False
        return True

    def placements(self, side: str) -> list[tuple[tuple[int, int], int]]:
        if self.supply(side) == 0:
            return []
        return [(c, a) for c in CELLS for a in range(3) if self.may_place(side, c, a)]

    def over(self) -> bool:
        return self.passes >= 2 or (not self.placements("L") and not self.placements("D"))

    def turns(self) -> list[str]:
        """Every legal turn as text, placements in angle order."""
        if self.over():
            return []
        singles = self.placements(self.side)
        out = ["pass"] + [name(c) + SYMBOLS[a] for c, a in singles]
        opening = not self.board and self.side == "L"
        if not opening and self.supply(self.side) >= 2:
            for (c1, a1), (c2, a2) in combinations(singles, 2):
                if a1 != a2 and c1 != c2:
                    first, second = sorted([(a1, c1), (a2, c2)])
                    out.append(
                        f"{name(first[1])}{SYMBOLS[first[0]]} {name(second[1])}{SYMBOLS[second[0]]}"
                    )
        return out

    def play(self, turn: str) -> Ref:
        board = dict(self.board)
        if turn == "pass":
            passes = self.passes + 1
        else:
            passes = 0
            for token in turn.split():
                cell = (LETTERS.index(token[0]), int(token[1:-1]) - 1)
                board[cell] = (self.side, SYMBOLS.index(token[-1]))
        return Ref(board, "D" if self.side == "L" else "L", passes)

    def largest(self, side: str, angle: int) -> int:
        cells = {c for c, (s, a) in self.board.items() if s == side and a == angle}
        best = 0
        while cells:
            stack = [cells.pop()]
            size = 0
            while stack:
                cell = stack.pop()
                size += 1
                for n in neighbours(cell):
                    if n in cells:
                        cells.remove(n)
                        stack.append(n)
            best = max(best, size)
        return best

    def score(self, side: str) -> int:
        return self.largest(side, 0) * self.largest(side, 1) * self.largest(side, 2)

    def winner(self) -> str | None:
        """'L', 'D' or None for a draw (by score, then by the single largest group)."""
        light, dark = self.score("L"), self.score("D")
        if light != dark:
            return "L" if light > dark else "D"
        light = max(self.largest("L", a) for a in range(3))
        dark = max(self.largest("D", a) for a in range(3))
        if light != dark:
            return "L" if light > dark else "D"
        return None

    def position(self) -> str:
        rows = []
        for r in range(8, -1, -1):
            text, run = "", 0
            for c in range(9):
                if (c, r) not in CELL_SET:
                    continue
                if (c, r) in self.board:
                    if run:
                        text += str(run)
                        run = 0
                    text += PIECE[self.board[(c, r)]]
                else:
                    run += 1
            rows.append(text + (str(run) if run else ""))
        return f"{'/'.join(rows)} {self.side} {self.passes}"


def from_cells(pieces: dict[str, str], side: str = "L", passes: int = 0) -> Ref:
    """A reference position from ``{"e5": "H", ...}`` (position letters)."""
    board = {}
    for cell_name, letter in pieces.items():
        cell = (LETTERS.index(cell_name[0]), int(cell_name[1:]) - 1)
        assert cell in CELL_SET, cell_name
        colour = "L" if letter.isupper() else "D"
        board[cell] = (colour, "hrf".index(letter.lower()))
    return Ref(board, side, passes)


def from_text(text: str) -> Ref:
    """Parse position text with the reference's own tiny reader (rows 9..1, letters up)."""
    rows_text, side, passes = text.split()
    pieces = {}
    for row_text, r in zip(rows_text.split("/"), range(8, -1, -1), strict=True):
        cs = [c for c in range(9) if abs(c - r) <= 4]
        i = 0
        for ch in row_text:
            if ch.isdigit():
                i += int(ch)
            else:
                pieces[f"{LETTERS[cs[i]]}{r + 1}"] = ch
                i += 1
    return from_cells(pieces, side, int(passes))


def perft(ref: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    turns = ref.turns()
    if depth == 1:
        return len(turns)
    return sum(perft(ref.play(t), depth - 1) for t in turns)
