"""``ludoteca bench GAME``: random complete games per second on one core."""

from __future__ import annotations

import json

from ludoteca.core.speed import api_rate, c_limit_rate, find_limit_source, kernel_rate

from ..common import add_game_argument, add_seed_argument, game_from_args, seconds


def register(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="measure random complete games per second on one core",
        description="Play uniform random complete games for --seconds on one core and report "
        "games and moves per second: through the game's fastest playout path (games_per_s) and "
        "through the game protocol (api_games_per_s). When the C speed limit of the game is "
        "found (limit_GAME.c in --limits, $LUDOTECA_LIMITS or ../shared/limits) and a C compiler "
        "exists, it runs for the same time and the ratio is reported.",
    )
    add_game_argument(p)
    p.add_argument(
        "--seconds",
        type=seconds(3600.0),
        default=3.0,
        help="time per measurement, above 0 and at most 3600 (default 3)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--limits", metavar="DIR", help="folder holding limit_GAME.c")
    p.add_argument("--no-limit", action="store_true", help="do not run the C limit")
    add_seed_argument(p, 1, "seed of the random games (default 1)")
    p.add_argument(
        "--mcts",
        action="store_true",
        help="also measure Monte-Carlo tree search simulations per second",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    game = game_from_args(args)
    out: dict = {"game": game.id, "options": game.options, "seconds": args.seconds}
    if not args.json:  # say what is being measured before the seconds of measuring
        print(f"{game.title}: {args.seconds:g} s per measurement, one core", flush=True)
    games, moves, elapsed = api_rate(game, args.seconds, args.seed)
    out["api_games_per_s"] = round(games / elapsed, 1)
    out["api_moves_per_s"] = round(moves / elapsed, 1)
    kernel = kernel_rate(game, args.seconds, args.seed)
    if kernel is not None:
        games, moves, elapsed = kernel
        out["path"] = "kernel"
    else:
        out["path"] = "api"
    out["games_per_s"] = round(games / elapsed, 1)
    out["moves_per_s"] = round(moves / elapsed, 1)
    out["moves_per_game"] = round(moves / games, 2) if games else None
    source = None if args.no_limit else find_limit_source(game.id, args.limits)
    if source is not None:
        limit = c_limit_rate(source, args.seconds)
        if limit is not None:
            out["c_limit_games_per_s"] = limit["games_per_s"]
            out["ratio_to_c_limit"] = round(out["games_per_s"] / limit["games_per_s"], 4)
            out["api_ratio_to_c_limit"] = round(out["api_games_per_s"] / limit["games_per_s"], 5)
    if args.mcts:
        from ludoteca.bots.mcts import simulation_rate

        out.update(simulation_rate(game, args.seconds, args.seed))
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"  fastest path ({out['path']}): {out['games_per_s']:,.0f} games/s, "
        f"{out['moves_per_s']:,.0f} moves/s, {out['moves_per_game']} moves/game"
    )
    print(
        f"  game protocol: {out['api_games_per_s']:,.0f} games/s, "
        f"{out['api_moves_per_s']:,.0f} moves/s"
    )
    if "c_limit_games_per_s" in out:
        print(
            f"  C limit ({source}): {out['c_limit_games_per_s']:,.0f} games/s; "
            f"ratio {out['ratio_to_c_limit']:.3f} (protocol {out['api_ratio_to_c_limit']:.4f})"
        )
    if args.mcts:
        print(f"  MCTS from the start: {out['mcts_simulations_per_s']:,.0f} simulations/s")
    return 0
