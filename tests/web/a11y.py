"""axe-core in Chromium: inject it into a page and list its serious and critical findings.

axe-core comes from the npm registry into ``tests/a11y/node_modules`` (``make test`` runs
``npm ci --prefix tests/a11y``). The club's Content-Security-Policy forbids injected
scripts, so the browser context that checks a page is made with ``bypass_csp=True``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

AXE = Path(__file__).parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_path() -> Path:
    if not AXE.exists():
        message = f"{AXE} is missing: run `npm ci --prefix tests/a11y` (make test does)"
        if os.environ.get("CI"):
            pytest.fail(message + " and CI is set: the accessibility checks need it")
        pytest.skip(message)
    return AXE


def violations(page) -> list[dict]:
    """axe's serious and critical violations on ``page`` as it stands: rule, impact, help and
    the first few offending elements."""
    page.add_script_tag(path=str(axe_path()))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, { resultTypes: ['violations'] });
            return r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary),
            }));
        }"""
    )
    return [v for v in found if v["impact"] in SERIOUS]
