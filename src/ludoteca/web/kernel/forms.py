"""Reading forms: their text fields with the CSRF check, and page numbers from the query
string. Every feature's forms come through here."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import RedirectResponse

from ludoteca.web.infra.inputs import check_text
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.requests import check_csrf

MAX_PAGE = 100_000
MAX_FIELD = 256
"""The longest field most forms take (the kept text is cut at four times this)."""


async def form(request: Request) -> dict[str, str]:
    """The form's text fields, NUL refused, after its CSRF token is checked."""
    data: dict[str, str] = {}
    for key, value in (await request.form()).multi_items():
        if isinstance(value, str) and len(key) <= 64:
            data[key] = check_text(value)
    check_csrf(request, data.get("csrf"))
    return data


def page_number(request: Request) -> int:
    """``?page=N`` (1 when absent); anything but a page number is a page that does not
    exist."""
    text = request.query_params.get("page", "1")
    if not text.isascii() or not text.isdigit() or not 1 <= int(text[:7]) <= MAX_PAGE:
        raise ClubError("There is no such page.", 404)
    return int(text)


async def form_data(request: Request) -> dict[str, str]:
    """A short form's text fields, NUL refused, each cut to a few times :data:`MAX_FIELD`
    (the caller checks the CSRF token and each field's own limit)."""
    fields = await request.form()
    data: dict[str, str] = {}
    for key, value in fields.multi_items():
        if isinstance(value, str) and len(key) <= 64:
            check_text(key + value)  # the database could not store a NUL
            data[key] = value[: MAX_FIELD * 4]
    return data


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def login_to(path: str) -> RedirectResponse:
    """The log-in page, coming back to ``path`` (with its query) afterwards."""
    return redirect("/login?" + urlencode({"next": path}))
