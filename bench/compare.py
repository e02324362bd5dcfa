"""One benchmark, two revisions, one run: how much faster (or slower) a change made us.

    python bench/compare.py OLD_REV NEW_REV [--rounds 3] [--] COMMAND ...

Each revision is checked out into its own temporary ``git worktree`` (the working tree you
are in is never touched) and ``COMMAND`` runs with that revision's ``src`` first on
``PYTHONPATH``, using this Python. The two alternate, round after round, so a busy moment
on a shared machine falls on both: figures measured minutes apart in separate runs are not
comparable here, ratios measured in one run are. ``COMMAND`` must print one JSON object (or
a list of them) as its last output line; every numeric field is compared, median over the
rounds, and the ratio NEW/OLD is printed (``--json`` prints it as JSON).

The default command is ``ludoteca bench GAME --json`` for every game (``--game`` picks
one). Examples::

    python bench/compare.py HEAD~1 HEAD --game hexagone
    python bench/compare.py main my-branch -- python -m ludoteca.cli.main bench comune --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def resolve(rev: str) -> str:
    """The commit ``rev`` names, or exit with git's own reason."""
    out = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"compare: {rev!r} is not a commit of this repository")
    return out.stdout.strip()


@contextlib.contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """A detached worktree of ``commit``, removed afterwards whatever happens."""
    with tempfile.TemporaryDirectory(prefix="ludoteca-compare-") as tmp:
        path = Path(tmp) / commit[:12]
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(path), commit],
            cwd=ROOT,
            check=True,
        )
        # The club refuses to start with catalogs older than their .po files, and a fresh
        # checkout gives every file the same moment: compile them, as `make` does.
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", "compile", "-D", "messages",
             "-d", str(path / "src" / "ludoteca" / "web" / "i18n" / "locale")],
            check=False,
        )  # fmt: skip
        try:
            yield path
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False
            )


def run_once(tree: Path, command: list[str]) -> list[dict]:
    """Run ``command`` against ``tree``'s sources; its last line parsed as JSON rows."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    out = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-5:]
        raise SystemExit(f"compare: {' '.join(command)} failed in {tree.name}:\n" + "\n".join(tail))
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    try:
        data = json.loads(last) if last.startswith(("{", "[")) else json.loads(out.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"compare: {' '.join(command)} printed no JSON") from None
    return data if isinstance(data, list) else [data]


def numeric(row: dict) -> dict[str, float]:
    return {
        k: float(v)
        for k, v in row.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    }


def compare(old: list[list[dict]], new: list[list[dict]]) -> list[dict]:
    """Per row and numeric field: median of each side over the rounds, and NEW/OLD."""
    rows = []
    for i in range(min(len(old[0]), len(new[0]))):
        label = old[0][i].get("game", f"row {i + 1}")
        fields = sorted(set(numeric(old[0][i])) & set(numeric(new[0][i])))
        for field in fields:
            a = statistics.median(numeric(r[i])[field] for r in old)
            b = statistics.median(numeric(r[i])[field] for r in new)
            rows.append(
                {"row": label, "field": field, "old": a, "new": b, "ratio": b / a if a else None}
            )
    return rows


def commands(args: argparse.Namespace) -> list[list[str]]:
    if args.command:
        return [args.command]
    games = [args.game] if args.game else _games()
    base = [sys.executable, "-m", "ludoteca.cli.main", "bench"]
    return [[*base, g, "--json", "--seconds", str(args.seconds)] for g in games]


def _games() -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from ludoteca.core.registry import names

    return names()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run one benchmark on two revisions, alternating, and print NEW/OLD.",
        epilog="Everything after -- is the command to run (it must print JSON last).",
    )
    parser.add_argument("old", help="the revision to compare against (e.g. HEAD~1, main)")
    parser.add_argument("new", help="the revision measured (e.g. HEAD)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (default 3)")
    parser.add_argument("--game", help="bench one game only (default: every game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per bench run")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    args.command = command
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    old_commit, new_commit = resolve(args.old), resolve(args.new)
    result: list[dict] = []
    with checkout(old_commit) as old_tree, checkout(new_commit) as new_tree:
        for command in commands(args):
            old_runs: list[list[dict]] = []
            new_runs: list[list[dict]] = []
            for r in range(args.rounds):
                print(f"round {r + 1}/{args.rounds}: {' '.join(command[2:])}", file=sys.stderr)
                old_runs.append(run_once(old_tree, command))
                new_runs.append(run_once(new_tree, command))
                # each round's figures too: on a shared machine the spread says as much as
                # the median
                for side, runs in (("old", old_runs), ("new", new_runs)):
                    print(
                        f"  {side}: {json.dumps([numeric(r) for r in runs[-1]])}", file=sys.stderr
                    )
            result.extend(compare(old_runs, new_runs))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"old {args.old} ({old_commit[:10]})  new {args.new} ({new_commit[:10]})")
    print(f"{'row':12} {'field':22} {'old':>12} {'new':>12} {'new/old':>8}")
    for row in result:
        ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "-"
        print(
            f"{str(row['row']):12} {row['field']:22} {row['old']:>12,.1f} {row['new']:>12,.1f} "
            f"{ratio:>8}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
