"""``ludoteca tournament GAME --format swiss|arena|round-robin --players BOT...``."""

from __future__ import annotations

import json
import multiprocessing
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from ludoteca.core.errors import MalformedError
from ludoteca.tournaments import FORMATS
from ludoteca.tournaments.results import Played

from ..common import (
    add_game_argument,
    add_parallel_arguments,
    add_seed_argument,
    check_output_folder,
    executor_from_args,
    game_from_args,
    jobs_from_args,
    seconds,
    whole_number,
)


def register(sub) -> None:
    p = sub.add_parser(
        "tournament",
        help="a Swiss, arena or round-robin tournament of computer levels",
        description="Play a tournament of bots in one of the club's formats: swiss (a set "
        "number of rounds, equal scores paired, no pair twice while avoidable, byes to the "
        "lowest placed), arena (a fixed time; a player whose game ends is paired again at "
        "once with a free player close in the standings; 2 points a win, 1 a draw, double "
        "after two wins in a row) or round-robin (3-10 players; everyone meets everyone, "
        "or, with --table-size 3 or 4 for a game of more players, at tables whose players "
        "meet as evenly as the numbers allow). Prints the standings with Buchholz and "
        "Sonneborn-Berger tie-breaks; with --out writes DIR/standings.json and every game's "
        "record in DIR/games/.",
    )
    add_game_argument(p)
    p.add_argument(
        "--format", dest="form", choices=FORMATS, required=True, help="the tournament's format"
    )
    p.add_argument(
        "--players",
        nargs="+",
        required=True,
        metavar="BOT",
        help="the entrants: levels (easy, medium, hard, master) or bot specs; a spec named "
        "twice enters twice",
    )
    p.add_argument(
        "--rounds",
        type=whole_number(1, 100),
        metavar="N",
        help="swiss: rounds to play (default: log2 of the players, rounded up)",
    )
    p.add_argument(
        "--minutes",
        type=seconds(24 * 60.0),
        default=1.0,
        metavar="M",
        help="arena: minutes during which players are paired (default 1)",
    )
    p.add_argument(
        "--table-size",
        type=whole_number(2, 8),
        metavar="K",
        help="round-robin of a game for more players: players at each table (sets -o players)",
    )
    add_seed_argument(p, 1, "tournament seed (default 1): the deals and the bots' choices")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write DIR/standings.json and DIR/games/; a DIR holding an earlier tournament is "
        "refused (nothing is overwritten)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON summary")
    add_parallel_arguments(p, players=False, quiet="no line per game on stderr")
    p.set_defaults(func=run)


def run(args) -> int:
    # here, not at the top: every command's parser is built at start, and the pairings
    # bring networkx (0.1 s) that only this command needs
    from ludoteca.tournaments.computer import ComputerTournament, Inline, swiss_rounds

    if args.table_size is not None and args.form != "round-robin":
        raise MalformedError(f"--table-size {args.table_size}", "only a round-robin has tables")
    game = game_from_args(args, players=args.table_size)
    out = Path(args.out) if args.out else None
    if out is not None:
        check_output_folder(args.out, "--out")
        if (out / "standings.json").exists() or (out / "games").exists():
            raise MalformedError(
                args.out, "--out holds an earlier tournament; choose another folder"
            )
    if args.rounds is not None and args.form != "swiss":
        raise MalformedError(f"--rounds {args.rounds}", "only a Swiss has a set number of rounds")
    jobs = jobs_from_args(args)

    def told(played: Played) -> None:
        if not args.quiet:
            if played.is_bye:
                line = f"round {played.round}: {played.players[0]} has a bye"
            else:
                said = " - ".join(
                    f"{p} {x:g}" for p, x in zip(played.players, played.points, strict=True)
                )
                line = f"round {played.round}: {said}" if played.round else said
            print(line, file=sys.stderr)

    tournament = ComputerTournament(
        game,
        args.players,
        args.form,
        args.seed,
        rounds=args.rounds,
        minutes=args.minutes,
        out=out,
        on_game=told,
    )
    if out is not None:
        (out / "games").mkdir(parents=True, exist_ok=True)
    with executor_from_args(args, game) as cluster:
        executor: Executor
        if cluster is not None:
            executor = cluster
        elif jobs <= 1:
            executor = Inline()
        else:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            executor = ProcessPoolExecutor(jobs, mp_context=ctx)
        try:
            tournament.run(executor)
        finally:
            if cluster is None:
                executor.shutdown(wait=False, cancel_futures=True)
    summary = tournament.summary()
    if args.form == "swiss":
        summary["rounds"] = args.rounds or swiss_rounds(len(args.players))
    if out is not None:
        (out / "standings.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_standings(summary)
        if out is not None:
            print(f"records in {out / 'games'}, standings in {out / 'standings.json'}")
    return 0


def print_standings(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    table = Table(title=f"{summary['game']} {summary['format']}, seed {summary['seed']}")
    for name in ("#", "player", "points", "games", "W", "D", "L", "Buchholz", "S-B"):
        table.add_column(name, justify="left" if name == "player" else "right", no_wrap=True)
    for s in summary["standings"]:
        table.add_row(
            str(s["rank"]),
            s["player"],
            f"{s['points']:g}",
            str(s["games"]),
            str(s["wins"]),
            str(s["draws"]),
            str(s["losses"]),
            f"{s['buchholz']:g}",
            f"{s['sonneborn_berger']:g}",
        )
    console.print(table)
