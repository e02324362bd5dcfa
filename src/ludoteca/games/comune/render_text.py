"""The Comune board for a terminal: the hexagon as drawn in the rules, row 9 on top.

Each cell is three characters wide; each row is shifted by half a cell, so the six
neighbours of a cell are where the eye expects them. Light's pieces are bracketed
``[-] [/] [\\]``, Dark's parenthesised ``(-) (/) (\\)``, so colour and angle are readable
without colour too; ``x`` marks an empty cell closed to both players, ``.`` any other empty
cell. Row numbers run up the left edge, column letters along the bottom and lower right.
"""

from __future__ import annotations

from rich.markup import escape

from .board import ANGLE_SYMBOLS, CELLS, cells_of
from .state import SIDES, ComuneState

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


def board_lines(state: ComuneState, *, color: bool = False) -> list[str]:
    """The board only, one string per text line (row 9 first, column letters last)."""
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
    for r in range(8, -2, -1):
        items: list[tuple[int, str, str | None]] = []
        if r >= 0:
            cmin, cmax = max(0, r - 4), min(8, r + 4)
            items.append((_column(cmin - 1, r), str(r + 1), None))
            for c in range(cmin, cmax + 1):
                token, style = tokens[(c, r)]
                items.append((_column(c, r), token, style))
            if r <= 3:  # the lower right edge: the letter of the column that starts here
                items.append((_column(r + 5, r), "abcdefghi"[r + 5], None))
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
    result = state.result
    if result is not None:
        out.append(f"game over: {result.reason}")
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
