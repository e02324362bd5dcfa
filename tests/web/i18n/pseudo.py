"""A pseudo-locale for the tests, and what a person reads on a page.

:func:`pseudo_language` turns a language's catalog, for the duration of a test, into one
that renders every message id visibly transformed (``⟦Log in⟧``): any text that reaches a
person without the brackets did not pass through the catalogs, whoever added it and
wherever. :func:`reading` lists what a person reads in a page (text, and the attributes
browsers show or speak); :func:`english_left` finds, in such text, English that should have
been translated.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from html.parser import HTMLParser

from babel.messages.pofile import read_po
from babel.support import NullTranslations
from jinja2 import ChoiceLoader, DictLoader

from ludoteca.web.i18n import scripts
from ludoteca.web.i18n.catalogs import LOCALE_DIR, language
from ludoteca.web.i18n.languages import LANGUAGES
from ludoteca.web.i18n.templates import localized

OPEN, CLOSE = "⟦", "⟧"
SPOKEN = ("title", "alt", "aria-label", "placeholder", "aria-description", "aria-roledescription")
"""Attributes a browser shows (a tooltip) or a screen reader speaks."""
SHOWN_KEYS = frozenset(
    (
        "label",
        "summary",
        "note",
        "prompt",
        "move_help",
        "result_text",
        "result_you",
        "title",
        "error",
        "message",
        "caption",
        "to_move_label",
    )
)
"""Keys of the JSON a page's scripts read (its initial view, a refusal) whose strings they
show; ``svg`` values are drawings, read as markup."""
WORD = re.compile(r"[A-Za-z][a-z]{2,}")


FIELD = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[sdif]|%[sd])")
"""A message's fields (``{name}``, ``%(name)s``): what fills them is not the message's."""


def pseudo(message: str) -> str:
    """``message`` with each of its literal parts in brackets and its fields left outside,
    so that a field filled with untranslated words shows them unbracketed."""
    return "".join(
        part if FIELD.fullmatch(part) else f"{OPEN}{part}{CLOSE}"
        for part in FIELD.split(message)
        if part
    )


class PseudoTranslations(NullTranslations):
    """Every message "translated" into itself in brackets, fields kept as they are."""

    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, singular, plural, n):
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return pseudo(message)

    def npgettext(self, context, singular, plural, n):
        return pseudo(singular if n == 1 else plural)


PSEUDO = "fr"
"""The pseudo-locale's code: one the club does not speak, so that nothing it draws in
brackets (and keeps, as the stats keep their plots) reaches a page in a real language."""


@contextmanager
def pseudo_language() -> Iterator[str]:
    """Pages in language :data:`PSEUDO` speak the pseudo-locale while this lasts; its code is
    given. A template written whole in other languages (``help/help.html``) is shown in
    brackets as a whole: it is translated as a page, not by messages."""
    from ludoteca.web.kernel.requests import TEMPLATES

    LANGUAGES[PSEUDO] = f"{OPEN}pseudo{CLOSE}"
    language.cache_clear()
    object.__setattr__(language(PSEUDO), "translations", PseudoTranslations())
    scripts.script_messages.cache_clear()
    loader = TEMPLATES.env.loader
    wrapped: dict[str, str] = {}

    original = localized

    def whole(name: str, code: str) -> str:
        if code != PSEUDO or original(name, "de") == name:
            return original(name, code)
        wrapped[f"{OPEN}{name}"] = f'{OPEN}{{% include "{name}" %}}{CLOSE}'
        return f"{OPEN}{name}"

    TEMPLATES.env.loader = ChoiceLoader([DictLoader(wrapped), loader])  # type: ignore[list-item]
    holders = [
        m
        for m in list(sys.modules.values())
        if getattr(m, "localized", None) is original and m.__name__ != __name__
    ]
    for module in holders:
        module.localized = whole  # type: ignore[attr-defined]
    try:
        yield PSEUDO
    finally:
        for module in holders:
            module.localized = original  # type: ignore[attr-defined]
        TEMPLATES.env.loader = loader
        del LANGUAGES[PSEUDO]
        language.cache_clear()
        scripts.script_messages.cache_clear()


class _Reader(HTMLParser):
    """The texts of a page a person reads: text nodes outside scripts and styles, and the
    attributes in :data:`SPOKEN` (and the labels of buttons made of inputs). Text inside an
    element marked ``translate="no"`` is data shown as it was written (the log's own lines on
    the operator's page), not the page's words."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0
        self._json = False
        self._verbatim: list[str] = []
        """The tags open inside the outermost ``translate="no"`` element, itself first."""

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if self._verbatim or values.get("translate") == "no":
            if tag not in VOID:
                self._verbatim.append(tag)
            return
        if tag in ("script", "style", "textarea"):  # a textarea holds what a person writes
            self._skip += 1
            self._json = tag == "script" and values.get("id") == "initial-view"
        for name in SPOKEN:
            if values.get(name):
                self.texts.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.texts.append(values["value"])

    def handle_endtag(self, tag):
        if self._verbatim:
            if tag in self._verbatim:  # closes it and whatever was left open inside it
                del self._verbatim[len(self._verbatim) - 1 - self._verbatim[::-1].index(tag) :]
            return
        if tag in ("script", "style", "textarea") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if self._verbatim:
            return
        if self._json:
            self.texts.extend(shown_in_json(json.loads(data)))
            self._json = False
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
"""Elements without an end tag."""


def shown_in_json(value, key: str = "") -> list[str]:
    """The strings of a page's JSON its scripts show (:data:`SHOWN_KEYS`, drawings read)."""
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in shown_in_json(v, k)]
    if isinstance(value, list):
        return [t for v in value for t in shown_in_json(v, key)]
    if isinstance(value, str) and key == "svg":
        return reading(value)
    return [value] if isinstance(value, str) and key in SHOWN_KEYS and value.strip() else []


def reading(html: str) -> list[str]:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.texts


def outside_brackets(text: str) -> list[str]:
    """The pieces of ``text`` no translated message covers (innermost messages first: a
    message's field may hold another)."""
    group = re.compile(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        covered = group.sub("\x00", text)
        if covered == text:
            break
        text = covered
    return [p.strip() for p in text.split("\x00") if p.strip()]


@cache
def message_ids() -> tuple[str, ...]:
    """Every message id of the catalogs' template (plural forms each on their own)."""
    with (LOCALE_DIR / "messages.pot").open("rb") as f:
        catalog = read_po(f)
    out: list[str] = []
    for m in catalog:
        if m.id:
            out.extend(m.id if isinstance(m.id, tuple) else (m.id,))
    return tuple(out)


@cache
def english_words() -> frozenset[str]:
    """The words of the English message ids: a piece of text outside brackets made of any
    of them is English that no catalog translated."""
    return frozenset(w.lower() for m in message_ids() for w in WORD.findall(_literal(m)))


def _literal(message: str) -> str:
    return re.sub(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd]", " ", message)


def notation(text: str) -> bool:
    """Whether ``text`` is a game's notation, the same in every language: a position (its
    first word holds digits and slashes: ``6/6/6/6/6/ES4 setup``, ``1s4/3l2/… play land
    sea``), or mostly words with digits (``E@c3``, ``toss x``)."""
    words = text.split()
    if not words:
        return False
    if re.search(r"\d", words[0]) and "/" in words[0]:
        return True
    return 2 * sum(bool(re.search(r"[\d/]", w)) for w in words) >= len(words)


def untransformed(texts: list[str], allowed: set[str]) -> list[str]:
    """Pieces of ``texts`` (a page read in the pseudo-locale) made of English words no
    message covers: untranslated text. A message may hold markup (a link inside a
    sentence), so the page's texts are read as one. ``allowed``: names (of people, games),
    in lower case."""
    words = english_words()
    found = []
    for piece in outside_brackets("\n".join(texts)):
        for line in piece.splitlines():
            if notation(line):
                continue
            english = [w for w in WORD.findall(line) if w.lower() in words]
            if [w for w in english if w.lower() not in allowed]:
                found.append(line.strip())
    return found


@cache
def english_sentences(code: str) -> tuple[re.Pattern[str], dict[str, str], dict[str, str]]:
    """What shows an English message on a page in ``code``: a pattern of the literal parts
    (two words or more) of each message id that ``code`` does not translate as itself, with
    the message of each part, and the one-word messages (found only as a whole text)."""
    lang = language(code)
    parts: dict[str, str] = {}
    single: dict[str, str] = {}
    for message in message_ids():
        if lang.gettext(message) == message and _translated_as_itself(message, code):
            continue
        for part in re.split(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd]", message):
            part = part.strip(" .,:;!?()'\"-–·")
            if len(WORD.findall(part)) >= 2:
                parts.setdefault(part, message)
            elif (
                part == message.strip(" .:")
                and WORD.fullmatch(part)
                and part not in _translations(code)  # not also a word of the language
            ):
                single.setdefault(part, message)
    alternatives = "|".join(re.escape(p) for p in sorted(parts, key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z])(?:{alternatives})(?![A-Za-z])")
    return pattern, parts, single


@cache
def _translated_catalog(code: str) -> dict[str, object]:
    with (LOCALE_DIR / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    return {(m.id[0] if isinstance(m.id, tuple) else m.id): m.string for m in catalog if m.id}


@cache
def _translations(code: str) -> frozenset[str]:
    out: set[str] = set()
    for string in _translated_catalog(code).values():
        out.update(string if isinstance(string, tuple) else (string,))  # type: ignore[arg-type]
    return frozenset(out)


def _translated_as_itself(message: str, code: str) -> bool:
    """Whether the catalog translates ``message`` as itself on purpose (a name)."""
    string = _translated_catalog(code).get(message)
    strings = string if isinstance(string, tuple) else (string,)
    return bool(strings) and all(s == message for s in strings)


def english_left(texts: list[str], code: str) -> list[tuple[str, str]]:
    """(text, message id) for each text of a page in ``code`` showing an English message."""
    pattern, parts, single = english_sentences(code)
    found = []
    for text in texts:
        if text.strip(" .:") in single:
            found.append((text, single[text.strip(" .:")]))
        for match in pattern.finditer(text):
            found.append((text, parts[match.group(0)]))
    return found
