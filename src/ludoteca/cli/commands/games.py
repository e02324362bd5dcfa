"""``ludoteca games [--json]``: the games this installation knows, wherever they come from."""

from __future__ import annotations

import json
import sys

from ludoteca.core.registry import PACKAGES_VARIABLE, game_class, names, package_errors


def register(sub) -> None:
    p = sub.add_parser(
        "games",
        help="list the games installed",
        description="List every registered game: the ones shipped with ludoteca, those "
        "installed as packages (entry point group 'ludoteca.games') and those named in "
        f"{PACKAGES_VARIABLE} (comma-separated package names), with their players and "
        "designer. --json prints a list of objects.",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list instead")
    p.set_defaults(func=run)


def run(args) -> int:
    rows = []
    for gid in names():
        cls = game_class(gid)
        rows.append(
            {
                "id": gid,
                "title": cls.title,
                "players": [cls.min_players, cls.max_players],
                "designer": cls.designer,
                "chance": cls.has_chance,
                "package": cls.__module__.rpartition(".")[0],
            }
        )
    errors = package_errors()
    for error in errors:
        print(f"ludoteca games: {error}", file=sys.stderr)
    status = 2 if errors else 0
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return status
    for r in rows:
        low, high = r["players"]
        players = f"{low}" if low == high else f"{low}-{high}"
        by = f", by {r['designer']}" if r["designer"] else ""
        print(f"{r['id']:12} {r['title']}{by} ({players} players)")
    return status
