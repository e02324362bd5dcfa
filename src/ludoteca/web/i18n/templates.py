"""Translations in the page templates: ``{% trans %}`` blocks and ``_()`` calls.

The templates are shared by every request, so the gettext functions come with each page's
context (the reader's language) rather than installed once. They are "new style" (Jinja's
term): a translated text is escaped like any other output, and its ``%(name)s`` fields are
filled after translation, escaped too.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ludoteca.web.i18n import deferred
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.languages import LANGUAGES
from ludoteca.web.i18n.scripts import script_messages

TEMPLATES_DIR = Path(__file__).resolve().parents[1] / "templates"


def localized(name: str, code: str) -> str:
    """The template ``name`` written whole in language ``code`` (``help/de/help.html`` for
    ``help/help.html``), where long prose is translated as a page rather than by sentences;
    else ``name`` itself."""
    folder, _, file = name.rpartition("/")
    candidate = f"{folder}/{code}/{file}" if folder else f"{code}/{file}"
    return candidate if (TEMPLATES_DIR / candidate).is_file() else name


def install(env: Environment) -> None:
    """Give ``env`` the i18n extension, with English for templates drawn without a page."""
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    env.globals["LANGUAGES"] = LANGUAGES


def _fill(context: Context, text: str, fields: dict[str, Any]) -> str:
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % fields if fields else text


@cache
def page_context(lang: Language) -> Mapping[str, Any]:
    """What a page's context needs to speak ``lang``: made once per language (pages copy
    it into their context, never change it)."""

    @pass_context
    def gettext(context: Context, message: str, **fields: Any) -> str:
        return _fill(context, lang.gettext(message), fields)

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, n: int, **fields: Any) -> str:
        fields.setdefault("num", n)
        return _fill(context, lang.ngettext(singular, plural, n), fields)

    return {
        "lang": lang,
        "gettext": gettext,
        "_": gettext,
        "ngettext": ngettext,
        "tr": lang.text,
        "script_messages": script_messages(lang.code),
        "localized": lambda name: localized(name, lang.code),
        "stored_html": lambda html: deferred.localize(html, lang),
    }
