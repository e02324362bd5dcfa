"""``ludoteca puzzles generate GAME --count N [--jobs J] [--from-records DIR]``: make proven
puzzles (see docs/puzzles.md for how each game's are proven) and add them to a JSON-lines
file (by default the set the club ships)."""

from __future__ import annotations

from pathlib import Path

from ludoteca.puzzles.prove import THEMES

from ..common import whole_number

SHIPPED = Path(__file__).resolve().parents[2] / "puzzles" / "data"


def register(sub) -> None:
    p = sub.add_parser(
        "puzzles",
        help="make puzzles whose answers the engine proves",
        description="Make puzzles: positions where one move is clearly best, proven by the "
        "engine (Kuniumi by its exact solver; Comune by an exact count over two turns; "
        "Comino and Hexagone by an exact count and two deep searches). Each run prints the "
        "puzzles proven per minute per job.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    g = actions.add_parser("generate", help="generate puzzles of one game")
    g.add_argument("game", metavar="GAME", choices=sorted(THEMES), help=", ".join(sorted(THEMES)))
    g.add_argument("--count", type=whole_number(1, 100_000), default=50, help="puzzles wanted")
    g.add_argument("--jobs", type=whole_number(1, 64), default=1, help="local processes")
    g.add_argument("--minutes", type=float, default=60.0, help="stop after this long")
    g.add_argument("--seed", type=whole_number(0, 10**9), default=1, help="first game seed")
    g.add_argument(
        "--iterations",
        type=whole_number(10, 10**7),
        default=None,
        help="simulations per proving search, Comino and Hexagone (default: the proof's)",
    )
    g.add_argument(
        "--from-records",
        metavar="DIR",
        default=None,
        help="take positions from the game records in DIR instead of self-play",
    )
    g.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="JSON-lines file to add to (default: the shipped set)",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ludoteca.puzzles.generate import generate, merge_into

    puzzles, tried, seconds = generate(
        args.game,
        args.count,
        jobs=args.jobs,
        minutes=args.minutes,
        seed=args.seed,
        records=args.from_records,
        iterations=args.iterations,
    )
    out = Path(args.out) if args.out else SHIPPED / f"{args.game}.jsonl"
    added = merge_into(out, puzzles)
    rate = len(puzzles) / max(seconds / 60, 1e-9) / args.jobs
    print(
        f"{args.game}: {len(puzzles)} proven of {tried} positions tried in {seconds:.0f} s "
        f"({rate:.2f} per minute per job); {added} new in {out}"
    )
    return 0
