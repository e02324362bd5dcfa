"""``ludoteca legal GAME POSITION``: every legal move, one per line, sorted."""

from __future__ import annotations

from ..common import add_game_argument, add_position_argument, game_from_args, read_position


def register(sub) -> None:
    p = sub.add_parser(
        "legal",
        help="list every legal move of a position, one per line",
        description="Print every legal move (at a chance node: every outcome) of POSITION in "
        "binding notation, one per line, sorted. Prints nothing when the game is over.",
    )
    add_game_argument(p)
    add_position_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    state = read_position(game_from_args(args), args.position, args)
    moves = [m for m, _ in state.chance_outcomes()] if state.to_move < 0 else state.legal_moves()
    for text in sorted(state.move_to_str(m) for m in moves):
        print(text)
    return 0
