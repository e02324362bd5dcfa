"""Game analysis from self-play: the report a game designer asks for.

From ``games`` self-play games at one level: how often each seat wins (the first player's
advantage, with a 95% Wilson interval), how often games are drawn, how long they last, how
many moves a player has to choose from as the game goes on (branching factor), and, where
the game keeps score, how the scores are distributed.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from ludoteca.core.protocol import Game

from .arena import GameOutcome, mean_interval, run_jobs, schedule, wilson


def self_play(
    game: Game,
    level: str,
    games: int,
    seed: int,
    workers: int = 1,
    on_done=None,
    executor: Executor | None = None,
) -> list[GameOutcome]:
    """``games`` games of ``level`` against itself, seats rotating, branching recorded;
    played on ``executor`` (a cluster) if given, else ``workers`` local processes."""
    jobs = schedule(game, [level] * game.num_players, games, seed, branching=True)
    return run_jobs(jobs, workers, on_done, executor)


def _describe(values: Sequence[float]) -> dict[str, float]:
    mean, low, high = mean_interval(values)
    return {
        "mean": round(mean, 3),
        "low": round(low, 3),
        "high": round(high, 3),
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
        "stdev": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
    }


def analyse(game: Game, level: str, outcomes: Sequence[GameOutcome], seed: int) -> dict[str, Any]:
    n = game.num_players
    total = len(outcomes)
    report: dict[str, Any] = {
        "game": game.id,
        "options": dict(game.options),
        "players": n,
        "level": level,
        "seed": seed,
        "games": total,
    }
    if n > 1:
        seats = []
        for seat in range(n):
            wins = sum(1 for o in outcomes if o.winners == (seat,))
            low, high = wilson(wins, total)
            seats.append(
                {
                    "seat": seat + 1,
                    "wins": wins,
                    "rate": round(wins / total, 4),
                    "low": round(low, 4),
                    "high": round(high, 4),
                }
            )
        report["seat_wins"] = seats
        report["first_player_win_rate"] = seats[0]
        draws = sum(1 for o in outcomes if not o.winners)
        low, high = wilson(draws, total)
        report["draws"] = {
            "count": draws,
            "rate": round(draws / total, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }
        shared = sum(1 for o in outcomes if len(o.winners) > 1)
        if shared:
            report["shared_wins"] = shared
    report["length"] = _describe([o.moves for o in outcomes])
    report["decisions"] = _describe([len(o.branching) for o in outcomes])
    all_branching = [b for o in outcomes for b in o.branching]
    report["branching"] = _describe(all_branching) if all_branching else None
    longest = max((len(o.branching) for o in outcomes), default=0)
    curve = []
    for i in range(longest):
        at = [o.branching[i] for o in outcomes if len(o.branching) > i]
        curve.append(
            {"decision": i + 1, "mean": round(math.fsum(at) / len(at), 2), "games": len(at)}
        )
    report["branching_by_decision"] = curve
    chance = [b for o in outcomes for b in o.chance_branching]
    report["chance_outcomes"] = _describe(chance) if chance else None
    scored = [o.scores for o in outcomes if o.scores is not None]
    if scored:
        per_seat = [_describe([sc[s] for sc in scored]) for s in range(n)]
        report["scores"] = {"by_seat": per_seat, "values": [list(sc) for sc in scored]}
        if n == 2:
            margins = [abs(sc[0] - sc[1]) for sc in scored]
            report["scores"]["margin"] = _describe(margins)
    return report


def report_text(report: dict[str, Any]) -> str:
    lines = [
        f"{report['game']} {report['options'] or ''}: {report['games']} self-play games at "
        f"level {report['level']} (seed {report['seed']})".replace(" :", ":"),
    ]
    if "seat_wins" in report:
        for s in report["seat_wins"]:
            lines.append(
                f"  seat {s['seat']} wins {s['wins']:4d}  {s['rate']:6.1%}  "
                f"95% [{s['low']:.1%}, {s['high']:.1%}]"
            )
        d = report["draws"]
        lines.append(
            f"  draws       {d['count']:4d}  {d['rate']:6.1%}  "
            f"95% [{d['low']:.1%}, {d['high']:.1%}]"
        )
        if report.get("shared_wins"):
            lines.append(f"  shared wins {report['shared_wins']:4d}")
    L = report["length"]
    lines.append(
        f"  game length (moves, chance included): mean {L['mean']:.1f} "
        f"[{L['low']:.1f}, {L['high']:.1f}], min {L['min']}, median {L['median']}, "
        f"max {L['max']}"
    )
    D = report["decisions"]
    lines.append(f"  player decisions per game: mean {D['mean']:.1f}, max {D['max']}")
    B = report["branching"]
    if B:
        lines.append(
            f"  branching factor: mean {B['mean']:.1f} moves per decision, "
            f"median {B['median']}, max {B['max']}"
        )
        curve = report["branching_by_decision"]
        step = max(1, len(curve) // 10)
        points = ", ".join(f"{c['decision']}: {c['mean']:.0f}" for c in curve[::step])
        lines.append(f"  branching by decision number: {points}")
    C = report["chance_outcomes"]
    if C:
        lines.append(f"  chance outcomes per chance event: mean {C['mean']:.1f}")
    S = report.get("scores")
    if S:
        for i, s in enumerate(S["by_seat"]):
            lines.append(
                f"  score of seat {i + 1}: mean {s['mean']:.2f} "
                f"[{s['low']:.2f}, {s['high']:.2f}], sd {s['stdev']:.2f}, "
                f"min {s['min']}, median {s['median']}, max {s['max']}"
            )
        if "margin" in S:
            m = S["margin"]
            lines.append(
                f"  winning margin: mean {m['mean']:.2f}, median {m['median']}, max {m['max']}"
            )
    return "\n".join(lines)


def plot_report(report: dict[str, Any], outcomes: Sequence[GameOutcome], path: str) -> None:
    """Four panels: seat wins with intervals, game length, branching by decision, scores."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    ax = axes[0][0]
    if "seat_wins" in report:
        seats = report["seat_wins"]
        labels = [f"seat {s['seat']}" for s in seats] + ["draw"]
        rates = [s["rate"] for s in seats] + [report["draws"]["rate"]]
        lows = [s["low"] for s in seats] + [report["draws"]["low"]]
        highs = [s["high"] for s in seats] + [report["draws"]["high"]]
        ax.bar(
            labels,
            rates,
            yerr=[
                [r - lo for r, lo in zip(rates, lows, strict=True)],
                [h - r for r, h in zip(rates, highs, strict=True)],
            ],
            capsize=5,
            color="#6a9fb5",
        )
        ax.set_ylim(0, 1)
        ax.set_title("results (95% intervals)")
    else:
        ax.set_axis_off()
    ax = axes[0][1]
    count_histogram(ax, [o.moves for o in outcomes], color="#90a959")
    ax.set_title("game length (moves)")
    ax = axes[1][0]
    curve = report["branching_by_decision"]
    ax.plot([c["decision"] for c in curve], [c["mean"] for c in curve], color="#aa759f")
    ax.set_xlabel("decision number")
    ax.set_title("mean legal moves per decision")
    ax = axes[1][1]
    scores = report.get("scores")
    if scores:
        values = scores["values"]
        for seat in range(report["players"]):
            count_histogram(ax, [v[seat] for v in values], alpha=0.6, label=f"seat {seat + 1}")
        ax.legend()
        ax.set_title("score distribution")
    else:
        ax.set_axis_off()
    fig.suptitle(f"{report['game']}: {report['games']} games at level {report['level']}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def count_histogram(ax, values: list[float], **style) -> None:
    """A histogram of counts (moves, points): one bar per value where there are few, else
    20 bars, and whole-number ticks either way — when every game has the same length the
    axis shows that length, not fractions around it."""
    from matplotlib.ticker import MaxNLocator

    low, high = min(values), max(values)
    whole = all(float(v).is_integer() for v in values)
    if whole and high - low < 20:
        ax.hist(values, bins=[v - 0.5 for v in range(int(low), int(high) + 2)], **style)
    else:
        ax.hist(values, bins=20, **style)
    if whole:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
