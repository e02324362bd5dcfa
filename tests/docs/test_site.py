"""The documentation: the site builds with --strict, and the README's links lead somewhere.

The site (``mkdocs.yml``, pages in ``docs/``) is built the way ``make docs`` serves it, so a
broken link between pages, a page left out of the navigation or an API reference to a module
or name that no longer exists fails here rather than on a reader's screen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
README_MAX_LINES = 200


def test_site_builds_strictly_without_fetching_anything(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    home = (tmp_path / "index.html").read_text()
    # theme.font is off: a reader's browser asks no font server for anything
    assert "fonts.googleapis" not in home and "fonts.gstatic" not in home
    reference = (tmp_path / "api" / "protocol" / "index.html").read_text()
    assert "ludoteca.core.protocol.State" in reference  # the docstrings made it in
    assert ":class:" not in reference and ":meth:" not in reference  # roles read as code


def _link_targets(markdown: str) -> list[str]:
    targets: list[str] = []
    for block in MarkdownIt("commonmark").enable("table").parse(markdown):
        for token in block.children or []:
            if token.type == "link_open":
                targets.append(str(token.attrs["href"]))
            elif token.type == "image":
                targets.append(str(token.attrs["src"]))
    return targets


def broken_relative_links(markdown: str, base: Path) -> list[str]:
    """The relative link and image targets in ``markdown`` that name no file under ``base``."""
    broken = []
    for target in _link_targets(markdown):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path:
            continue  # a web address, or an anchor on the same page
        if not (base / unquote(parts.path)).exists():
            broken.append(target)
    return broken


def test_readme_is_short_and_every_relative_link_resolves() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= README_MAX_LINES
    assert len(_link_targets(text)) > 10  # the parser does find the README's links
    assert broken_relative_links(text, ROOT) == []


def test_a_broken_relative_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("# there\n")
    text = "[ok](docs/there.md#a) [gone](docs/gone.md) ![pic](docs/pic.png) [web](https://x.org)"
    assert broken_relative_links(text, tmp_path) == ["docs/gone.md", "docs/pic.png"]
