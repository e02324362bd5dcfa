"""Comune drawn for people: as SVG for the web club and documents, and as text for a
terminal. Both are pure functions of the state: they ask it for pieces and closed cells and
decide nothing themselves.

**SVG.** Output is deterministic (fixed order, fixed number formatting), so it can be cached
and compared in tests. Contract with the web club: the root ``<svg>`` has a ``viewBox`` and
``class="board comune"``; every cell is a ``<polygon class="cell ...">`` with
``data-cell="e5"`` (``closed`` when no one may place there, ``highlight`` when asked);
every piece is a ``<rect class="piece light|dark angle-h|angle-r|angle-f">`` with
``data-cell`` and ``data-angle`` (the notation symbol). Presentation attributes (fill,
stroke) give a readable board standalone; CSS overrides them.

**Text.** The hexagon as drawn in the rules, row 9 on top. Each cell is three characters
wide; each row is shifted by half a cell, so the six neighbours of a cell are where the eye
expects them. Light's pieces are bracketed ``[-] [/] [\\]``, Dark's parenthesised
``(-) (/) (\\)``, so colour and angle are readable without colour too; ``x`` marks an empty
cell closed to both players, ``.`` any other empty cell. Each row is labelled at both ends
with the names of its first and last cells (``c7 ... i7``), so a cell is found by reading
along its row; column letters stand below the bottom row and above the top one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from html import escape as escape_html

from rich.markup import escape

from ludoteca.core.errors import MalformedError

from .geometry import ANGLE_SYMBOLS, CELL_NAMES, CELLS, NAME_INDEX, NUM_CELLS, cells_of
from .notation import decode_turn, parse_turn
from .state import SIDES, ComuneState

# --- render_svg ----------------------------------------------------------------------------
UNIT = 40.0
"""Distance between the centres of neighbouring cells, in SVG units."""

RADIUS = UNIT / math.sqrt(3)
"""Centre-to-corner distance of a pointy-top hexagon whose neighbours are ``UNIT`` apart."""

HEIGHT = UNIT * math.sqrt(3) / 2
MARGIN = 10.0
ROTATION = (0, -60, 60)
"""SVG rotation (degrees, y down) of a piece's long axis for angles ``-``, ``/``, ``\\``."""
ANGLE_CLASSES = ("angle-h", "angle-r", "angle-f")

_FILL = {"cell": "#e4d5b0", "closed": "#b9a98a", "light": "#fbf6e9", "dark": "#2f3340"}
_STROKE = {"cell": "#8a7a5a", "highlight": "#d9412b", "light": "#6b5a3a", "dark": "#111111"}

_X0 = 3.5 * UNIT + MARGIN  # leftmost rim label is at x = -3 units
_Y0 = RADIUS + MARGIN


def centre(c: float, r: float) -> tuple[float, float]:
    """SVG centre of cell ``(c, r)``: the rules' drawing with y pointing down."""
    return _X0 + (c - r / 2) * UNIT, _Y0 + (8 - r) * HEIGHT


def _num(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _hexagon(cx: float, cy: float) -> str:
    points = []
    for k in range(6):
        a = math.radians(90 + 60 * k)
        points.append(f"{_num(cx + RADIUS * math.cos(a))},{_num(cy - RADIUS * math.sin(a))}")
    return " ".join(points)


def highlight_cells(highlight: Iterable[object]) -> set[int]:
    """Cell indices from cell names (``e5``), placements or turns (``e5- d4/``), indices."""
    out: set[int] = set()
    for item in highlight:
        if isinstance(item, bool):
            raise MalformedError(item, "a highlight is a cell name, a placement or a cell index")
        if isinstance(item, int):
            if not 0 <= item < NUM_CELLS:
                raise MalformedError(item, "a cell index is 0..60")
            out.add(item)
        elif isinstance(item, str):
            name = item.strip().lower()
            if name in NAME_INDEX:
                out.add(NAME_INDEX[name])
            elif name != "pass":
                out.update(code // 3 for code in decode_turn(parse_turn(item)))
        else:
            raise MalformedError(item, "a highlight is a cell name, a placement or a cell index")
    return out


def render_svg(
    state: ComuneState, *, highlight: Iterable[object] = (), translate: Callable[[str], str] = str
) -> str:
    marked = highlight_cells(highlight)
    closed = set(cells_of(state.closed_to_both()))
    width = 10 * UNIT + 2 * MARGIN
    height = 9 * HEIGHT + 2 * RADIUS + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'class="board comune" data-position="{escape_html(state.position())}">',
        '<g class="cells">',
    ]
    # highlighted cells last, so their outline is drawn over their neighbours'
    order = sorted(range(NUM_CELLS), key=lambda i: (i in marked, i))
    for index in order:
        c, r = CELLS[index]
        cx, cy = centre(c, r)
        classes = ["cell"]
        if index in closed:
            classes.append("closed")
        if index in marked:
            classes.append("highlight")
        fill = _FILL["closed"] if index in closed else _FILL["cell"]
        stroke, stroke_width = (
            (_STROKE["highlight"], 3) if index in marked else (_STROKE["cell"], 1)
        )
        out.append(
            f'<polygon class="{" ".join(classes)}" data-cell="{CELL_NAMES[index]}" '
            f'points="{_hexagon(cx, cy)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{stroke_width}"/>'
        )
    out.append("</g>")
    out.append('<g class="pieces">')
    length, thickness = 0.82 * UNIT, 0.26 * UNIT
    for index in range(NUM_CELLS):
        for player in (0, 1):
            for angle in range(3):
                if not state.pieces(player, angle) >> index & 1:
                    continue
                cx, cy = centre(*CELLS[index])
                side = SIDES[player]
                out.append(
                    f'<rect class="piece {side} {ANGLE_CLASSES[angle]}" '
                    f'data-cell="{CELL_NAMES[index]}" '
                    f'data-angle="{escape_html(ANGLE_SYMBOLS[angle])}" '
                    f'x="{_num(cx - length / 2)}" y="{_num(cy - thickness / 2)}" '
                    f'width="{_num(length)}" height="{_num(thickness)}" rx="3" '
                    f'fill="{_FILL[side]}" stroke="{_STROKE[side]}" stroke-width="1.5" '
                    f'transform="rotate({ROTATION[angle]} {_num(cx)} {_num(cy)})"/>'
                )
    out.append("</g>")
    out.append(
        '<g class="coords" font-family="sans-serif" font-size="14" fill="#555" '
        'text-anchor="middle" dominant-baseline="central">'
    )
    for r in range(9):  # row numbers up the left rim
        cx, cy = centre(max(0, r - 4) - 1, r)
        out.append(f'<text class="coord row" x="{_num(cx)}" y="{_num(cy)}">{r + 1}</text>')
    for c in range(9):  # column letters below-right of each column's lowest cell
        cx, cy = centre(c, max(0, c - 4) - 1)
        letter = "abcdefghi"[c]
        out.append(f'<text class="coord column" x="{_num(cx)}" y="{_num(cy)}">{letter}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- render_text ---------------------------------------------------------------------------
_BRACKETS = (("[", "]"), ("(", ")"))
_STYLES = ("bold yellow", "bold cyan")
_CLOSED_STYLE = "red"
_EMPTY_STYLE = "dim"


def _column(c: float, r: float) -> int:
    """Text column of the centre of cell ``(c, r)`` (may be a rim label's virtual cell)."""
    return int(round(4 * (c - r / 2 + 3))) + 2


def _paint(token: str, style: str | None, color: bool) -> str:
    if not color or style is None:
        return token
    return f"[{style}]{escape(token)}[/{style}]"


def piece_token(player: int, angle: int) -> str:
    left, right = _BRACKETS[player]
    return f"{left}{ANGLE_SYMBOLS[angle]}{right}"


NAME_INDEX_OF = {spot: index for index, spot in enumerate(CELLS)}
"""Cell index of each ``(column, row)``."""


def board_lines(state: ComuneState, *, color: bool = False) -> list[str]:
    """The board only, one string per text line: the column letters that end on the top
    row, rows 9 to 1 each between the names of their first and last cells, the column
    letters that start on the bottom row."""
    tokens: dict[tuple[int, int], tuple[str, str | None]] = {}
    for player in (0, 1):
        for angle in range(3):
            for cell in cells_of(state.pieces(player, angle)):
                tokens[CELLS[cell]] = (piece_token(player, angle), _STYLES[player])
    closed = set(cells_of(state.closed_to_both()))
    for index, spot in enumerate(CELLS):
        if spot not in tokens:
            tokens[spot] = ("x", _CLOSED_STYLE) if index in closed else (".", _EMPTY_STYLE)
    lines = []
    for r in range(9, -2, -1):
        items: list[tuple[int, str, str | None]] = []
        if 0 <= r <= 8:
            cmin, cmax = max(0, r - 4), min(8, r + 4)
            # each row between the names of its first and last cells: a row is read
            # along, never counted along a diagonal
            items.append((_column(cmin - 1, r), CELL_NAMES[NAME_INDEX_OF[(cmin, r)]], None))
            for c in range(cmin, cmax + 1):
                token, style = tokens[(c, r)]
                items.append((_column(c, r), token, style))
            items.append((_column(cmax + 1, r), CELL_NAMES[NAME_INDEX_OF[(cmax, r)]], None))
        elif r == 9:  # the columns that end on the top row
            items.extend((_column(c, 9), "abcdefghi"[c], None) for c in range(4, 9))
        else:
            items.extend((_column(c, -1), "abcde"[c], None) for c in range(5))
        line = ""
        width = 0  # printed width so far (markup excluded)
        for centre, token, style in items:
            start = centre - len(token) // 2
            line += " " * (start - width) + _paint(token, style, color)
            width = start + len(token)
        lines.append(line)
    return lines


def status_lines(state: ComuneState, *, color: bool = False) -> list[str]:
    out = []
    for player in (0, 1):
        groups = state.groups(player)
        score = groups[0] * groups[1] * groups[2]
        marker = "  <- to move" if state.to_move == player else ""
        sample = _paint(piece_token(player, 0), _STYLES[player], color)
        out.append(
            f"{SIDES[player]:<5} {sample}  supply {state.supply(player):>2}  "
            f"score {groups[0]} x {groups[1]} x {groups[2]} = {score}{marker}"
        )
    if state.result is not None:
        pass  # whoever shows the board says how the game ended, once
    elif state.is_opening:
        out.append("Light's first turn: one piece (or pass)")
    light = " ".join(piece_token(0, angle) for angle in range(3))
    dark = " ".join(piece_token(1, angle) for angle in range(3))
    legend = (
        f"{_paint(light, _STYLES[0], color)} light   "
        f"{_paint(dark, _STYLES[1], color)} dark   "
        f"{_paint('x', _CLOSED_STYLE, color)} closed to both"
    )
    out.append(legend)
    return out


def render_text(state: ComuneState, *, color: bool = False) -> str:
    return "\n".join(board_lines(state, color=color) + [""] + status_lines(state, color=color))
