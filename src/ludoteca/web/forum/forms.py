"""Reading the forum's forms: whole fields (a post is longer than the lobby's fields), the
CSRF check, and page numbers from the query string."""

from __future__ import annotations

from fastapi import Request

from ludoteca.web.infra.inputs import check_text
from ludoteca.web.requests import check_csrf
from ludoteca.web.round.errors import ClubError

MAX_PAGE = 100_000


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
