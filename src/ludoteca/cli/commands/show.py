"""``ludoteca show GAME POSITION [--json]``: the board, whose move it is, and the result."""

from __future__ import annotations

import json
import sys

from ludoteca.core.protocol import CHANCE

from ..common import (
    add_game_argument,
    add_position_argument,
    game_from_args,
    mover_name,
    read_position,
    result_line,
    winner_json,
)


def register(sub) -> None:
    p = sub.add_parser(
        "show",
        help="draw a position and say whose move it is",
        description="Draw POSITION, say whose move it is and whether the game is over. "
        'With --json print one object: position, to_move, over, winner (null, "draw", or the '
        "winning side), scores, legal_count.",
    )
    add_game_argument(p)
    add_position_argument(p)
    p.add_argument("--json", action="store_true", help="print a JSON object instead")
    p.add_argument("--no-color", action="store_true", help="never use colour")
    p.set_defaults(func=run)


def describe(state) -> dict:
    scores = state.result.scores if state.result is not None else state.scores()
    moves = state.chance_outcomes() if state.to_move == CHANCE else state.legal_moves()
    return {
        "game": state.game.id,
        "position": state.position(),
        "to_move": None if state.is_over else mover_name(state),
        "over": state.is_over,
        "winner": winner_json(state),
        "scores": list(scores) if scores is not None else None,
        "legal_count": len(moves),
    }


def run(args) -> int:
    game = game_from_args(args)
    state = read_position(game, args.position, args)
    if args.json:
        print(json.dumps(describe(state)))
        return 0
    color = sys.stdout.isatty() and not args.no_color
    board = game.render_text(state, color=color)
    if color:
        from rich.console import Console

        Console(highlight=False).print(board)
    else:
        print(board)
    if state.is_over:
        print(f"game over: {result_line(state)}")
    else:
        print(f"to move: {mover_name(state)}")
        scores = state.scores()
        if scores is not None:
            print(
                "scores: " + ", ".join(f"{state.side_name(p)} {s:g}" for p, s in enumerate(scores))
            )
    return 0
