"""The arena on tiny fixed tournaments: seating, table, ratings, JSON and records."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ludoteca.bots.arena import labels_for, schedule, seed_for, tournament, wilson
from ludoteca.cli.main import main
from ludoteca.core import get
from ludoteca.record import load, replay

Z = 1.959963984540054


def test_first_player_always_wins_a_pile_of_one(tmp_path):
    """Nim with one stone: whoever moves first takes it. So with seats alternating over four
    games each bot wins exactly the two games in which it moves first."""
    game = get("toy-nim", pile=1)
    summary, outcomes = tournament(
        game, ["random", "greedy"], games=4, seed=3, record_dir=tmp_path / "games"
    )
    assert [o.seats for o in outcomes] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert all(o.winners == (0,) for o in outcomes)
    for bot in summary["bots"]:
        assert (bot["games"], bot["wins"], bot["draws"], bot["losses"]) == (4, 2, 0, 2)
        assert bot["points"] == 2
        r = bot["rating"]
        assert r["low"] == pytest.approx(r["mu"] - Z * r["sigma"], abs=2e-3)
        assert r["high"] == pytest.approx(r["mu"] + Z * r["sigma"], abs=2e-3)
    assert summary["pairings"] == [
        {
            "a": "random",
            "b": "greedy",
            "games": 4,
            "a_wins": 2,
            "draws": 0,
            "b_wins": 2,
            "a_win_rate": 0.5,
            "a_win_low": round(wilson(2, 4)[0], 4),
            "a_win_high": round(wilson(2, 4)[1], 4),
            "a_score_rate": 0.5,
        }
    ]
    assert summary["first_seat"]["wins"] == 4 and summary["first_seat"]["rate"] == 1.0
    # the records replay through the engine to the results the summary reports
    for entry in summary["games"]:
        state = replay(load(entry["record"]))
        assert state.result.winners == (0,)
        assert entry["winners"] == [entry["seats"][0]]


def test_perfect_player_wins_every_game_and_is_rated_above():
    """From a pile of 5 the first player wins with best play: alpha-beta, searching to the
    end, wins every game in which it moves first, and is rated above random."""
    game = get("toy-nim", pile=5)
    summary, outcomes = tournament(game, ["alphabeta:depth=10", "random"], games=10, seed=1)
    ab = summary["bots"][0]
    for o in outcomes:
        ab_seat = o.seats.index(0)
        if ab_seat == 0:
            assert o.winners == (0,)
    assert ab["wins"] >= 5
    assert ab["rating"]["mu"] > summary["bots"][1]["rating"]["mu"]


def test_tally_agrees_with_the_games():
    game = get("toy-nim", pile=9)
    specs = ["random", "greedy", "mcts:iterations=50"]
    summary, outcomes = tournament(game, specs, games=6, seed=2)
    assert summary["total_games"] == 3 * 6  # three pairs
    labels = labels_for(specs)
    wins = Counter()
    for entry in summary["games"]:
        wins.update(entry["winners"])
    for bot in summary["bots"]:
        assert bot["wins"] == wins[bot["label"]]
        assert bot["wins"] + bot["draws"] + bot["losses"] == bot["games"] == 12
    assert [b["label"] for b in summary["bots"]] == list(labels)


def test_seat_swaps_share_a_seed():
    jobs = schedule(get("toy-nim", pile=9), ["random", "greedy"], 4, seed=7)
    assert [j.seed for j in jobs] == [seed_for(7, 0)] * 2 + [seed_for(7, 1)] * 2
    assert len({seed_for(7, k) for k in range(100)}) == 100


def test_three_players_rotate_through_every_seat():
    game = get("toy-nim3", pile=7)
    summary, outcomes = tournament(
        game, ["random", "greedy", "mcts:iterations=30"], games=6, seed=1
    )
    seats = Counter((entry, seat) for o in outcomes for seat, entry in enumerate(o.seats))
    assert all(seats[(e, s)] == 2 for e in range(3) for s in range(3))
    assert sum(b["wins"] for b in summary["bots"]) == 6
    assert "pairings" not in summary


def test_solo_bots_get_the_same_seeds():
    game = get("toy-coins", rounds=4)
    summary, outcomes = tournament(game, ["random", "greedy"], games=5, seed=1)
    by_bot = [[o.seed for o in outcomes if o.seats == (b,)] for b in range(2)]
    assert by_bot[0] == by_bot[1]
    assert all(b["rating"] is None and "score" in b for b in summary["bots"])


def test_same_games_with_workers():
    game = get("toy-nim", pile=9)
    specs = ["random", "mcts:iterations=40"]
    one, _ = tournament(game, specs, games=4, seed=5, workers=1)
    two, _ = tournament(game, specs, games=4, seed=5, workers=2)
    assert one["games"] == two["games"]
    # the clock differs, nothing else
    timing = ("mean_move_seconds", "max_move_seconds", "max_move_cpu_seconds")
    for a, b in zip(one["bots"], two["bots"], strict=True):
        assert {k: v for k, v in a.items() if k not in timing} == {
            k: v for k, v in b.items() if k not in timing
        }


def test_repeated_specs_get_distinct_labels():
    assert labels_for(["random", "random", "greedy", "random"]) == (
        "random",
        "random#2",
        "greedy",
        "random#3",
    )


NIM_DUEL = ["arena", "toy-nim", "-o", "pile=1", "random", "greedy", "--jobs", "1"]
"""The command line's arena on the smallest game: one pile of one, random against greedy."""


def test_cli_writes_summary_records_and_plot(tmp_path, capsys):
    out, png = tmp_path / "run", tmp_path / "ratings.png"
    code = main(
        [*NIM_DUEL, "--games", "4", "--seed", "3", "--out", str(out), "--plot", str(png)]
        + ["--json", "-q"]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((out / "summary.json").read_text())
    assert printed == saved
    assert [(b["wins"], b["losses"]) for b in saved["bots"]] == [(2, 2), (2, 2)]
    assert len(list((out / "games").glob("game-*.json"))) == 4
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table(capsys):
    assert main([*NIM_DUEL, "--games", "2", "-q"]) == 0
    text = capsys.readouterr().out
    assert "random" in text and "greedy" in text and "head to head" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "toy-nim", "random", "nosuchbot", "-q"],
        ["arena", "toy-nim3", "random", "greedy", "-q"],  # three seats, two bots
        ["arena", "toy-nim", "random", "greedy", "--games", "0", "-q"],
        ["arena", "toy-nim", "random", "greedy", "--jobs", "0", "-q"],
        ["arena", "nosuchgame", "random", "greedy", "-q"],
    ],
)
def test_cli_refuses_bad_input(argv, capsys):
    assert main(argv) == 2
    assert "ludoteca arena" in capsys.readouterr().err


def test_move_times_wall_and_processor():
    """Each bot's slowest move is reported by the clock and by processor time, and with a
    time budget the moves past 5% of it are counted."""
    game = get("toy-nim", pile=40)
    summary, outcomes = tournament(game, ["random", "mcts:seconds=0.02"], games=2, seed=4)
    for bot in summary["bots"]:
        assert 0 <= bot["max_move_cpu_seconds"] <= bot["max_move_seconds"] + 0.01
    mcts = summary["bots"][1]
    times = [
        t
        for o in outcomes
        for seat, e in enumerate(o.seats)
        if e == 1
        for t in o.move_seconds[seat]
    ]
    assert mcts["moves_over_5_percent"] == sum(t > 0.021 for t in times)
    assert "moves_over_5_percent" not in summary["bots"][0]


def test_any_executor_plays_the_same_games(tmp_path):
    """run_jobs takes any concurrent.futures executor (a cluster's among them): same games,
    and the records saved by the caller."""
    from concurrent.futures import ThreadPoolExecutor

    game = get("toy-nim", pile=9)
    specs = ["random", "mcts:iterations=40"]
    local, _ = tournament(game, specs, games=4, seed=5, workers=2, record_dir=tmp_path / "a")
    with ThreadPoolExecutor(2) as executor:
        other, outcomes = tournament(
            game, specs, games=4, seed=5, record_dir=tmp_path / "b", executor=executor
        )
    assert [{**g, "record": None} for g in local["games"]] == [
        {**g, "record": None} for g in other["games"]
    ]
    assert all(o.unsaved is None for o in outcomes)
    for g in other["games"]:
        assert replay(load(g["record"])).result.winners == tuple(
            g["seats"].index(w) for w in g["winners"]
        )
