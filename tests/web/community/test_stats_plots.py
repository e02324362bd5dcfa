"""``/stats`` never freezes and its plots speak every language.

A refresh of the numbers that fails is logged, tried again, and said on the page; Wilson's
interval holds its rate at 0 of n and n of n (a bound a hair beyond it froze the page); a
fresh club shows words, not empty axes. The plots (and the profile's) are SVG whose words
are text: property-based tests over any tallies and rating histories check, in every
language, that they draw without error and that what they draw is what a direct count of
the numbers gives. Colours come only from the page's CSS (light and dark)."""

from __future__ import annotations

import logging
import re
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.bots.arena import wilson
from ludoteca.web.accounts.profiles import rating_plot
from ludoteca.web.i18n.catalogs import language
from ludoteca.web.i18n.languages import LANGUAGES
from ludoteca.web.infra.store import Store
from ludoteca.web.stats.service import Stats, first_player_plot, months_plot
from tests.web.stats_data import put_tallies

SVG = "{http://www.w3.org/2000/svg}"
CODES = sorted(LANGUAGES)
GAMES = [("comune", 2), ("comino", 2), ("kuniumi", 2), ("hexagone", 2), ("hexagone", 4)]


def fresh_stats(club, url: str) -> Stats:
    """A new :class:`Stats` for the club (its numbers computed at the next request)."""
    stats = Stats(Store(url, migrate_schema=False))
    club.app.state.club.stats = stats
    return stats


def parsed(svg) -> ET.Element:
    root = ET.fromstring(str(svg))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
    for element in root.iter():  # colours come from the page's CSS, light or dark
        assert not re.search(
            r"#[0-9a-f]{3,6}\b", element.get("style", "") + element.get("fill", "")
        )
    return root


def words_of(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 1000])
def test_wilsons_interval_holds_its_rate_at_0_and_n_of_n(n):
    for wins in (0, n):
        low, high = wilson(wins, n)
        assert 0.0 <= low <= wins / n <= high <= 1.0
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0


def test_the_first_player_plot_draws_three_games_the_first_seat_lost():
    low, high = wilson(0, 3)
    games = [
        {
            "game": "toy",
            "title": "Toy",
            "players": 2,
            "games": 3,
            "first_rate": 0.0,
            "first_low": low,
            "first_high": high,
        },
    ]
    root = parsed(first_player_plot(games, language("en")))
    assert "Toy, 2 players" in words_of(root)


def test_a_failed_refresh_is_logged_tried_again_and_said_on_the_page(club, club_url, caplog):
    stats = fresh_stats(club, club_url)
    stats.cache_seconds, stats.retry_seconds = 0.0, 2.0
    first = stats.snapshot()
    real = stats.compute
    calls = Counter()

    def broken():
        calls["broken"] += 1
        raise ValueError("'xerr' must not contain negative values")

    stats.compute = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="ludoteca.web"):
        page = club.get("/stats")  # answered with the old numbers; the refresh fails
        deadline = time.monotonic() + 10
        while stats.failed_at is None and time.monotonic() < deadline:
            time.sleep(0.02)
    assert any("could not be refreshed" in r.getMessage() for r in caplog.records)
    assert 'id="stats-age"' in page.text
    page = club.get("/stats")
    assert 'id="stats-stale"' in page.text, "the page says its numbers are stale"
    assert calls["broken"] == 1, "no second try before retry_seconds"
    stats.compute = real  # type: ignore[method-assign]
    deadline = time.monotonic() + 10
    while stats.snapshot() is first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stats.snapshot() is not first and stats.failed_at is None, "tried again, and fresh"
    assert 'id="stats-stale"' not in club.get("/stats").text


def test_a_fresh_club_says_no_games_yet_instead_of_empty_axes(club, club_url):
    put_tallies(club_url, [])
    fresh_stats(club, club_url)
    page = club.get("/stats").text
    assert "<svg" not in page and ".png" not in page
    assert page.count('class="muted plot-empty"') == 2
    assert 'id="stats-age"' in page  # when the numbers were computed


def test_every_empty_cell_shows_a_dash(club, club_url):
    """A pool whose games all ended by resignation has no average length: "—", as the score
    margin of a game without scores."""
    put_tallies(club_url, [{"game": "comune", "players": 2, "month": "2026-01", "games": 2}])
    fresh_stats(club, club_url)
    page = club.get("/stats").text
    row = re.search(r'<tr data-game="comune" data-players="2">(.*?)</tr>', page, re.S)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1), re.S)
    assert [("—" in c) for c in cells[5:7]] == [True, True], cells


def test_japanese_words_in_the_plots_are_text(club, club_url, person):
    put_tallies(
        club_url,
        [
            {
                "game": "hexagone",
                "players": 3,
                "month": "2026-02",
                "games": 5,
                "first_wins": 2,
                "decided": 5,
                "plies": 200,
            }
        ],
    )
    fresh_stats(club, club_url)
    page = club.get("/stats?lang=ja").text
    assert "<img" not in page.split('id="by-game"', 1)[1]
    assert re.search(r"<text[^>]*>月ごとの対局数</text>", page)
    assert re.search(r"<text[^>]*>Hexagone、3人</text>", page), "the pool's name translated"
    assert 'id="by-month"' in page  # the plot's numbers as a table
    table = page.split('id="by-game"', 1)[1].split("</thead>", 1)[0]
    headers = re.findall(r'<th scope="col">(.*?)</th>', table)
    assert len(set(headers)) == len(headers) == 7, f"two columns named alike: {headers}"


tally = st.fixed_dictionaries(
    {
        "pool": st.sampled_from(GAMES),
        "month": st.sampled_from(["2025-12", "2026-01", "2026-02", "2026-03"]),
        "games": st.one_of(st.integers(1, 3), st.integers(1, 5000)),
        "share": st.sampled_from([0.0, 1.0, 0.5]) | st.floats(0, 1),
    }
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(tally, max_size=8, unique_by=lambda t: (t["pool"], t["month"])))
def test_the_stats_plots_agree_with_a_direct_count(club, club_url, tallies):
    rows = []
    for t in tallies:
        game, players = t["pool"]
        n = t["games"]
        wins = round(t["share"] * n)
        rows.append(
            {
                "game": game,
                "players": players,
                "month": t["month"],
                "games": n,
                "first_wins": wins,
                "decided": n,
                "plies": 30 * n,
            }
        )
    put_tallies(club_url, rows)
    numbers = Stats(Store(club_url, migrate_schema=False)).compute()
    per_pool: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    per_month: dict[tuple, int] = Counter()
    for r in rows:
        per_pool[(r["game"], r["players"])][0] += r["games"]
        per_pool[(r["game"], r["players"])][1] += r["first_wins"]
        per_month[(r["month"], r["game"])] += r["games"]
    for code in CODES:
        words = language(code)
        first = first_player_plot(numbers["games"], words)
        months = months_plot(numbers["months"], words)
        if not rows:
            assert first is None and months is None
            continue
        dots = [c for c in parsed(first).iter(f"{SVG}circle")]
        expected = [per_pool[(g["game"], g["players"])] for g in numbers["games"]]
        assert [float(d.get("data-value")) for d in dots] == pytest.approx(
            [wins / n for n, wins in expected], abs=1e-5
        )
        bars = Counter()
        titles = {g["title"]: g["game"] for g in numbers["games"]}
        for bar in parsed(months).iter(f"{SVG}rect"):
            if bar.get("data-value") is not None:
                bars[(bar.get("data-category"), titles[bar.get("data-series")])] += int(
                    bar.get("data-value")
                )
        assert bars == +per_month
    for g in numbers["games"]:
        assert 0 <= g["first_low"] <= g["first_rate"] <= g["first_high"] <= 1


points = st.lists(
    st.tuples(st.floats(-500, 4000), st.floats(0, 400)), min_size=0, max_size=60
) | st.lists(st.tuples(st.just(1500.0), st.just(350.0)), min_size=1000, max_size=1500)


@settings(max_examples=12, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["Comune", "Hexagone, 3–6 players", "Kuniumi"]), points, max_size=3
    )
)
def test_the_rating_plot_draws_each_rated_game_in_every_language(series):
    drawn = {name: pts for name, pts in series.items() if pts}
    for code in CODES:
        svg = rating_plot("ann", series, language(code))
        if not drawn:
            assert svg is None
            continue
        root = parsed(svg)
        dots = defaultdict(list)
        for dot in root.iter(f"{SVG}circle"):
            dots[dot.get("data-series")].append(float(dot.get("data-value")))
        assert dots == {
            name: pytest.approx([r for r, _ in pts], rel=1e-5, abs=1e-3)
            for name, pts in drawn.items()
        }
        words = words_of(root)
        assert all(name in words for name in drawn)  # the legend
