"""Messages people read, kept translatable: an English template with named fields.

The engines and the club speak English where text is plain (the command line, logs,
records, JSON for programs). The web club shows the same words in its reader's language, so
such a text is a :class:`Text`: a ``str`` whose value is the English sentence, which also
keeps its *template* (``"{square} is occupied"``, the gettext message id) and its *fields*
apart until a page translates it. Being a ``str``, a :class:`Text` goes wherever text went
before (comparisons, f-strings, JSON) unchanged.

Templates are literal strings where the text is made, so ``pybabel extract`` finds them
(``Text``, ``ClubError`` and the engines' ``IllegalMoveError`` are extraction keywords); a
template written elsewhere is marked with :func:`N_`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any


def N_(template: str) -> str:  # noqa: N802 - the conventional gettext marker's name
    """Mark ``template`` for extraction without translating it here."""
    return template


def _filled(template: str, fields: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    values = {
        key: value.localize(gettext) if isinstance(value, Text) else value
        for key, value in fields.items()
    }
    return template.format(**values)


class Text(str):
    """A template and its fields; as a ``str``, the English text.

    A field may itself be a :class:`Text` (a refusal that quotes the engine's reason, a
    label naming a piece), which is translated with it.
    """

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, fields: Mapping[str, Any] | None = None) -> Text:
        fields = dict(fields or {})
        english = _filled(template, fields, _same) if fields else template
        text = super().__new__(cls, english)
        text.template = template
        text.fields = fields
        return text

    @classmethod
    def of(cls, message: str, fields: Mapping[str, Any] | None = None) -> Text:
        """``message`` itself if it is a :class:`Text`, else the template ``message`` with
        ``fields``: what every refusal takes."""
        return message if isinstance(message, Text) else cls(message, fields)

    def localize(self, gettext: Callable[[str], str]) -> str:
        """The text in the language ``gettext`` translates into."""
        template = gettext(self.template) if self.template else self.template
        if not self.fields:
            return template
        try:
            return _filled(template, self.fields, gettext)
        except (KeyError, IndexError, ValueError):
            # a translation with a broken field falls back to the English text
            return str.__str__(self)

    def to_json(self) -> dict[str, Any]:
        """The text as JSON, to be stored and translated when shown (a notification)."""
        return {
            "t": self.template,
            "f": {k: v.to_json() if isinstance(v, Text) else v for k, v in self.fields.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> Text:
        """The inverse of :meth:`to_json`; anything else is taken as plain (English) text."""
        if not isinstance(data, dict) or not isinstance(data.get("t"), str):
            return cls("{text}", {"text": str(data)})
        fields = data.get("f") if isinstance(data.get("f"), dict) else {}
        return cls(
            data["t"],
            {
                k: cls.from_json(v) if isinstance(v, dict) else v
                for k, v in fields.items()  # type: ignore[union-attr]
            },
        )

    def __repr__(self) -> str:
        return f"Text({self.template!r}, {self.fields!r})"

    def __reduce__(self):
        return (Text, (self.template, self.fields))


def _same(template: str) -> str:
    return template


STORED_MAX = 2000
"""Longest JSON a stored text keeps (:func:`to_stored`); a longer one is kept as plain text."""


def to_stored(text: str, plain_max: int = 500) -> str:
    """``text`` as a database column keeps it: a :class:`Text` as its JSON, so that each
    reader sees it in their language later (:func:`from_stored`); plain text, or a Text whose
    fields are far too long, as its English cut to ``plain_max`` characters."""
    if isinstance(text, Text):
        kept = json.dumps(text.to_json(), ensure_ascii=False)
        if len(kept) <= STORED_MAX:
            return kept
    return str.__str__(text)[:plain_max]


def from_stored(stored: str) -> Text:
    """The :class:`Text` :func:`to_stored` kept; plain text (written before the languages,
    or cut) as a Text that reads the same in every language."""
    if stored.startswith('{"t":'):
        try:
            return Text.from_json(json.loads(stored))
        except ValueError:
            pass
    return Text("{text}", {"text": stored})
