"""Pieces the sub-commands share: finding a game with its options, reading a position, the
argument types that refuse bad numbers, and the checks that refuse an output path before
any work is done.

Everything a person types is refused with a :class:`~ludoteca.core.errors.GameError` (one
line, exit status 2), never a traceback, and nothing is written when a command is refused.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager, suppress
from pathlib import Path

from ludoteca.core.errors import GameError, MalformedError
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Result, State
from ludoteca.core.registry import get, names
from ludoteca.core.registry import parse_options as parse_options

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as shells report a command stopped by Ctrl-C."""

SHOWN_CHARS = 60
"""How much of a refused input an error message repeats: enough to recognise it, never a
whole pasted file."""

MAX_SEED = 2**63 - 1
"""Seeds are stored in records and JSON; a 63-bit whole number is plenty and fits anywhere."""

_DIGITS = re.compile(r"[0-9]+")


def _cut(text: str, limit: int) -> str:
    """The start and the end of ``text`` (where a path keeps its file name) around "..."."""
    tail = limit // 3
    return f"{text[: limit - tail]}...{text[-tail:]}"


def shorten(text: object, limit: int = SHOWN_CHARS) -> str:
    """``text`` cut to about ``limit`` characters, saying how long it was."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{_cut(text, limit)} ({len(text)} characters)"


def error_line(exc: GameError) -> str:
    """The one line that reports a refusal: the kind, the input (cut), the rule it breaks."""
    text = exc.input if isinstance(exc.input, str) else repr(exc.input)
    long = len(text) > SHOWN_CHARS
    shown = _cut(text, SHOWN_CHARS) if long else text
    if isinstance(exc.input, str):
        shown = repr(shown)
    if long:
        shown += f" ({len(text)} characters)"
    line = f"{exc.kind} {shown}: {shorten(exc.reason, 3 * SHOWN_CHARS)}"
    return "".join(c if c.isprintable() else " " for c in line)  # one line, whatever it held


def whole_number(low: int = 0, high: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number in ``[low, high]`` written in ASCII digits.

    ``int`` also takes ``"١"``, ``"１"``, ``" 5 "`` and ``"1_000"``; a count on our command
    line is plain digits, and a bound keeps a 5000-digit value from reaching any code.
    """
    limit = len(str(high)) if high is not None else 18

    def parse(text: str) -> int:
        body = text[1:] if text.startswith("-") else text
        if text.startswith("-") and low >= 0 and _DIGITS.fullmatch(body) and body.strip("0"):
            raise argparse.ArgumentTypeError(f"{shorten(text)!r} must be at least {low}")
        if not _DIGITS.fullmatch(body):
            raise argparse.ArgumentTypeError(
                f"{shorten(text)!r} is not a whole number in ASCII digits"
            )
        if len(body.lstrip("0")) > limit:
            raise argparse.ArgumentTypeError(f"{shorten(text)!r} is too large")
        value = int(text)
        if value < low or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{text!r} must be {bounds}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def seconds(high: float = 24 * 3600.0) -> Callable[[str], float]:
    """An argparse type for a positive, finite number of seconds (``nan`` and ``inf`` are
    floats, but no measurement can last them)."""

    def parse(text: str) -> float:
        try:
            value = float(text) if text.isascii() else math.nan
        except ValueError:
            value = math.nan
        if not (0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"{shorten(text)!r} is not a number of seconds above 0 and at most {high:g}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


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


def add_players_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=whole_number(1, 99),
        metavar="N",
        help="number of players, for games that vary (a game refuses a number it is not for)",
    )


def add_seed_argument(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:  # noqa: A002
    parser.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=default, metavar="N", help=help
    )


def add_parallel_arguments(
    parser: argparse.ArgumentParser, *, players: bool = True, quiet: str = "no progress bar"
) -> None:
    """The options shared by the commands that play many games in worker processes
    (``players``: with ``-o players=N``; ``quiet``: what ``--quiet`` leaves out)."""
    if players:
        add_players_argument(parser)
    parser.add_argument(
        "--jobs",
        "-j",
        type=whole_number(1, 1024),
        default=None,
        metavar="J",
        help="worker processes (default: the number of cores; 1 plays in this process)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:8786) instead of local processes; needs pip install 'ludoteca[cluster]'",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help=quiet)


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


def game_from_args(args: argparse.Namespace, **extra: object) -> Game:
    """The game named on the command line with its ``-o`` options and any ``--players``."""
    options = parse_options(args.option)
    for key, value in extra.items():
        if value is None:
            continue
        if key in options and options[key] != value:
            raise MalformedError(
                f"{key}={options[key]}", f"-o {key} and --{key} disagree ({value})"
            )
        options[key] = value  # type: ignore[assignment]
    shown = " ".join(f"{k}={v}" for k, v in options.items())
    with parsing(shown, f"options of {args.game}"):
        return get(args.game, **options)


@contextmanager
def parsing(text: object, what: str) -> Iterator[None]:
    """Turn any failure to parse ``text`` into a :class:`MalformedError` naming it.

    Engines refuse bad input with ``GameError``; this is the net under them for the inputs
    that reach a library first (``json`` refusing a 5000-digit number with ``ValueError``,
    deep nesting with ``RecursionError``), so a person still gets one line and status 2.
    """
    try:
        yield
    except GameError:
        raise
    except (ValueError, OverflowError, RecursionError, TypeError, KeyError, IndexError) as exc:
        reason = str(exc).split(";")[0] or type(exc).__name__
        raise MalformedError(text, f"not {what} ({shorten(reason, 100)})") from None


START = "start"
"""The word a person may type for a position: the game's start."""

START_SEED = 1
"""The set-up ``start`` gives without ``--seed`` (Hexagone's block is dealt by its seed), so
the same command shows the same position every time."""

POSITION_HELP = (
    "a position in the game's notation, or 'start' for the start of a game (Hexagone's "
    f"set-up from --seed, default {START_SEED})"
)


def add_position_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    add_seed_argument(parser, None, f"with 'start': the seed of the set-up (default {START_SEED})")


def read_position(game: Game, text: str, args: argparse.Namespace | None = None) -> State:
    """The state ``text`` describes, in ``game``'s notation. A number of players given on
    the command line (``args``: ``-o players=N``) must be the position's: a position says
    how many play, and an option it overrides silently was a mistake left unseen."""
    if text.strip().lower() == START:
        seed = getattr(args, "seed", None)
        return game.new_state(seed=START_SEED if seed is None else seed)
    with parsing(text, f"a {game.id} position"):
        state = game.from_position(text)
    asked = parse_options(args.option).get("players") if args is not None else None
    if asked is not None and state.num_players != game.num_players:
        raise MalformedError(
            text,
            f"the position is for {state.num_players} player(s), but -o players={asked} "
            "asks for another number (leave the option out, or give a position for it)",
        )
    return state


@contextmanager
def _path_errors(path: str, option: str) -> Iterator[None]:
    """A path the system refuses to look at (a name too long, a loop of links) is refused."""
    if not path.strip():
        raise MalformedError(path, f"{option}: the name is blank")
    if any(not c.isprintable() for c in path):
        raise MalformedError(path, f"{option}: the name holds control characters")
    try:
        yield
    except GameError:
        raise  # our own refusal, already in words: not wrapped in another
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise MalformedError(path, f"{option}: {reason}") from None


def _stat(target: Path) -> None:
    """Ask the system about ``target``; only "no such file" is fine (a name too long for the
    file system, say, raises ``OSError`` for :func:`_path_errors`)."""
    with suppress(FileNotFoundError, NotADirectoryError):
        os.stat(target)


def check_output_file(
    path: str, option: str, suffixes: tuple[str, ...] = (), *, create_parents: bool = False
) -> None:
    with _path_errors(path, option):
        _check_output_file(path, option, suffixes, create_parents)


def check_output_folder(path: str, option: str, *, create_parents: bool = True) -> None:
    with _path_errors(path, option):
        _check_output_folder(path, option, create_parents)


def _check_output_file(
    path: str, option: str, suffixes: tuple[str, ...], create_parents: bool
) -> None:
    """Refuse, before any work, a file that cannot be written: a folder, a missing parent
    (unless the writer creates it), a parent that is a file, one we may not write to, or an
    extension we cannot draw. A game or a tournament is never played to find this out."""
    target = Path(path)
    if not target.name or "\x00" in path:
        raise MalformedError(path, f"{option} must name a file")
    _stat(target)
    if suffixes and target.suffix.lower() not in suffixes:
        raise MalformedError(path, f"{option} must end in {', '.join(suffixes)}")
    if target.is_dir():
        raise MalformedError(path, f"{option} is a folder, not a file")
    parent = target.parent
    if create_parents:
        _check_output_folder(str(parent), option, True)
    elif not parent.is_dir():
        raise MalformedError(path, f"{option}: the folder {shorten(parent)} does not exist")
    if not os.access(parent, os.W_OK):
        raise MalformedError(path, f"{option}: the folder {shorten(parent)} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise MalformedError(path, f"{option}: the file is not writable")


def _check_output_folder(path: str, option: str, create_parents: bool) -> None:
    """Refuse, before any work, a folder that cannot be made or written to (nothing is
    created here: a refused command writes nothing)."""
    if not path or "\x00" in path:
        raise MalformedError(path, f"{option} must name a folder")
    target = Path(path)
    _stat(target)
    if target.exists():
        if not target.is_dir():
            raise MalformedError(path, f"{option} is a file, not a folder")
        if not os.access(target, os.W_OK):
            raise MalformedError(path, f"{option} is not writable")
        return
    ancestor = target.parent
    while not ancestor.exists() and create_parents and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise MalformedError(path, f"{option}: {shorten(ancestor)} is not a folder")
    if not os.access(ancestor, os.W_OK):
        raise MalformedError(path, f"{option}: {shorten(ancestor)} is not writable")


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


def result_line(state: State, result: Result | None = None) -> str:
    """The result in one line, naming the sides (``result``: one that ended the game outside
    its rules, such as a resignation; else the state's own)."""
    result = result if result is not None else state.result
    if result is None:
        return "the game is not over"
    sides = [state.side_name(p) for p in range(state.num_players)]
    return result.describe(sides)
