"""Words kept in stored HTML untranslated until a page shows it.

A forum post is rendered to HTML once, when written, but read in every language: the
boards it embeds carry words (a screen reader's label, the pieces' names) that must be in
each reader's. Such a word is stored as a marker holding its message (:func:`deferred`), and
:func:`localize` puts each marker's translation in when the page is drawn. The marker is
made of characters HTML escaping leaves alone, between two invisible separators.
"""

from __future__ import annotations

import base64
import json
import re

from markupsafe import Markup, escape

from ludoteca.core.messages import Text
from ludoteca.web.i18n.catalogs import Language

_SEPARATOR = "\u2063"
_MARKER = re.compile(f"{_SEPARATOR}i18n:([A-Za-z0-9_=-]+){_SEPARATOR}")


def deferred(message: str) -> str:
    """A marker standing for ``message`` (a :class:`Text` or a message id), to be translated
    by :func:`localize` when shown."""
    data = json.dumps(Text.of(message).to_json(), ensure_ascii=False).encode()
    return f"{_SEPARATOR}i18n:{base64.urlsafe_b64encode(data).decode()}{_SEPARATOR}"


def localize(html: str, lang: Language) -> Markup:
    """Stored, safe ``html`` with each marker replaced by its message in ``lang`` (escaped);
    a marker that does not decode is dropped."""

    def translated(match: re.Match[str]) -> str:
        try:
            data = json.loads(base64.urlsafe_b64decode(match.group(1)))
        except ValueError:
            return ""
        return str(escape(lang.text(Text.from_json(data))))

    return Markup(_MARKER.sub(translated, html))
