"""``ludoteca analyze GAME``: self-play statistics for game designers, as text and a PNG."""

from __future__ import annotations

import json
import sys

from ludoteca.bots.analysis import analyse, plot_report, report_text, self_play
from ludoteca.bots.arena import TournamentInterrupted

from ..common import (
    EXIT_INTERRUPTED,
    add_game_argument,
    add_parallel_arguments,
    add_seed_argument,
    check_output_file,
    executor_from_args,
    game_from_args,
    jobs_from_args,
    whole_number,
)
from .arena import MAX_GAMES, plot_errors, plot_suffixes, progress_bar


def register(sub) -> None:
    p = sub.add_parser(
        "analyze",
        help="self-play statistics: seat advantage, draws, length, branching, scores",
        description="Play GAME against itself at one level and report how often each seat "
        "wins (with 95% intervals), the draw rate, game length, the branching factor over "
        "the game and, where the game keeps score, the score distribution.",
    )
    add_game_argument(p)
    p.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=100,
        metavar="N",
        help="games (default 100)",
    )
    p.add_argument(
        "--level",
        default="random",
        metavar="L",
        help="who plays: a level (easy, medium, hard, master) or any bot spec (default random)",
    )
    add_seed_argument(p, 1, "seed of the first game (default 1)")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw the report as a PNG (the path is checked before any game)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    add_parallel_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    game = game_from_args(args, players=args.players)
    jobs = jobs_from_args(args)
    if args.plot:  # refuse an unwritable plot now, not after the games
        check_output_file(args.plot, "--plot", plot_suffixes())
    progress = progress_bar(args.quiet)
    with executor_from_args(args, game) as executor, progress:
        task = progress.add_task(f"{game.id} self-play", total=args.games)
        try:
            outcomes = self_play(
                game,
                args.level,
                args.games,
                args.seed,
                jobs,
                on_done=lambda _: progress.advance(task),
                executor=executor,
            )
            stopped = None
        except TournamentInterrupted as exc:  # report the games that ended
            outcomes, stopped = exc.outcomes, exc
    if stopped is not None:
        if outcomes:
            report = analyse(game, args.level, outcomes, args.seed)
            print(json.dumps(report, indent=2) if args.json else report_text(report))
        print(
            f"interrupted: {len(outcomes)} of {stopped.planned} games were played"
            + (", reported above" if outcomes else ""),
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    report = analyse(game, args.level, outcomes, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(report_text(report))
    if args.plot:  # last: the report is out whatever happens to the file
        with plot_errors(args.plot):
            plot_report(report, outcomes, args.plot)
        if not args.json:
            print(f"  plotted in {args.plot}")
    return 0
