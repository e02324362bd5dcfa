"""Drawing a Kuniumi position: a text board for terminals and an SVG for the web club.

Both are pure functions of the state: they ask it what is where and never apply a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape
from numbers import Integral

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import Text

from .flat import CHOOSE_PHASE, SETUP
from .notation import FILES, PIECE_LETTERS, PIECE_NAMES, parse_square, square_name
from .state import KuniumiState

STYLES = {"E": "bold white on green", "l": "green", "S": "bold white on blue", "s": "blue"}
"""Rich styles: land green, sea blue; Gods drawn solid so they stand out from tokens."""

LEGEND = "E Earth God, l land token, S Sea God, s sea token, . empty"


def piece_at(state: KuniumiState, square: int) -> str | None:
    """The piece letter on ``square`` (E, l, S, s) or ``None``."""
    bit = 1 << square
    if bit == state.earth_god:
        return "E"
    if bit == state.sea_god:
        return "S"
    if state.land & bit:
        return "l"
    if state.sea & bit:
        return "s"
    return None


def render_text(state: KuniumiState, *, color: bool = False) -> str:
    """A 6x6 board with files and ranks; Gods upper case, tokens lower case."""
    files = "    " + " ".join(FILES)
    lines = [files]
    for rank in range(5, -1, -1):
        cells = []
        for file in range(6):
            letter = piece_at(state, rank * 6 + file)
            if letter is None:
                cells.append("[dim].[/dim]" if color else ".")
            elif color:
                style = STYLES[letter]
                cells.append(f"[{style}]{letter}[/{style}]")
            else:
                cells.append(letter)
        lines.append(f" {rank + 1}  {' '.join(cells)}  {rank + 1}")
    lines.append(files)
    lines.append(LEGEND)
    if state.phase == SETUP and not state.is_over:
        kind = state._setup_kind()
        lines.append(f"set-up: next piece {PIECE_NAMES[kind]} ({PIECE_LETTERS[kind]})")
    elif state.phase == CHOOSE_PHASE:
        lines.append("the second player chooses a side: land or sea")
    return "\n".join(lines)


# --- SVG ------------------------------------------------------------------------------------------
CELL = 60
MARGIN = 30
SIZE = 2 * MARGIN + 6 * CELL
COLOURS = {"land": "#3a8f3a", "sea": "#2f6db5", "land_edge": "#1f5a1f", "sea_edge": "#1b4478"}


def _highlight_squares(highlight: Iterable[object]) -> set[int]:
    squares = set()
    for item in highlight:
        if isinstance(item, str):
            squares.add(parse_square(item.strip()))
        elif isinstance(item, Integral) and not isinstance(item, bool) and 0 <= int(item) < 36:
            squares.add(int(item))
        else:
            raise MalformedError(item, "a highlighted cell is a square like c3 or an index 0-35")
    return squares


def render_svg(
    state: KuniumiState, *, highlight: Iterable[object] = (), translate: Callable[[str], str] = str
) -> str:
    """A deterministic SVG of the board.

    Contract with the web club: the root has a ``viewBox`` and ``class="board kuniumi"``;
    every square is a ``rect`` with ``class="cell ..."`` and ``data-cell`` in binding notation
    (``highlight`` added for highlighted squares); every piece is an element with
    ``class="piece ..."`` and the same ``data-cell``.
    """
    marked = _highlight_squares(highlight)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'class="board kuniumi" role="img" aria-label="{escape(translate(_label(state)))}">',
        f'<rect class="frame" x="0" y="0" width="{SIZE}" height="{SIZE}" fill="#efe6cf"/>',
    ]
    for rank in range(5, -1, -1):
        for file in range(6):
            square = rank * 6 + file
            x, y = _corner(square)
            shade = "light" if (rank + file) % 2 else "dark"
            classes = f"cell {shade}" + (" highlight" if square in marked else "")
            fill = "#f6e27a" if square in marked else ("#e4d7b5" if shade == "light" else "#d5c59c")
            out.append(
                f'<rect class="{classes}" data-cell="{square_name(square)}" x="{x}" y="{y}" '
                f'width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a7a55" stroke-width="1"/>'
            )
    for cell in state.closed_group():  # the group that ended the game, outlined
        x, y = _corner(parse_square(cell))
        out.append(
            f'<rect class="closed-group" data-cell="{cell}" x="{x + 3}" y="{y + 3}" '
            f'width="{CELL - 6}" height="{CELL - 6}" fill="none" stroke="#c0392b" '
            f'stroke-width="4" rx="4"/>'
        )
    for square in range(36):
        letter = piece_at(state, square)
        if letter is not None:
            out.append(_piece_svg(letter, square, translate))
    for i in range(6):
        cx = MARGIN + i * CELL + CELL // 2
        out.append(
            f'<text class="coord file" x="{cx}" y="{SIZE - 10}" text-anchor="middle" '
            f'font-size="14" fill="#5a4d2e">{FILES[i]}</text>'
        )
        cy = MARGIN + (5 - i) * CELL + CELL // 2 + 5
        out.append(
            f'<text class="coord rank" x="{MARGIN // 2}" y="{cy}" text-anchor="middle" '
            f'font-size="14" fill="#5a4d2e">{i + 1}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _corner(square: int) -> tuple[int, int]:
    rank, file = divmod(square, 6)
    return MARGIN + file * CELL, MARGIN + (5 - rank) * CELL


def _piece_svg(letter: str, square: int, translate: Callable[[str], str] = str) -> str:
    x, y = _corner(square)
    cx, cy = x + CELL // 2, y + CELL // 2
    side = "land" if letter in "El" else "sea"
    cell = square_name(square)
    fill, edge = COLOURS[side], COLOURS[f"{side}_edge"]
    if letter in "ls":
        return (
            f'<circle class="piece token {side}" data-cell="{cell}" cx="{cx}" cy="{cy}" '
            f'r="{CELL * 3 // 10}" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
        )
    name = escape(translate(PIECE_NAMES[0] if letter == "E" else PIECE_NAMES[1]))
    return (
        f'<g class="piece god {side}" data-cell="{cell}">'
        f"<title>{name}</title>"
        f'<circle cx="{cx}" cy="{cy}" r="{CELL * 4 // 10}" fill="#ffffff" stroke="{edge}" '
        f'stroke-width="3"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{CELL * 3 // 10}" fill="{fill}"/>'
        f'<text x="{cx}" y="{cy + 7}" text-anchor="middle" font-size="20" font-weight="bold" '
        f'fill="#ffffff">{letter}</text>'
        f"</g>"
    )


def _label(state: KuniumiState) -> Text:
    return Text("Kuniumi position {position}", {"position": state.position()})
