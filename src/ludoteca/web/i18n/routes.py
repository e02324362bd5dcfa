"""``POST /language``: the language menu on every page."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from sqlalchemy import update

from ludoteca.web.i18n.languages import LANG_COOKIE, supported
from ludoteca.web.infra.store import User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import back_to, club, current_user, in_transaction

router = APIRouter()

YEAR = 365 * 24 * 3600


@router.post("/language")
async def choose_language(request: Request):
    """Remember the chosen language in this browser and, for a member, in the account (so
    it follows them to other browsers and into their e-mails)."""
    data = await form(request)
    lang = supported(data.get("lang"))
    if lang is None:
        raise ClubError("There is no such language here.")
    user = current_user(request)
    if user is not None:
        await in_transaction(
            request,
            lambda db: db.execute(update(User).where(User.id == user.id).values(language=lang)),
        )
        club(request).accounts.forget_user(user.id)  # its pages speak the new language now
    response = RedirectResponse(back_to(data, "/"), status_code=303)
    response.set_cookie(LANG_COOKIE, lang, max_age=YEAR, samesite="lax", httponly=True)
    return response
