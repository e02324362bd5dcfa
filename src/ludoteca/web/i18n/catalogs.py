"""The compiled catalogs and what a page needs from them: gettext, plurals, dates, numbers.

Catalogs are compiled from the ``.po`` files in the repository by ``make catalogs``
(``pybabel compile``); a missing or stale ``.mo`` is an installation error, said at start-up
(:func:`check_compiled`), never a club that silently speaks English.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path

from babel.dates import format_date, format_datetime, format_time
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

from ludoteca.core.messages import Text
from ludoteca.web.i18n.languages import DEFAULT, LANGUAGES, supported

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"


def catalog_paths(lang: str) -> tuple[Path, Path]:
    """The ``.po`` source and the compiled ``.mo`` of ``lang``."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def check_compiled() -> None:
    """Refuse to start with a translation missing or older than its ``.po``."""
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        po, mo = catalog_paths(lang)
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            raise RuntimeError(
                f"The {LANGUAGES[lang]} catalog is not compiled or is older than {po}: "
                "run `make catalogs` (or `pybabel compile -d src/ludoteca/web/i18n/locale`)."
            )


@dataclass(frozen=True)
class Language:
    """One language's translations and formats."""

    code: str
    translations: NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def text(self, message: str | Text) -> str:
        """A :class:`~ludoteca.core.messages.Text` (or a plain message id) translated."""
        if isinstance(message, Text):
            return message.localize(self.gettext)
        return self.gettext(message)

    def date(self, moment: datetime, style: str = "medium") -> str:
        return format_date(moment, format=style, locale=self.code)

    def time(self, moment: datetime) -> str:
        return format_time(moment, format="short", locale=self.code)

    def datetime(self, moment: datetime, style: str = "medium") -> str:
        """Date and time (stored in UTC, shown in UTC and said so by the pages)."""
        return format_datetime(moment, format=style, locale=self.code)

    def number(self, value: float, digits: int = 0) -> str:
        return format_decimal(value, format=_digits(digits), locale=self.code)

    def percent(self, value: float, digits: int = 1) -> str:
        return format_percent(value, format=_digits(digits) + "%", locale=self.code)


def _digits(digits: int) -> str:
    """A number pattern with grouping and exactly ``digits`` decimals."""
    return "#,##0" + ("." + "0" * digits if digits else "")


def account_language(user: object) -> Language:
    """The language a member chose (their e-mails are written in it); English for a member
    who never chose, or no member."""
    return language(supported(getattr(user, "language", None)) or DEFAULT)


@cache
def language(code: str) -> Language:
    """The :class:`Language` for a code of :data:`LANGUAGES` (English for any other)."""
    if code not in LANGUAGES or code == DEFAULT:
        return Language(DEFAULT, NullTranslations())
    return Language(code, Translations.load(str(LOCALE_DIR), [code], DOMAIN))
