"""The Comune board as SVG, for the web club and for documents.

A pure function of the state: it asks the state for pieces and closed cells and decides
nothing itself. Output is deterministic (fixed order, fixed number formatting), so it can
be cached and compared in tests.

Contract with the web club: the root ``<svg>`` has a ``viewBox`` and
``class="board comune"``; every cell is a ``<polygon class="cell ...">`` with
``data-cell="e5"`` (``closed`` when no one may place there, ``highlight`` when asked);
every piece is a ``<rect class="piece light|dark angle-h|angle-r|angle-f">`` with
``data-cell`` and ``data-angle`` (the notation symbol). Presentation attributes (fill,
stroke) give a readable board standalone; CSS overrides them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from xml.sax.saxutils import quoteattr

from ludoteca.core.errors import MalformedError

from .board import ANGLE_SYMBOLS, CELL_NAMES, CELLS, NAME_INDEX, NUM_CELLS, cells_of
from .notation import decode_turn, parse_turn
from .state import SIDES, ComuneState

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


def render_svg(state: ComuneState, *, highlight: Iterable[object] = ()) -> str:
    marked = highlight_cells(highlight)
    closed = set(cells_of(state.closed_to_both()))
    width = 10 * UNIT + 2 * MARGIN
    height = 9 * HEIGHT + 2 * RADIUS + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'class="board comune" data-position={quoteattr(state.position())}>',
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
                    f"data-angle={quoteattr(ANGLE_SYMBOLS[angle])} "
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
