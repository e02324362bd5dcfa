"""Pieces the sub-commands share: finding a game with its options, reading a position."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from concurrent.futures import Executor

from ludoteca.core.errors import MalformedError
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, State
from ludoteca.core.registry import get, names


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(names())}")
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o players=3 for Hexagone (repeatable)",
    )


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """The options shared by the commands that play many games in worker processes."""
    parser.add_argument(
        "--players", type=int, metavar="N", help="number of players, for games that vary"
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="J",
        help="worker processes (default: the number of cores)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:8786) instead of local processes; needs pip install 'ludoteca[cluster]'",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def jobs_from_args(args: argparse.Namespace) -> int:
    if args.jobs is not None and getattr(args, "cluster", None) is not None:
        raise MalformedError(
            f"--jobs {args.jobs}", "--jobs is for local processes; a cluster plays on its workers"
        )
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise MalformedError(str(args.jobs), "--jobs must be at least 1")
    return jobs


@contextlib.contextmanager
def executor_from_args(args: argparse.Namespace, game: Game) -> Iterator[Executor | None]:
    """The cluster's executor with ``--cluster``, else ``None`` (the local pool of --jobs).

    Connecting and checking the workers happen on entry, before any game is played.
    """
    if getattr(args, "cluster", None) is None:
        yield None
        return
    from ludoteca.bots.cluster import cluster_executor

    with cluster_executor(args.cluster, game) as executor:
        yield executor


def parse_options(pairs: list[str]) -> dict[str, str | int]:
    options: dict[str, str | int] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise MalformedError(pair, "a game option is written KEY=VALUE")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return options


def game_from_args(args: argparse.Namespace, **extra: object) -> Game:
    options = parse_options(args.option)
    options.update({k: v for k, v in extra.items() if v is not None})
    return get(args.game, **options)


def mover_name(state: State) -> str:
    if state.to_move == CHANCE:
        return "chance"
    if state.to_move == TERMINAL:
        return "nobody (the game is over)"
    return state.side_name(state.to_move)


def winner_json(state: State) -> str | list[str] | None:
    """``null`` while playing, ``"draw"``, one side's name, or the list for a shared win."""
    result = state.result
    if result is None:
        return None
    if result.draw:
        return "draw"
    sides = [state.side_name(p) for p in result.winners]
    return sides[0] if len(sides) == 1 else sides


def result_line(state: State) -> str:
    result = state.result
    if result is None:
        return "the game is not over"
    if result.num_players == 1:
        text = "finished"
    elif result.draw:
        text = "draw"
    else:
        text = (
            " and ".join(state.side_name(p) for p in result.winners)
            + " win"
            + ("s" if len(result.winners) == 1 else "")
        )
    if result.scores is not None:
        scores = ", ".join(f"{state.side_name(p)} {_num(s)}" for p, s in enumerate(result.scores))
        text += f" ({scores})"
    if result.reason:
        text += f": {result.reason}"
    return text


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
