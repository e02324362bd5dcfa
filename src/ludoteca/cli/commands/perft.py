"""``ludoteca perft GAME POSITION DEPTH``: count legal move sequences (chance outcomes once)."""

from __future__ import annotations

from ludoteca.core.errors import MalformedError
from ludoteca.core.perft import divide, perft

from ..common import add_game_argument, game_from_args


def register(sub) -> None:
    p = sub.add_parser(
        "perft",
        help="count the legal move sequences of a given length",
        description="Count the legal move sequences of exactly DEPTH moves from POSITION. "
        "The last line printed is the number alone.",
    )
    add_game_argument(p)
    p.add_argument("position", metavar="POSITION")
    p.add_argument("depth", metavar="DEPTH", help="number of moves (>= 0)")
    p.add_argument(
        "--divide", action="store_true", help="also print the count under each first move"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        depth = int(args.depth)
    except ValueError:
        raise MalformedError(args.depth, "DEPTH must be a whole number") from None
    if depth < 0:
        raise MalformedError(args.depth, "DEPTH must be 0 or more")
    state = game_from_args(args).from_position(args.position)
    if args.divide and depth >= 1:
        total = 0
        for move, count in divide(state, depth):
            print(f"{move}: {count}")
            total += count
        print(total)
        return 0
    print(perft(state, depth))
    return 0
