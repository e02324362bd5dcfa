"""``bench/compare.py``: both revisions run the command from their own sources, the ratio is
NEW/OLD of the medians, and a name that is not a commit is refused before anything runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "bench" / "compare.py")


def test_each_side_runs_its_own_sources_and_the_ratio_is_new_over_old():
    # The command reports which source tree it imported: each side must see its own checkout.
    probe = (
        "import json, ludoteca;"
        "print(json.dumps({'game': 'probe', 'two': 2,"
        " 'in_checkout': int('ludoteca-compare-' in ludoteca.__file__)}))"
    )
    out = subprocess.run(
        [
            sys.executable,
            SCRIPT,
            "HEAD",
            "HEAD",
            "--rounds",
            "2",
            "--json",
            "--",
            sys.executable,
            "-c",
            probe,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = {r["field"]: r for r in json.loads(out.stdout)}
    assert rows["two"] == {"row": "probe", "field": "two", "old": 2.0, "new": 2.0, "ratio": 1.0}
    assert rows["in_checkout"]["old"] == rows["in_checkout"]["new"] == 1.0
    worktrees = subprocess.run(
        ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "ludoteca-compare-" not in worktrees  # both checkouts removed


def test_a_name_that_is_no_commit_is_refused():
    out = subprocess.run(
        [sys.executable, SCRIPT, "no-such-rev-xyz", "HEAD", "--", "true"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "'no-such-rev-xyz' is not a commit" in out.stderr
