"""Plots that count things (games, moves, points) have whole-number ticks: a rating history
of one game, and game lengths that are all the same, showed fractional axes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from matplotlib.figure import Figure

from ludoteca.bots.analysis import count_histogram
from ludoteca.web.accounts.profiles import rating_plot

SVG = "{http://www.w3.org/2000/svg}"


def visible_ticks(ax) -> list[float]:
    low, high = ax.get_xlim()
    return [t for t in ax.get_xticks() if low <= t <= high]


@pytest.mark.parametrize("games", [1, 2, 7, 60])
def test_the_rating_history_counts_games_in_whole_numbers(games):
    svg = rating_plot("ann", {"Kuniumi": [(1500 + 10 * i, 200.0) for i in range(games)]})
    root = ET.fromstring(str(svg))
    dots = [float(c.get("cx")) for c in root.iter(f"{SVG}circle")]
    step = (dots[-1] - dots[0]) / (games - 1) if games > 1 else None
    # The x axis's labels are whole game numbers under their games' points.
    labels = {
        float(t.get("x")): t.text
        for t in root.iter(f"{SVG}text")
        if t.text and t.text.isdigit() and t.get("transform") is None
    }
    ticks = {x: int(n) for x, n in labels.items() if any(abs(x - d) < 0.1 for d in dots)}
    assert ticks and all(1 <= n <= games for n in ticks.values()), labels
    for x, n in ticks.items():
        assert abs(x - dots[n - 1]) < 0.1
    if step is not None:
        assert step > 0


@pytest.mark.parametrize(
    "values", [[40] * 12, [40, 41, 41, 43], list(range(10, 200, 7)), [3.5, 4.25, 9.0]]
)
def test_a_histogram_of_counts_has_whole_ticks(values):
    fig = Figure()
    ax = fig.add_subplot()
    count_histogram(ax, values)
    ticks = visible_ticks(ax)
    assert ticks
    if all(float(v).is_integer() for v in values):
        assert all(float(t).is_integer() for t in ticks), ticks
    if len(set(values)) == 1:
        assert values[0] in ticks
