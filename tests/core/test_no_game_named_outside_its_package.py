"""A game is one package: the bots, the club's Python and its JavaScript name no game and
import no game package, and the JavaScript holds no move notation. What a game needs there
(search knowledge, move cells and labels, page hints, a page module) it provides itself."""

from __future__ import annotations

import re
from pathlib import Path

import ludoteca
from ludoteca.core.registry import names

ROOT = Path(ludoteca.__file__).parent
IDS = "|".join(re.escape(n) for n in names() if not n.startswith("toy"))
QUOTED_ID = re.compile(rf"""["'`/]({IDS})(/solo|-multi)?["'`/.]""")
GAME_IMPORT = re.compile(r"^\s*(from|import) ludoteca\.games")


def _code_lines(path: Path):
    """Lines of code outside docstrings and comments (docs may name games as examples)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        text = re.sub(r'"""(.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
        comment = "#"
    else:
        comment = "//"
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, line.split(comment, 1)[0] if comment in line else line


def _offenders(paths, *patterns):
    found = []
    for path in paths:
        for number, code in _code_lines(path):
            if any(p.search(code) for p in patterns):
                found.append(f"{path.relative_to(ROOT)}:{number}: {code.strip()}")
    return found


def test_the_bots_name_no_game():
    assert _offenders(sorted((ROOT / "bots").rglob("*.py")), QUOTED_ID, GAME_IMPORT) == []


def test_the_club_names_no_game():
    web = sorted((ROOT / "web").rglob("*.py"))
    web = [p for p in web if "migrations" not in p.parts]  # history: names stored pools
    assert _offenders(web, QUOTED_ID, GAME_IMPORT) == []


def test_the_club_javascript_names_no_game_and_writes_no_notation():
    scripts = sorted((ROOT / "web" / "static").rglob("*.js"))
    notation = re.compile(r"[a-f]\]\[1-6\]|`\$\{[^}]*\}@|['\"`](remove|choose|swap|place|main) ")
    assert scripts and _offenders(scripts, QUOTED_ID, notation) == []


def test_the_check_finds_what_it_looks_for(tmp_path):
    """The scans above can fail: a file naming a game or building notation is caught."""
    bad = tmp_path / "bad.js"
    bad.write_text('const m = `${o}@${cell}`;\nconst g = "comune";\n')
    found = []
    for _, code in _code_lines(bad):
        found += [p.pattern for p in (QUOTED_ID,) if p.search(code)]
    assert QUOTED_ID.search('x = "hexagone"') and QUOTED_ID.search("'comino/solo'")
    assert re.search(r"`\$\{[^}]*\}@", "`${o}@${cell}`")
    assert found
