"""The ``ludoteca`` command. Each module in :mod:`ludoteca.cli.commands` adds one
sub-command through ``register(subparsers)``, so new commands never edit this file.

Bad input (a malformed position, an illegal move, a corrupted record) is reported on stderr
with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from ludoteca import __version__
from ludoteca.core.errors import GameError

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    from . import commands

    parser = argparse.ArgumentParser(
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except GameError as exc:
        print(f"ludoteca {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
