"""Every script the club serves parses as a JavaScript module (Node's ``--check``): a syntax
error would otherwise stop a whole page, and be found only by the browser tests that open it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2] / "src" / "ludoteca"
SCRIPTS = sorted([*(ROOT / "web" / "static").glob("*.js"), *(ROOT / "games").glob("*/page.js")])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_script_parses(script):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing and CI is set (it comes with npm)")
        pytest.skip("Node.js is not installed")
    out = subprocess.run(
        [node, "--input-type=module", "--check"],
        stdin=script.open("rb"),
        capture_output=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr.decode()
