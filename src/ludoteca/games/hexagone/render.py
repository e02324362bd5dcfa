"""Hexagone drawn for people: as SVG for the web club, and as text for a terminal. Both
are pure functions of the state: they ask it for its cells, phase and legal moves and decide
nothing themselves.

**SVG**: hexagons in their colours, dice, captured piles. The web club makes it clickable
through the contract shared by all games: the root has ``class="board hexagone"`` and a
``viewBox``; every cell is a ``<g>`` with ``class="cell ..."`` and ``data-cell="q,r"``;
every piece is a polygon with ``class="piece ..."`` and ``data-cell``; cells asked for in
``highlight`` get ``highlight``; pieces that take part in a legal swap get ``swappable``; in
a reform, the empty cells that can take a pool piece are drawn as ``cell empty target`` so
they can be clicked.

**Text**: a hex map whose pieces show their colour and cell. Rows are the ``r``
coordinate, each shifted half a piece from the one above as on a hex grid; a piece is
printed as its colour letter followed by its cell, so ``G-1,2`` is the green piece on cell
``-1,2``, what a person types in ``swap`` (no coordinate to piece together from a row).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterable
from html import escape
from typing import Any

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import Text

from .geometry import cell_to_str, coords, parse_cell
from .notation import COLOURS, PLACE, SWAP
from .state import MAIN_PHASE, OVER, REFORM, ROLL_PHASE, SECOND, SWAP_PHASE, HexagoneState

FILL = {
    "R": "#d62828",
    "O": "#f77f00",
    "Y": "#f6d32d",
    "G": "#2a9d3f",
    "B": "#1d5fd1",
    "P": "#8e44ad",
    "W": "#f4f4f4",
}
SIZE = 20.0
ROOT3 = math.sqrt(3.0)


def _n(x: float) -> str:
    """Numbers printed the same way on every machine (determinism of the SVG text)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r


def _hexagon(x: float, y: float, radius: float) -> str:
    points = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        points.append(f"{_n(x + radius * math.cos(a))},{_n(y + radius * math.sin(a))}")
    return " ".join(points)


def _highlight_cells(highlight: Iterable[Any]) -> set[int]:
    out = set()
    for item in highlight:
        if isinstance(item, str):
            out.add(parse_cell(item))
        elif (
            isinstance(item, tuple)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            out.add(parse_cell(f"{item[0]},{item[1]}"))
        else:
            raise MalformedError(item, 'highlight cells are given as "q,r" or (q, r)')
    return out


def render_svg(
    state: HexagoneState, *, highlight: Iterable[Any] = (), translate: Callable[[str], str] = str
) -> str:
    marked = _highlight_cells(highlight)
    swappable: set[int] = set()
    targets: set[int] = set()
    mains: set[int] = set()
    if state.phase == SWAP_PHASE:
        for m in state.legal_moves():
            if m[0] == SWAP:
                swappable.update(m[1:])
    elif state.phase == REFORM:
        targets = {m[2] for m in state.legal_moves() if m[0] == PLACE}
    elif state.phase == MAIN_PHASE:
        mains = set(state.main_choices())

    shown = sorted(set(state.cells) | targets | (marked - set(state.cells)))
    centres = {c: _centre(*coords(c)) for c in shown}
    xs = [x for x, _ in centres.values()] or [0.0]
    ys = [y for _, y in centres.values()] or [0.0]
    pad = SIZE * 1.2
    left, top = min(xs) - pad, min(ys) - pad
    width = max(xs) - min(xs) + 2 * pad
    rows = 3 + state.num_players + (1 if any(state.pool) else 0)
    height = max(max(ys) - min(ys) + 2 * pad, rows * 26.0 + 20)

    status = translate(_status(state))
    hint = translate(PHASE_HINTS[state.phase]) if state.phase in PHASE_HINTS else ""
    piles = [
        (translate(Text("{who}: {count}", {"who": _who(state, p), "count": sum(pile)})), pile)
        for p, pile in enumerate(state.captured)
    ]
    if any(state.pool):
        piles.append((translate(Text("pool")), state.pool))
    # The panel is as wide as its longest line, in every language (a fixed width cut the
    # German and Japanese hints, and long piles, at the drawing's edge).
    token_x = max([PILE_TOKENS_AT] + [text_width(label) + 8 for label, _ in piles])
    panel_width = 10 + max(
        [PANEL_WIDTH, text_width(status) + 8, text_width(hint) + 8]
        + [token_x + PILE_STEP * sum(pile) + 8 for _, pile in piles]
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board hexagone" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width + panel_width)} {_n(height)}" '
        f'data-phase="{state.phase}">'
    ]
    out.append('<g class="block">')
    for c in shown:
        x, y = centres[c]
        name = cell_to_str(c)
        classes = ["cell"]
        k = state.cells.get(c)
        if k is None:
            classes.append("empty")
            if c in targets:
                classes.append("target")
        if c in marked:
            classes.append("highlight")
        if c in mains:
            classes.append("main-choice")
        out.append(f'<g class="{" ".join(classes)}" data-cell="{name}">')
        if k is None:
            out.append(
                # Filled (faintly), so a click anywhere inside the slot reaches it: with no
                # fill only the 1-px dashed outline was clickable.
                f'<polygon class="slot" points="{_hexagon(x, y, SIZE * 0.92)}" '
                'fill="#888" fill-opacity="0.06" pointer-events="all" stroke="#888" '
                'stroke-dasharray="3 2"/>'
            )
        else:
            letter = COLOURS[k]
            piece = ["piece", f"colour-{letter}"]
            if c in swappable:
                piece.append("swappable")
            stroke = "#000" if c in marked else "#333"
            width_px = "3" if c in marked or c in swappable else "1"
            out.append(
                f'<polygon class="{" ".join(piece)}" data-cell="{name}" data-colour="{letter}" '
                f'points="{_hexagon(x, y, SIZE * 0.95)}" fill="{FILL[letter]}" '
                f'stroke="{stroke}" stroke-width="{width_px}">'
                f"<title>{letter} {name}</title></polygon>"
            )
        out.append("</g>")
    out.append("</g>")

    # the side panel: dice, whose turn, captured piles, pool
    px = left + width + 10
    py = top + 24
    out.append('<g class="panel" font-family="sans-serif" font-size="13">')
    out.append(f'<text x="{_n(px)}" y="{_n(py)}">{escape(status)}</text>')
    if hint:
        py += 18
        out.append(f'<text class="hint" x="{_n(px)}" y="{_n(py)}">{escape(hint)}</text>')
    py += 10
    out.append('<g class="dice">')
    if state.dice is not None:
        for i, k in enumerate(state.dice):
            letter = COLOURS[k]
            out.append(
                f'<rect class="die colour-{letter}" data-colour="{letter}" x="{_n(px + i * 30)}" '
                f'y="{_n(py)}" width="24" height="24" rx="4" fill="{FILL[letter]}" stroke="#000"/>'
            )
    out.append("</g>")
    py += 44
    for p, (label, pile) in enumerate(piles):
        if p < len(state.captured):
            out.append(_pile_svg(f"captured player{p + 1}", label, pile, px, py, p, token_x))
            py += 26
        else:
            out.append(_pile_svg("pool", label, pile, px, py, None, token_x))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


PHASE_HINTS = {
    ROLL_PHASE: Text("the dice are rolled"),
    SWAP_PHASE: Text("swap two pieces (see the dice)"),
    SECOND: Text("no capture: roll again or stop?"),
    MAIN_PHASE: Text("choose which section stays"),
    REFORM: Text("place the pool's pieces"),
}
"""What the player to move does now, in words: the phase names are notation ("second" told
a player nothing). Short enough for the panel's width."""


PANEL_WIDTH = 220.0
"""The side panel's least width (SVG units; its text is 13 units high)."""
PILE_TOKENS_AT = 90.0
PILE_STEP = 9.0


def text_width(text: str, size: float = 13.0) -> float:
    """A generous estimate of ``text``'s drawn width in sans-serif at ``size``: a wide
    (CJK) character takes a full em, any other two thirds of one (wider than the average
    Latin letter, so the estimate errs towards room to spare)."""
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF")
    return size * (wide + 0.66 * (len(text) - wide))


def _who(state: HexagoneState, p: int) -> Text:
    return Text("captured") if state.num_players == 1 else Text("player {n}", {"n": p + 1})


def _status(state: HexagoneState) -> Text:
    if state.phase == OVER:
        result = state.result
        assert result is not None
        if state.num_players == 1:
            return Text("over: score {score}", {"score": sum(state.captured[0])})
        winners = ", ".join(str(p + 1) for p in result.winners)
        return Text("over: won by player {players}", {"players": winners})
    if state.num_players == 1:
        who = Text("solo")
    else:
        who = Text("player {n} to move", {"n": state.player + 1})
    if state.rolls_left is None:
        return who
    return Text("{who}, {rolls} rolls left", {"who": who, "rolls": state.rolls_left})


def _pile_svg(
    cls: str, label: str, counts: list[int], x: float, y: float, player, tokens_at: float
) -> str:
    attr = f' data-player="{player}"' if player is not None else ""
    parts = [
        f'<g class="{cls}"{attr}>',
        f'<text x="{_n(x)}" y="{_n(y + 12)}">{escape(label)}</text>',
    ]
    cx = x + tokens_at
    for k in range(7):
        for _ in range(counts[k]):
            letter = COLOURS[k]
            parts.append(
                f'<polygon class="token colour-{letter}" points="{_hexagon(cx, y + 8, 6)}" '
                f'fill="{FILL[letter]}" stroke="#333" stroke-width="0.5"/>'
            )
            cx += PILE_STEP
    parts.append("</g>")
    return "".join(parts)


STYLE = {
    "R": "bold red",
    "O": "bold dark_orange",
    "Y": "bold yellow",
    "G": "bold green",
    "B": "bold blue",
    "P": "bold magenta",
    "W": "bold white",
}
WIDTH = 4


def _paint(text: str, letter: str, color: bool) -> str:
    return f"[{STYLE[letter]}]{text}[/{STYLE[letter]}]" if color else text


def _pile(counts: list[int], color: bool) -> str:
    parts = [_paint(f"{COLOURS[k]}×{counts[k]}", COLOURS[k], color) for k in range(7) if counts[k]]
    return " ".join(parts) if parts else "-"


def render_map(state: HexagoneState, *, color: bool = False) -> list[str]:
    if not state.cells:
        return ["(the block is empty)"]
    placed = {coords(c): COLOURS[k] for c, k in state.cells.items()}
    rs = [r for _, r in placed]
    r0, r1 = min(rs), max(rs)
    # column of a cell in half-piece units: 2q + r keeps neighbours next to each other
    x0 = min(2 * q + r for q, r in placed)
    longest = 1 + max(len(f"{q},{r}") for q, r in placed)  # colour letter and cell
    width = max(WIDTH, longest + 1 + (longest + 1) % 2)  # even: rows shift by half a piece
    lines = []
    for r in range(r0, r1 + 1):
        row = sorted((q for q, rr in placed if rr == r))
        line = f"r={r:>3} "
        col = 0
        for q in row:
            x = (2 * q + r - x0) * width // 2
            line += " " * (x - col)
            token = f"{placed[q, r]}{q},{r}"
            line += _paint(token, placed[q, r], color)
            col = x + len(token)
        lines.append(line.rstrip())
    lines.append("      (each piece: its colour, then its cell q,r as moves name it)")
    return lines


def render_text(state: HexagoneState, *, color: bool = False) -> str:
    lines = render_map(state, color=color)
    lines.append("")
    n = state.num_players
    who = "solo" if n == 1 else f"player {state.player + 1}"
    phase = state.phase
    if phase == OVER:
        pass  # whoever shows the board says how the game ended, once
    elif phase == ROLL_PHASE:
        lines.append(f"{who}: the dice are to be rolled")
    elif phase == SWAP_PHASE:
        a, b = state.dice  # type: ignore[misc]
        dice = _paint(COLOURS[a], COLOURS[a], color) + " " + _paint(COLOURS[b], COLOURS[b], color)
        lines.append(f"{who} to swap; dice: {dice}" + (" (double)" if a == b else ""))
    elif phase == SECOND:
        lines.append(f"{who}: no capture — again (second roll) or stop")
    elif phase == MAIN_PHASE:
        lines.append(f"{who}: name the main block (main q,r)")
    elif phase == REFORM:
        lines.append(f"{who}: reform the block; pool: {_pile(state.pool, color)}")
    if state.rolls_left is not None:
        lines.append(f"rolls left: {state.rolls_left}")
    else:
        lines.append(f"turns without capture: {state.since}")
    for p, pile in enumerate(state.captured):
        label = "captured" if n == 1 else f"player {p + 1} captured"
        lines.append(f"{label}: {sum(pile)}  {_pile(pile, color)}")
    return "\n".join(lines)
