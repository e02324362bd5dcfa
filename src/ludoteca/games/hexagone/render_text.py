"""The block drawn for a terminal: a hex map whose pieces show their colour and coordinate.

Rows are the ``r`` coordinate, each shifted half a piece from the one above as on a hex
grid; a piece is printed as its colour letter followed by its ``q`` coordinate, so ``G-1``
on row ``r=2`` is the green piece on cell ``-1,2`` — what a person types in ``swap``.
"""

from __future__ import annotations

from .geometry import coords
from .notation import COLOURS
from .state import MAIN_PHASE, OVER, REFORM, ROLL_PHASE, SECOND, SWAP_PHASE, HexagoneState

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
    qs = [q for q, _ in placed]
    rs = [r for _, r in placed]
    r0, r1 = min(rs), max(rs)
    # column of a cell in half-piece units: 2q + r keeps neighbours next to each other
    x0 = min(2 * q + r for q, r in placed)
    longest = 1 + max(len(str(q)) for q in qs)  # colour letter and q
    width = max(WIDTH, longest + 1 + (longest + 1) % 2)  # even: rows shift by half a piece
    lines = []
    for r in range(r0, r1 + 1):
        row = sorted((q for q, rr in placed if rr == r))
        line = f"r={r:>3} "
        col = 0
        for q in row:
            x = (2 * q + r - x0) * width // 2
            line += " " * (x - col)
            token = f"{placed[q, r]}{q}"
            line += _paint(token, placed[q, r], color)
            col = x + len(token)
        lines.append(line.rstrip())
    lines.append(f"      (q from {min(qs)} to {max(qs)}; a piece shows colour and q)")
    return lines


def render_text(state: HexagoneState, *, color: bool = False) -> str:
    lines = render_map(state, color=color)
    lines.append("")
    n = state.num_players
    who = "solo" if n == 1 else f"player {state.player + 1}"
    phase = state.phase
    if phase == OVER:
        result = state.result
        assert result is not None
        winners = ", ".join(f"player {p + 1}" for p in result.winners)
        lines.append(
            f"game over: {result.reason}; "
            + (
                f"score {result.scores[0]}" if n == 1 else f"won by {winners}"  # type: ignore[index]
            )
        )
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
