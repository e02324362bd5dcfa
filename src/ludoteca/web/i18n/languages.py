"""Which language a request is answered in.

A ``lang`` query parameter wins (the page's own scripts name their page's language when
they open a websocket, whose handshake need not carry the browser's headers); then a
signed-in member's setting; then the browser's choice made with the language menu (the
``lang`` cookie); then, on a first visit, the browser's ``Accept-Language``; else English.
The menu's choice is remembered both ways: in the cookie, and in the account of a member
who makes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

    from ludoteca.web.infra.store import User

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "ja": "日本語"}
"""Each language the club speaks, by its code, named in itself (as the menu shows it)."""

DEFAULT = "en"
LANG_COOKIE = "lang"
MAX_HEADER = 512
"""Longer ``Accept-Language`` headers are read only this far: no browser sends more."""


def supported(code: str | None) -> str | None:
    """The club's language for a tag such as ``de-CH`` or ``ja``, or ``None``."""
    if not code:
        return None
    primary = code.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The best of the club's languages in an ``Accept-Language`` header (RFC 9110: tags
    with optional ``q`` weights; ``q=0`` means "not this one"), or ``None``."""
    if not header:
        return None
    best: tuple[float, int, str] | None = None
    for order, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        lang = supported(tag)
        if lang is None or not 0 < weight <= 1:
            continue
        candidate = (weight, -order, lang)
        if best is None or candidate > best:
            best = candidate
    return best[2] if best else None


def choose(connection: HTTPConnection, user: User | None) -> str:
    """The language to answer ``connection`` in (see the module's text for the order)."""
    asked = supported(connection.query_params.get(LANG_COOKIE))
    if asked is not None:
        return asked
    if user is not None and supported(getattr(user, "language", None)):
        return user.language  # type: ignore[return-value]
    return (
        supported(connection.cookies.get(LANG_COOKIE))
        or from_accept_language(connection.headers.get("accept-language"))
        or DEFAULT
    )
