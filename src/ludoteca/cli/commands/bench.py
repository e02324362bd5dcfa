"""``ludoteca bench GAME``: random complete games per second on one core."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import median

from ludoteca.core.errors import MalformedError
from ludoteca.core.speed import api_rate, compiled_limit, find_limit_source, kernel_rate

from ..common import add_game_argument, add_seed_argument, game_from_args, seconds


def register(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="measure random complete games per second on one core",
        description="Play uniform random complete games for --seconds on one core and report "
        "games and moves per second: through the game's fastest playout path (games_per_s) and "
        "through the game protocol (api_games_per_s). When the C speed limit of the game is "
        "found (limit_GAME.c in --limits, $LUDOTECA_LIMITS or ../shared/limits) and a C compiler "
        "exists, it runs for the same time and the ratio is reported. The game's compiled kernel "
        "is compiled (or loaded from its cache) first: where a game's states step with it once "
        "it exists (Kuniumi), the protocol figure is what a searching process gets.",
    )
    add_game_argument(p)
    p.add_argument(
        "--seconds",
        type=seconds(3600.0),
        default=3.0,
        help="time per measurement, above 0 and at most 3600 (default 3)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        choices=range(1, 101),
        metavar="N",
        default=3,
        help="measure each path N times, taking turns, and report medians (default 3, at most "
        "100); the ratios to C are the medians of each round's ratio, so a busy moment on a "
        "shared machine falls on both sides of a ratio",
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
    if args.limits is not None and not args.no_limit:
        check_limits_folder(args.limits, game.id)
    out: dict = {"game": game.id, "options": game.options, "seconds": args.seconds}
    out["rounds"] = args.rounds
    if not args.json:  # say what is being measured before the seconds of measuring
        print(
            f"{game.title}: {args.seconds:g} s per measurement, {args.rounds} round(s), one core",
            flush=True,
        )
    source = None if args.no_limit else find_limit_source(game.id, args.limits)
    api, fast, limits = [], [], []
    warm_up(game, args.seed)
    with compiled_limit(source) as limit:
        for _ in range(args.rounds):
            api.append(api_rate(game, args.seconds, args.seed))
            fast.append(kernel_rate(game, args.seconds, args.seed) or api[-1])
            if limit is not None:
                limits.append(limit(args.seconds)["games_per_s"])
    out["path"] = "kernel" if game.playout_kernel() is not None else "api"
    api_games = [g / t for g, _, t in api]
    fast_games = [g / t for g, _, t in fast]
    out["api_games_per_s"] = round(median(api_games), 1)
    out["api_moves_per_s"] = round(median(m / t for _, m, t in api), 1)
    out["games_per_s"] = round(median(fast_games), 1)
    out["moves_per_s"] = round(median(m / t for _, m, t in fast), 1)
    games, moves = sum(g for g, _, _ in fast), sum(m for _, m, _ in fast)
    out["moves_per_game"] = round(moves / games, 2) if games else None
    if limits:
        out["c_limit_games_per_s"] = round(median(limits), 1)
        out["ratio_to_c_limit"] = round(
            median(f / c for f, c in zip(fast_games, limits, strict=True)), 4
        )
        out["api_ratio_to_c_limit"] = round(
            median(a / c for a, c in zip(api_games, limits, strict=True)), 5
        )
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
            f"ratio {out['ratio_to_c_limit']:.3f} (protocol {out['api_ratio_to_c_limit']:.4f}, "
            f"1/{1 / out['api_ratio_to_c_limit']:,.0f})"
        )
    if args.mcts:
        print(f"  MCTS from the start: {out['mcts_simulations_per_s']:,.0f} simulations/s")
    return 0


def warm_up(game, seed: int) -> None:
    """Compile (or load from numba's cache) the game's kernel before any round: a game's
    states step with its compiled functions once they exist (Kuniumi's God moves), so
    every round measures the path a searching process runs, and none pays compilation."""
    kernel = game.playout_kernel()
    if kernel is not None:
        kernel(seed, 0.01)


def check_limits_folder(folder: str, game_id: str) -> None:
    """``--limits`` names a folder holding ``limit_GAME.c``: a file, a missing folder or one
    without the game's program is refused, where the C limit was silently left out."""
    path = Path(folder)
    if not path.is_dir():
        raise MalformedError(folder, "--limits must name a folder holding limit_GAME.c files")
    if not (path / f"limit_{game_id}.c").is_file():
        raise MalformedError(folder, f"--limits: the folder has no limit_{game_id}.c")
