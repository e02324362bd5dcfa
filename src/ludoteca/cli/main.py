"""The ``ludoteca`` command. Each module in :mod:`ludoteca.cli.commands` adds one
sub-command through ``register(subparsers)``, so new commands never edit this file.

Bad input (a malformed position, an illegal move, a corrupted record, a bad option or path)
is reported on stderr in one line, with exit status 2, never as a traceback; a long input is
cut in the message. Ctrl-C stops any command with status 130 (``play`` saves its record
first).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import NoReturn

from ludoteca import __version__
from ludoteca.core.errors import GameError

from .common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, error_line, shorten


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in one line like every other refusal (argparse's own
    usage line before it made two), cut to a readable length (it repeats the refused argument
    whole, and an argument can be a pasted file), and pointing at ``--help``. Sub-command
    parsers are made of the same class (argparse uses the parent's class), so every usage
    error goes through here, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        line = f"{self.prog}: {shorten(message, 300)} (see {self.prog} --help)"
        line = "".join(c if c.isprintable() else " " for c in line)
        self.exit(EXIT_BAD_INPUT, line + "\n")


def build_parser() -> argparse.ArgumentParser:
    from . import commands

    parser = Parser(
        prog="ludoteca",
        description="Exact rules engines, computer opponents and a web club for "
        "Comune, Comino, Kuniumi and Hexagone.",
    )
    parser.add_argument("--version", action="version", version=f"ludoteca {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    modules = sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name)
    for info in modules:
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status is returned (also for ``--help`` and usage errors,
    which argparse reports by raising ``SystemExit``), so callers in Python get a number."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except GameError as exc:
        print(f"ludoteca {args.command}: {error_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
