"""The page scripts' messages: found in the scripts by Babel's JavaScript extractor (calls
of ``t("...")``, the same extraction ``make catalogs`` runs), translated from the catalogs and
sent with each page as a JSON block (:file:`static/i18n.js` reads it)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_from_file

from ludoteca.web.i18n.catalogs import language

STATIC = Path(__file__).resolve().parents[1] / "static"
GAMES = Path(__file__).resolve().parents[2] / "games"


@cache
def script_message_ids() -> tuple[str, ...]:
    """Every message the scripts under ``static/`` and the games' page modules pass to
    ``t()``."""
    found: set[str] = set()
    for path in sorted([*STATIC.glob("*.js"), *GAMES.glob("*/*.js")]):
        for _line, message, _comments, _context in extract_from_file(
            "javascript",
            str(path),
            keywords={"t": None},
            options={"parse_template_string": "true"},
        ):
            if isinstance(message, str):
                found.add(message)
    return tuple(sorted(found))


@cache
def script_messages(code: str) -> str:
    """The JSON block for a page in language ``code``: each script message's translation
    (none for English), safe inside a ``<script>`` element."""
    lang = language(code)
    table = {
        message: lang.gettext(message)
        for message in script_message_ids()
        if lang.gettext(message) != message
    }
    return json.dumps(table, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
