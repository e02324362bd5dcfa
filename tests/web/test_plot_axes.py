"""Plots that count things (games, moves, points) have whole-number ticks: a rating history
of one game, and game lengths that are all the same, showed fractional axes."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from ludoteca.bots.analysis import count_histogram
from ludoteca.web.accounts.profiles import rating_figure


def visible_ticks(ax) -> list[float]:
    low, high = ax.get_xlim()
    return [t for t in ax.get_xticks() if low <= t <= high]


@pytest.mark.parametrize("games", [1, 2, 7, 60])
def test_the_rating_history_counts_games_in_whole_numbers(games):
    fig = rating_figure("ann", {"Kuniumi": [(1500 + 10 * i, 200.0) for i in range(games)]})
    ax = fig.axes[0]
    ticks = visible_ticks(ax)
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    assert ax.get_xlim() == (0.5, games + 0.5)


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
