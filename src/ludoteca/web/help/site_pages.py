"""The club's contact, privacy and terms pages: the operator's own words, or defaults.

Whoever runs a club answers for it, so these pages are theirs to write: Markdown files in a
folder given to ``ludoteca serve --site-pages DIR`` (or ``$LUDOTECA_SITE_PAGES``), named
``contact.md``, ``privacy.md`` and ``terms.md``, with ``contact.de.md``, ``privacy.ja.md``
… for a reader of that language. A file is read when its page is asked for, so an edit
shows at once. A page without a file shows the club's default text in the reader's
language, which says what the club keeps and that its operator has not written their own.
The Markdown is rendered as forum posts are: no raw HTML, links and lists allowed.
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from ludoteca.core.messages import N_

PAGES = {"contact": N_("Contact"), "privacy": N_("Privacy"), "terms": N_("Terms of use")}
"""Each page's address (``/contact``) and title."""
MAX_BYTES = 200_000
"""Longer files are read this far: a page, not a book."""


def checked_folder(folder: str | Path | None) -> Path | None:
    """``folder`` as a path, refused with a clear message if it is not a readable folder."""
    if folder is None or str(folder) == "":
        return None
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ValueError(f"site pages: {str(folder)!r} is not a folder")
    return path


def operator_text(folder: Path | None, name: str, code: str) -> Markup | None:
    """The operator's page ``name`` for a reader of language ``code`` (their file for that
    language, else their file for all), as safe HTML; ``None`` where they wrote none."""
    from ludoteca.web.forum import markup

    if folder is None or name not in PAGES:
        return None
    for candidate in (folder / f"{name}.{code}.md", folder / f"{name}.md"):
        if candidate.is_file():
            with candidate.open("rb") as f:
                source = f.read(MAX_BYTES).decode("utf-8", errors="replace")
            return Markup(markup.render(source))
    return None
