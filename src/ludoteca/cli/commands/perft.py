"""``ludoteca perft GAME POSITION DEPTH``: count legal move sequences (chance outcomes once).

DEPTH is plain ASCII digits, and no deeper than the longest game of GAME can last
(``Game.max_game_length``): beyond it the count is 0 by definition, and a depth that large
is a typing mistake, not a question. Any perft is stopped by Ctrl-C (status 130).
"""

from __future__ import annotations

from ludoteca.core.errors import MalformedError
from ludoteca.core.perft import divide, perft

from ..common import (
    add_game_argument,
    add_position_argument,
    game_from_args,
    read_position,
    whole_number,
)

MAX_DEPTH_DIGITS = 6


def register(sub) -> None:
    p = sub.add_parser(
        "perft",
        help="count the legal move sequences of a given length",
        description="Count the legal move sequences of exactly DEPTH moves from POSITION. "
        "The last line printed is the number alone. DEPTH is a whole number in ASCII "
        "digits, at most the length of the longest game; Ctrl-C stops a long count.",
    )
    add_game_argument(p)
    add_position_argument(p)
    p.add_argument(
        "depth",
        metavar="DEPTH",
        type=whole_number(0, 10**MAX_DEPTH_DIGITS - 1),
        help="number of moves (0 or more, ASCII digits)",
    )
    p.add_argument(
        "--divide", action="store_true", help="also print the count under each first move"
    )
    p.set_defaults(func=run)


def run(args) -> int:
    game = game_from_args(args)
    depth: int = args.depth
    longest = getattr(game, "max_game_length", None)
    if longest is not None and depth > longest:
        raise MalformedError(
            str(depth), f"DEPTH is at most {longest}: no game of {game.id} lasts longer"
        )
    state = read_position(game, args.position, args)
    if args.divide and depth >= 1:
        total = 0
        for move, count in divide(state, depth):
            print(f"{move}: {count}")
            total += count
        print(total)
        return 0
    print(perft(state, depth))
    return 0
