"""``ludoteca apply GAME POSITION MOVE...``: play moves in order, print the resulting position."""

from __future__ import annotations

from ludoteca.core.errors import GameError

from ..common import (
    add_game_argument,
    add_position_argument,
    game_from_args,
    parsing,
    read_position,
)


def register(sub) -> None:
    p = sub.add_parser(
        "apply",
        help="play moves on a position and print the resulting position",
        description="Play each MOVE (one per argument; quote moves that contain spaces) on "
        "POSITION in order and print the resulting position. The first illegal move is "
        "named with the rule it breaks (exit status 2) and nothing is printed.",
    )
    add_game_argument(p)
    add_position_argument(p)
    p.add_argument("moves", metavar="MOVE", nargs="*")
    p.set_defaults(func=run)


def run(args) -> int:
    game = game_from_args(args)
    state = read_position(game, args.position, args)
    for number, text in enumerate(args.moves, start=1):
        try:
            with parsing(text, f"a {game.id} move"):
                state.play(text)
        except GameError as exc:
            where = f"move {number} of {len(args.moves)}"
            raise type(exc)(exc.input, f"{exc.reason} ({where})") from None
    print(state.position())
    return 0
