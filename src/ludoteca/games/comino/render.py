"""Drawing a Comino position: text for the terminal, SVG for the web club.

Both are pure functions of the state: they ask it what lies where and (for highlights)
where a tile fits, and never decide a rule themselves.

SVG contract: the root ``<svg>`` has a ``viewBox`` and ``class="board comino"``; every square
of the drawn area (covered or not) is a ``<rect class="cell" data-cell="x,y">``; every tile on
the table is a ``<g class="piece tile" data-cell="x,y" data-tile="YRBB">`` of four coloured
corner quadrants; highlighted squares get class ``highlight`` and, when the highlight is a
tile, ``data-rotations`` (quarter turns clockwise from the tile's name, space-separated) and
``data-moves`` (the placement moves there), with a faint ``<g class="ghost">`` of the first
fitting orientation and a ``<text class="fit-rotations">`` listing the rotations. Both racks
follow the board as ``<g class="rack" data-player="1|2">`` holding
``<g class="rack-tile" data-tile="NAME">``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from html import escape

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.protocol import CHANCE

from .geometry import name_of, orientations, rotate
from .notation import parse_tile

_MARKUP = {"B": "bold blue", "R": "bold red", "Y": "bold yellow"}
_FILL = {"B": "#2f6fd0", "R": "#d23c3c", "Y": "#f2c230"}


def _extent(state) -> tuple[int, int, int, int]:
    """The squares drawn: the table plus its frontier (where the next tile may go)."""
    squares = list(state.board) + list(state.frontier)
    if not squares:
        return 0, 0, 0, 0
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), max(xs), min(ys), max(ys)


def _paint(text: str, color: bool) -> str:
    if not color:
        return text
    return "".join(f"[{_MARKUP[c]}]{c}[/{_MARKUP[c]}]" if c in _MARKUP else c for c in text)


def render_text(state, *, color: bool = False) -> str:
    """The table, each tile as its four corners in a 2x2 block, then both racks.

    Each square is two lines: top-left and top-right corner colours, then bottom-left and
    bottom-right. Empty squares where a tile may go show ``..``; other empty squares blank.
    """
    lines: list[str] = []
    if state.board:
        lines.append("each square: top-left top-right / bottom-left bottom-right; .. open")
        x0, x1, y0, y1 = _extent(state)
        lines.append("   y  " + "".join(f"{x:>4}" for x in range(x0, x1 + 1)) + "  = x")
        for y in range(y1, y0 - 1, -1):
            top = [f"{y:>4}  "]
            bottom = ["      "]
            for x in range(x0, x1 + 1):
                tile = state.board.get((x, y))
                if tile is not None:
                    top.append("  " + _paint(tile[0] + tile[1], color))
                    bottom.append("  " + _paint(tile[3] + tile[2], color))
                elif (x, y) in state.frontier:
                    top.append("  ..")
                    bottom.append("  ..")
                else:
                    top.append("    ")
                    bottom.append("    ")
            lines.append("".join(top).rstrip())
            lines.append("".join(bottom).rstrip())
    else:
        lines.append("(the table is empty: the start tile is drawn first)")
    lines.append("")
    mover = state.to_move
    for p in (0, 1):
        hand = sorted(state.hands[p])
        rack = " ".join(_paint(t, color) for t in hand) or "(empty)"
        arrow = "> " if mover == p else "  "
        lines.append(f"{arrow}{state.side_name(p):<6} {state.score[p]:>3} points  rack: {rack}")
    if mover == CHANCE:
        lines.append(f"dealing: {state.draws} of 21 tiles drawn")
    if mover in (0, 1) and state.hands[mover]:
        lines.extend(turned_rack(sorted(state.hands[mover]), color))
    return "\n".join(lines)  # the end is said once, by whoever shows the board


def turned_rack(tiles: list[str], color: bool, per_line: int = 3) -> list[str]:
    """The mover's tiles in every orientation: a placement is typed as the tile lies on the
    table, so the turned names are shown rather than worked out in one's head."""
    groups = [" ".join(_paint(name, color) for name in orientations(tile)) for tile in tiles]
    widths = [len(" ".join(orientations(tile))) for tile in tiles]
    out = ["  turned clockwise (type the one that fits):"]
    for start in range(0, len(groups), per_line):
        row = ""
        for group, width in zip(
            groups[start : start + per_line], widths[start : start + per_line], strict=True
        ):
            row += "    " + group + " " * (19 - width)
        out.append(row.rstrip())
    return out


# --- SVG ------------------------------------------------------------------------------------
S = 40  # pixels per square
M = 28  # margin for coordinates
RACK_GAP = 16

_CELL = re.compile(r"\s*([+-]?[0-9]{1,6})\s*,\s*([+-]?[0-9]{1,6})\s*")


def _fits(state, highlight: Iterable) -> tuple[set[tuple[int, int]], dict]:
    """Split ``highlight`` into plain squares and, per square, a tile's fitting rotations."""
    squares: set[tuple[int, int]] = set()
    rotations: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for item in highlight:
        if isinstance(item, tuple) and len(item) == 2 and all(isinstance(v, int) for v in item):
            squares.add(item)
            continue
        if isinstance(item, str):
            m = _CELL.fullmatch(item)
            if m:
                squares.add((int(m.group(1)), int(m.group(2))))
                continue
            name = name_of(parse_tile(item.strip()))
            for x, y, r in state.placements_for(name):
                rotations.setdefault((x, y), []).append((r, f"{rotate(name, r)}@{x},{y}"))
            continue
        raise MalformedError(item, "highlight a square as 'x,y' or (x, y), or a tile such as YRBB")
    return squares, rotations


def _tile_svg(tile: str, left: float, top: float, size: float) -> list[str]:
    h = size / 2
    quads = ((0, 0), (h, 0), (h, h), (0, h))  # TL, TR, BR, BL in screen coordinates
    parts = [
        f'<rect x="{left + dx:g}" y="{top + dy:g}" width="{h:g}" height="{h:g}" '
        f'fill="{_FILL[c]}" class="corner corner-{c}"/>'
        for (dx, dy), c in zip(quads, tile, strict=True)
    ]
    parts.append(
        f'<rect x="{left:g}" y="{top:g}" width="{size:g}" height="{size:g}" '
        'fill="none" stroke="#222" stroke-width="1.5"/>'
    )
    return parts


def render_svg(state, *, highlight: Iterable = (), translate: Callable[[str], str] = str) -> str:
    """A deterministic SVG of the table (tiles as coloured corner quadrants, coordinates,
    the frontier as empty cells) and both racks; see the module docstring for the classes."""
    plain, fitting = _fits(state, highlight)
    x0, x1, y0, y1 = _extent(state)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    board_w, board_h = M + cols * S, M + rows * S
    rack_s = S * 0.8
    rack_w = 11 * (rack_s + 6)
    width = max(board_w, rack_w + 90) + 8
    height = board_h + 2 * (rack_s + RACK_GAP) + 12
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'class="board comino" data-to-move="{state.to_move}">',
        f'<rect class="background" x="0" y="0" width="{width:g}" height="{height:g}" '
        'fill="#f4efe4"/>',
    ]
    for x in range(x0, x1 + 1):
        cx = M + (x - x0) * S + S / 2
        out.append(
            f'<text class="coord coord-x" x="{cx:g}" y="{M - 8:g}" '
            f'text-anchor="middle" font-size="12">{x}</text>'
        )
    for y in range(y1, y0 - 1, -1):
        cy = M + (y1 - y) * S + S / 2 + 4
        out.append(
            f'<text class="coord coord-y" x="{M - 6:g}" y="{cy:g}" '
            f'text-anchor="end" font-size="12">{y}</text>'
        )
    left: float
    top: float
    for y in range(y1, y0 - 1, -1):
        for x in range(x0, x1 + 1):
            left, top = M + (x - x0) * S, M + (y1 - y) * S
            classes = ["cell"]
            if (x, y) in state.frontier:
                classes.append("open")
            extra = ""
            if (x, y) in plain or (x, y) in fitting:
                classes.append("highlight")
            if (x, y) in fitting:
                rots = " ".join(str(r) for r, _ in fitting[(x, y)])
                moves = " ".join(m for _, m in fitting[(x, y)])
                extra = f' data-rotations="{rots}" data-moves="{escape(moves)}"'
            fill = "#bfe3b4" if "highlight" in classes else "#e8e1d3"
            out.append(
                f'<rect class="{" ".join(classes)}" data-cell="{x},{y}"{extra} x="{left}" '
                f'y="{top}" width="{S}" height="{S}" fill="{fill}" stroke="#c9bfa9"/>'
            )
    for (x, y), options in sorted(fitting.items()):
        left, top = M + (x - x0) * S, M + (y1 - y) * S
        ghost = options[0][1].split("@")[0]
        out.append(f'<g class="ghost" data-cell="{x},{y}" data-tile="{ghost}" opacity="0.45">')
        out.extend(_tile_svg(ghost, left + S / 4, top + S / 4, S / 2))
        out.append("</g>")
        rots = " ".join(str(r) for r, _ in options)
        out.append(
            f'<text class="fit-rotations" x="{left + 3}" y="{top + 10}" '
            f'font-size="8">&#8635;{rots}</text>'
        )
    for (x, y), tile in sorted(state.board.items()):
        left, top = M + (x - x0) * S, M + (y1 - y) * S
        out.append(f'<g class="piece tile" data-cell="{x},{y}" data-tile="{tile}">')
        out.extend(_tile_svg(tile, left, top, S))
        out.append("</g>")
    for p in (0, 1):
        top = board_h + 8 + p * (rack_s + RACK_GAP)
        mover = " to-move" if state.to_move == p else ""
        out.append(f'<g class="rack{mover}" data-player="{p + 1}">')
        rack_label = Text("{side} {score}", {"side": state.side_name(p), "score": state.score[p]})
        out.append(
            f'<text x="4" y="{top + rack_s / 2 + 4:g}" font-size="12">'
            f"{escape(translate(rack_label))}</text>"
        )
        for i, tile in enumerate(sorted(state.hands[p])):
            left = 90 + i * (rack_s + 6)
            out.append(
                f'<g class="rack-tile" data-tile="{tile}" data-player="{p + 1}" data-index="{i}">'
            )
            out.extend(_tile_svg(tile, left, top, rack_s))
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
