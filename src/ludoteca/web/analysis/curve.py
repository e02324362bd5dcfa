"""A finished review as the replay page shows it: the curve with its axes, and each mark
with the player who made it and the number of the move among the players' own moves.

Move numbers count what players chose, never the table's draws: Comino's deal is 21 draws,
so its 4th placement is ply 25 of the record but move 4 here, as in the game log. The curve
starts where the first player first chooses (the deal is the table's, flat and no one's) and
its axes say what they measure, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from ludoteca.core.messages import Text

COLOURS = {"blunder": "#c0392b", "mistake": "#e67e22", "inaccuracy": "#b7950b"}
KIND_WORDS = {
    "blunder": Text("Blunder"),
    "mistake": Text("Mistake"),
    "inaccuracy": Text("Inaccuracy"),
}


def move_numbers(players: Sequence[int]) -> list[int]:
    """For each position (0 to the end) of a game whose moves were made by ``players`` (a
    negative number for the table), how many moves the players had made to reach it."""
    out = [0]
    for player in players:
        out.append(out[-1] + (1 if player >= 0 else 0))
    return out


def first_choice(players: Sequence[int]) -> int:
    """The first position at which a player (not the table) is to move: where the curve
    starts. The positions before it are the deal, whose value nobody chose."""
    return next((i for i, p in enumerate(players) if p >= 0), 0)


def annotated_marks(
    marks: Sequence[dict[str, Any]], players: Sequence[int], names: Sequence[str]
) -> list[dict[str, Any]]:
    """The review's marks with ``number`` (the move among the players' moves) and ``who``
    (the name of the player who made it)."""
    numbers = move_numbers(players)
    out = []
    for mark in marks:
        ply = int(mark.get("ply", 0))
        player = int(mark.get("player", -1))
        out.append(
            {
                **mark,
                "number": numbers[ply] if 0 <= ply < len(numbers) else ply,
                "who": names[player] if 0 <= player < len(names) else "",
            }
        )
    return out


def curve_svg(
    values: Sequence[Sequence[float]],
    marks: Sequence[dict[str, Any]],
    players: Sequence[int],
    names: Sequence[str],
    translate: Callable[[str], str] = str,
    width: int = 340,
    height: int = 190,
) -> str:
    """The curve of the first player's expected result after each move, from the first
    move a player chose to the end, with a y axis (0, ½, 1, titled with the player's name)
    and an x axis numbered by the players' moves. Each point names its ply (``data-ply``),
    so the page jumps to the move clicked; marks are dots in the colour of their kind."""
    if len(values) < 2:
        return ""
    numbers = move_numbers(players)
    start = min(first_choice(players), len(values) - 2)
    n = len(values) - 1 - start
    left, right, top, bottom = 30, 8, 24, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    x = lambda i: round(left + plot_w * (i - start) / n, 1)  # noqa: E731
    y = lambda v: round(top + plot_h * (1 - v), 1)  # noqa: E731
    points = " ".join(f"{x(i)},{y(values[i][0])}" for i in range(start, len(values)))
    parts = [
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="plot" '
        'style="fill: var(--surface, #fff)" stroke="#999"/>'
    ]
    for v, label in ((0.0, "0"), (0.5, "½"), (1.0, "1")):  # the y axis
        parts.append(
            f'<line x1="{left - 4}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}" stroke="#bbb" '
            f'stroke-dasharray="{"4 3" if v == 0.5 else "none"}"/>'
            f'<text class="tick" x="{left - 7}" y="{y(v) + 4}" text-anchor="end">{label}</text>'
        )
    last = numbers[-1]
    every = max(1, -(-last // 6))
    for i in range(start, len(values)):  # the x axis: ticks at the players' moves
        k = numbers[i]
        if k and k % every == 0 and numbers[i - 1] != k:
            parts.append(
                f'<line x1="{x(i)}" x2="{x(i)}" y1="{top + plot_h}" y2="{top + plot_h + 4}" '
                f'stroke="#777"/><text class="tick" x="{x(i)}" y="{top + plot_h + 15}" '
                f'text-anchor="middle">{k}</text>'
            )
    first = names[0] if names else ""
    y_title = translate(Text("{name}'s expected result", {"name": first}))
    x_title = translate(Text("move"))
    parts.append(
        f'<text class="axis-title" x="{left + plot_w / 2}" y="{height - 4}" '
        f'text-anchor="middle">{escape(x_title, quote=False)}</text>'
        f'<text class="axis-title" x="{left}" y="{top - 8}">{escape(y_title, quote=False)}</text>'
    )
    step_w = plot_w / n
    parts += [
        f'<rect class="hit" data-ply="{i}" x="{round(x(i) - step_w / 2, 1)}" y="{top}" '
        f'width="{round(step_w, 1)}" height="{plot_h}" fill="transparent"/>'
        for i in range(start, len(values))
    ]
    parts.append(f'<polyline points="{points}" fill="none" stroke="#3a8a5f" stroke-width="2"/>')
    for m in marks:
        ply = int(m["ply"])
        if not start <= ply < len(values):
            continue
        title = translate(
            Text(
                "{kind} by {who}: move {number}, {move} (−{drop}%)",
                {
                    "kind": KIND_WORDS.get(m["kind"], m["kind"]),
                    "who": m.get("who", ""),
                    "number": m.get("number", ply),
                    "move": m["move"],
                    "drop": round(100 * m["drop"]),
                },
            )
        )
        parts.append(
            f'<circle class="mark {escape(m["kind"])}" data-ply="{ply}" cx="{x(ply)}" '
            f'cy="{y(values[ply][0])}" r="5" fill="{COLOURS.get(m["kind"], "#777")}">'
            f"<title>{escape(title, quote=False)}</title></circle>"
        )
    label = translate(Text("Expected result of {name}, move by move", {"name": first}))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="review-curve" viewBox="0 0 {width} '
        f'{height}" role="img" aria-label="{escape(label)}" font-size="12" '
        f'font-family="system-ui, sans-serif" fill="currentColor">{"".join(parts)}</svg>'
    )
