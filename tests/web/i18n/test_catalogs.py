"""The catalogs are complete: every text the club marks for translation is in the
template (``messages.pot``) and translated in German and Japanese, with the same fields and
markup, nothing stale or fuzzy, and compiled. A new feature cannot land untranslated: its
messages are missing from the catalogs until someone translates them, and this fails."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ludoteca.web.i18n.catalogs import LOCALE_DIR, catalog_paths, check_compiled
from ludoteca.web.i18n.languages import DEFAULT, LANGUAGES
from ludoteca.web.i18n.templates import TEMPLATES_DIR

ROOT = Path(__file__).resolve().parents[3]
TRANSLATED = [code for code in LANGUAGES if code != DEFAULT]
FIELDS = re.compile(r"\{[A-Za-z_0-9]*(?:![rsa])?(?::[^{}]*)?\}|%\([a-z_0-9]+\)[sd]|<[^>]+>")
JINJA = re.compile(r"\{[{%].*?[}%]\}", re.S)


def keywords() -> list[str]:
    """The extraction keywords, as the Makefile gives them to ``pybabel extract``."""
    line = re.search(r"^KEYWORDS := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert line, "the Makefile names the extraction keywords"
    return line.group(1).split()


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages as the code marks them now (a fresh ``pybabel extract``)."""
    out = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "-q", "extract", "-F", "babel.cfg", *keywords(), "--no-location"]
        + ["-o", str(out), "."],
        cwd=ROOT,
        check=True,
    )
    with out.open("rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


def _key(message_id) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


def test_the_template_in_the_repository_is_up_to_date(extracted):
    with (LOCALE_DIR / "messages.pot").open("rb") as f:
        kept = {_key(m.id) for m in read_po(f) if m.id}
    now = {_key(i) for i in extracted}
    assert not now - kept, f"run `make update-catalogs`: new messages {sorted(now - kept)[:10]}"
    assert not kept - now, f"run `make update-catalogs`: stale messages {sorted(kept - now)[:10]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_its_fields(code, extracted):
    po_path, _ = catalog_paths(code)
    with po_path.open("rb") as f:
        catalog = read_po(f, locale=code)
    problems = []
    for message_id in extracted:
        entry = catalog.get(_key(message_id))
        if entry is None:
            problems.append(f"missing {message_id!r}")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings) or entry.fuzzy:
            problems.append(f"untranslated or fuzzy {message_id!r}")
            continue
        wanted = sorted(
            FIELDS.findall(message_id[-1] if isinstance(message_id, tuple) else message_id)
        )
        for text in strings:
            got = sorted(FIELDS.findall(text))
            plural_ok = isinstance(message_id, tuple) and set(got) <= set(
                FIELDS.findall(message_id[0]) + wanted
            )
            if got != wanted and not plural_ok:
                problems.append(f"fields of {message_id!r}: {wanted} != {got}")
    stale = [m.id for m in catalog if m.id and _key(m.id) not in {_key(i) for i in extracted}]
    problems += [f"stale {s!r}" for s in stale]
    assert not problems, f"{len(problems)} problems in {po_path}:\n" + "\n".join(problems[:20])


def test_the_compiled_catalogs_are_current():
    check_compiled()  # raises with the command to run when a .mo is missing or stale


def whole_pages() -> list[Path]:
    """The English pages translated whole (long prose), one file per language beside them."""
    return sorted(
        p for folder in ("help", "rules") for p in (TEMPLATES_DIR / folder).glob("*.html")
    )


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("page", whole_pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_whole_page_is_written_in_each_language_with_the_same_template_code(code, page):
    translated = page.parent / code / page.name
    assert translated.is_file(), f"{translated} is missing"
    english_code = [m for m in JINJA.findall(page.read_text()) if "'" not in m]
    their_code = [m for m in JINJA.findall(translated.read_text()) if "'" not in m]
    assert their_code == english_code
