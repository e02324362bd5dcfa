"""``ludoteca arena GAME BOT BOT ...``: bots play each other; results, ratings, records."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ludoteca.bots.arena import (
    GameOutcome,
    TournamentInterrupted,
    run_jobs,
    schedule,
    summarise,
)
from ludoteca.core.errors import MalformedError

from ..common import (
    EXIT_INTERRUPTED,
    add_game_argument,
    add_parallel_arguments,
    add_seed_argument,
    check_output_file,
    check_output_folder,
    executor_from_args,
    game_from_args,
    jobs_from_args,
    whole_number,
)

MAX_GAMES = 1_000_000
"""More games than anyone waits for; a bound keeps a mistyped count from filling memory."""


def plot_suffixes() -> tuple[str, ...]:
    """The file types matplotlib can draw to (``.png``, ``.svg``, ``.pdf``...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(f".{ext}" for ext in sorted(FigureCanvasBase.get_supported_filetypes()))


def register(sub) -> None:
    p = sub.add_parser(
        "arena",
        help="play bots against each other and rate them",
        description="Play every pair of BOTs (every table of them, for games of more players) "
        "--games times in worker processes (or on a Dask cluster with --cluster), swapping "
        "seats over the same seed, then print "
        "win/draw/loss, head-to-head win rates and openskill ratings with 95% intervals. "
        "Bots are specs with budgets: random, greedy, mcts:seconds=1, alphabeta:depth=4, "
        "planner, or a level: easy, medium, hard, master. Ctrl-C stops the tournament and "
        "reports (and with --out saves) the games that ended.",
    )
    add_game_argument(p)
    p.add_argument("bots", nargs="+", metavar="BOT", help="bot specs (at least one)")
    p.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=10,
        metavar="N",
        help="games per pairing or table (default 10)",
    )
    add_seed_argument(p, 1, "tournament seed (default 1)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write game records (DIR/games/) and DIR/summary.json; a DIR holding an earlier "
        "tournament is refused unless --force",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="with --out: remove an earlier tournament's records and summary from DIR first",
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the ratings with their intervals (the path is checked before any game)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON summary instead of tables")
    add_parallel_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    game = game_from_args(args, players=args.players)
    jobs = jobs_from_args(args)
    # refuse an unwritable output now: finding out after the games loses their results
    if args.out:
        check_output_folder(args.out, "--out")
        earlier = earlier_tournament(Path(args.out))
        if earlier and not args.force:
            raise MalformedError(
                args.out,
                f"--out holds an earlier tournament ({len(earlier)} files); "
                "add --force to replace it, or choose another folder",
            )
    if args.plot:
        check_output_file(args.plot, "--plot", plot_suffixes())
    out = Path(args.out) if args.out else None
    progress = progress_bar(args.quiet)
    games = schedule(game, args.bots, args.games, args.seed, str(out / "games") if out else None)
    if out is not None:  # only once the tournament is accepted: a refusal removes nothing
        for path in earlier_tournament(out):
            path.unlink()
    with executor_from_args(args, game) as executor, progress:
        task = progress.add_task(f"{game.id} arena", total=len(games))

        def done(_: GameOutcome) -> None:
            progress.advance(task)

        try:
            outcomes = run_jobs(games, jobs, done, executor)
            stopped = None
        except TournamentInterrupted as exc:  # report the games that ended
            outcomes, stopped = exc.outcomes, exc
    summary = summarise(game, args.bots, outcomes, args.seed, args.games)
    if stopped is not None:
        summary["interrupted"] = {"games_played": len(outcomes), "games_planned": stopped.planned}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    if stopped is not None:
        where = f"; their summary is in {out / 'summary.json'}" if out is not None else ""
        if outcomes and not args.json:
            print_tables(summary)
        elif args.json:
            print(json.dumps(summary, indent=2))
        print(
            f"interrupted: {len(outcomes)} of {stopped.planned} games were played{where}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_tables(summary)
        if out is not None:
            print(f"records in {out / 'games'}, summary in {out / 'summary.json'}")
    if args.plot:  # last: the results are out whatever happens to the file
        with plot_errors(args.plot):
            plot_ratings(summary, args.plot)
        if not args.json:
            print(f"ratings plotted in {args.plot}")
    return 0


def earlier_tournament(out: Path) -> list[Path]:
    """The files an arena wrote in ``out`` before: its summary and its game records (nothing
    else in the folder is the arena's to remove)."""
    files = [out / "summary.json"] if (out / "summary.json").is_file() else []
    games = out / "games"
    if games.is_dir():
        files += sorted(p for p in games.glob("game-*.json") if p.is_file())
    return files


@contextmanager
def plot_errors(path: str) -> Iterator[None]:
    """A plot that cannot be written once the games are played (a full disk, a folder
    removed meanwhile) is one line and status 2; the results were printed already."""
    try:
        yield
    except OSError as exc:
        raise MalformedError(path, f"--plot could not be written ({exc.strerror})") from None


def progress_bar(quiet: bool):
    """A progress bar on stderr with games done, time taken and the ETA (also for analyze)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
    )


def print_tables(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    # a file or pipe gets wide lines rather than bot specs folded over several lines
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    solo = summary["players"] == 1
    title = (
        f"{summary['game']}: {summary['total_games']} games, "
        f"{summary['games_per_table']} per table, seed {summary['seed']}"
    )
    table = Table(title=title)
    table.add_column("bot", no_wrap=True)
    for name in ("games",) if solo else ("games", "W", "D", "L"):
        table.add_column(name, justify="right")
    if not solo:
        table.add_column("rating (95%)", justify="right")
    if any("score" in b for b in summary["bots"]):
        table.add_column("mean score (95%)", justify="right")
    table.add_column("max s/move", justify="right")
    table.add_column("max CPU s/move", justify="right")
    for b in summary["bots"]:
        row = [b["label"], str(b["games"])]
        if not solo:
            row += [str(b["wins"]), str(b["draws"]), str(b["losses"])]
            r = b["rating"]
            row.append(f"{r['mu']:.1f} [{r['low']:.1f}, {r['high']:.1f}]")
        if "score" in b:
            s = b["score"]
            row.append(f"{s['mean']:.2f} [{s['low']:.2f}, {s['high']:.2f}]")
        elif any("score" in x for x in summary["bots"]):
            row.append("")
        row.append("" if b["max_move_seconds"] is None else f"{b['max_move_seconds']:.3f}")
        cpu = b.get("max_move_cpu_seconds")
        row.append("" if cpu is None else f"{cpu:.3f}")
        table.add_row(*row)
    console.print(table)
    if summary.get("pairings"):
        pairs = Table(title="head to head")
        pairs.add_column("A", no_wrap=True)
        pairs.add_column("B", no_wrap=True)
        for name in ("games", "A wins", "draws", "B wins", "A win rate (95%)"):
            pairs.add_column(name, justify="right")
        for p in summary["pairings"]:
            pairs.add_row(
                p["a"],
                p["b"],
                str(p["games"]),
                str(p["a_wins"]),
                str(p["draws"]),
                str(p["b_wins"]),
                f"{p['a_win_rate']:.0%} [{p['a_win_low']:.0%}, {p['a_win_high']:.0%}]",
            )
        console.print(pairs)
    if "first_seat" in summary:
        f = summary["first_seat"]
        console.print(
            f"first seat won {f['wins']} of {f['games']} "
            f"({f['rate']:.0%}, 95% [{f['low']:.0%}, {f['high']:.0%}])"
        )


def plot_ratings(summary: dict, path: str) -> None:
    """Each bot's rating (or solo mean score) with its 95% interval, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = summary["bots"]
    solo = summary["players"] == 1
    key = "score" if solo else "rating"
    values = [
        (b["label"], b[key]["mean" if solo else "mu"], b[key]["low"], b[key]["high"])
        for b in bots
        if b.get(key)
    ]
    values.sort(key=lambda v: v[1])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(values) + 1.5))
    ys = range(len(values))
    mids = [v[1] for v in values]
    ax.errorbar(
        mids,
        list(ys),
        xerr=[[v[1] - v[2] for v in values], [v[3] - v[1] for v in values]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(list(ys), [v[0] for v in values])
    ax.set_xlabel("mean score (95% interval)" if solo else "openskill rating mu (95% interval)")
    ax.set_title(f"{summary['game']}: {summary['total_games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
