"""Every game's speed benchmark in one run, with the C limits measured in the same run.

    python bench/run_all.py [--seconds S] [--json]

Each game runs ``ludoteca bench GAME --json`` in its own process (one core each, one after
another, so the measurements do not compete); where ``limit_GAME.c`` is found (see
``ludoteca bench --help``) the ratio to it is reported. Figures on a shared machine are
noisy: quote ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from ludoteca.core.registry import names

TARGETS = {"kuniumi": 2000, "comune": 1000, "comino": 300}
"""Minimum random complete games per second each game's issue asks for."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in names():
        cmd = [
            sys.executable,
            "-m",
            "ludoteca.cli.main",
            "bench",
            game,
            "--json",
            "--seconds",
            str(args.seconds),
        ]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{game}: failed: {out.stderr.strip()}", file=sys.stderr)
            return 1
        row = json.loads(out.stdout)
        row["target_games_per_s"] = TARGETS.get(game)
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    header = ("game", "games/s", "protocol", "C limit", "ratio", "target")
    print("{:10} {:>12} {:>10} {:>10} {:>7} {:>8}".format(*header))
    for r in rows:
        limit = r.get("c_limit_games_per_s")
        ratio = r.get("ratio_to_c_limit")
        target = r["target_games_per_s"]
        ok = "" if target is None else ("ok" if r["games_per_s"] >= target else "BELOW")
        print(
            f"{r['game']:10} {r['games_per_s']:>12,.0f} {r['api_games_per_s']:>10,.0f} "
            f"{(f'{limit:,.0f}' if limit else '-'):>10} {(f'{ratio:.3f}' if ratio else '-'):>7} "
            f"{(target or '-'):>6} {ok}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
