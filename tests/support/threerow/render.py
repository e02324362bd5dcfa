"""The grid for a terminal and as SVG: each square a ``rect.cell`` with its ``data-cell``."""

from __future__ import annotations

from .notation import FILES, RANKS
from .state import ThreeRowState

SIZE = 60


def render_text(state: ThreeRowState) -> str:
    rows = []
    for r in (2, 1, 0):
        rows.append(RANKS[r] + " " + " ".join(state.cells[r * 3 : r * 3 + 3]))
    return "\n".join(rows + ["  " + " ".join(FILES)])


def render_svg(state: ThreeRowState, highlight=()) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board threerow" '
        f'viewBox="0 0 {3 * SIZE} {3 * SIZE}" role="img" aria-label="Three in a Row">'
    ]
    for square, mark in enumerate(state.cells):
        x, y = (square % 3) * SIZE, (2 - square // 3) * SIZE
        name = FILES[square % 3] + RANKS[square // 3]
        out.append(
            f'<rect class="cell" data-cell="{name}" x="{x}" y="{y}" width="{SIZE}" '
            f'height="{SIZE}" fill="#f4efe1" stroke="#333"/>'
        )
        if mark != ".":
            out.append(
                f'<text class="piece" data-cell="{name}" x="{x + SIZE / 2}" y="{y + SIZE * 0.7}" '
                f'text-anchor="middle" font-size="{SIZE * 0.6}">{mark.upper()}</text>'
            )
    out.append("</svg>")
    return "".join(out)
