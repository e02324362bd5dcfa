"""Changing a password (signed in, with the present one) and resetting a forgotten one by
e-mail, to the address the member has confirmed (:mod:`ludoteca.web.notify.routes`).

A reset link is signed, lasts :data:`~ludoteca.web.notify.links.RESET_MINUTES` and works
once (it names the password it replaces). The request page answers the same whether or not
the name exists or has an address, so it tells no one who is a member; the e-mails are
limited per account and per address (:func:`ludoteca.web.notify.service.queue_account_mail`).
Either way of setting a password closes the account's other sessions.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from sqlalchemy import select

from ludoteca.core.messages import Text
from ludoteca.web.accounts.service import SESSION_COOKIE, AccountError
from ludoteca.web.infra.store import User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import SignedIn, club, current_user, render
from ludoteca.web.notify import links
from ludoteca.web.notify.models import NotificationPrefs
from ludoteca.web.notify.service import queue_account_mail

router = APIRouter()


@router.get("/settings/password")
def password_page(request: Request):
    if current_user(request) is None:
        return RedirectResponse("/login?next=/settings/password", status_code=303)
    return render(
        request, "password.html", error=None, saved=request.query_params.get("saved") == "1"
    )


@router.post("/settings/password")
async def change_password(request: Request, user: SignedIn):
    data = await form(request)  # checks the CSRF token
    old, new = data.get("old", ""), data.get("password", "")
    accounts = club(request).accounts
    try:
        if new != data.get("password2", ""):
            raise AccountError("The two passwords differ.", "password2")
        token = request.cookies.get(SESSION_COOKIE)
        await anyio.to_thread.run_sync(accounts.change_password, user, old, new, token)
    except AccountError as exc:
        return render(request, "password.html", status=400, error=exc.message, saved=False)
    return RedirectResponse("/settings/password?saved=1", status_code=303)


@router.get("/password/forgot")
def forgot_page(request: Request):
    return render(
        request,
        "password_forgot.html",
        sent=request.query_params.get("sent") == "1",
        mail=club(request).mailer is not None,
    )


@router.post("/password/forgot")
async def forgot(request: Request):
    data = await form(request)  # checks the CSRF token
    name = data.get("name", "").strip()[:64].lower()
    the_club = club(request)
    if the_club.mailer is None:
        raise ClubError("This club sends no e-mail (no SMTP server is configured).", 409)
    secret = the_club.accounts.secret

    def work() -> None:
        with the_club.store.session() as db:
            user = db.scalar(select(User).where(User.name_key == name))
            prefs = db.get(NotificationPrefs, user.id) if user is not None else None
            if user is None or prefs is None or not prefs.email or not prefs.email_confirmed:
                return  # the same answer: the page tells no one who has an address
            token = links.reset_token(secret, user.id, user.password_hash)
            queue_account_mail(
                db,
                user,
                prefs.email,
                "reset",
                Text("Reset your password"),
                Text(
                    "Someone, probably you, asked to reset the password of {name} on "
                    "ludoteca. Open this link within an hour to choose a new one; if it was "
                    "not you, ignore this e-mail: your password stays as it is.",
                    {"name": user.name},
                ),
                f"/password/reset/{token}",
            )
            db.commit()

    await anyio.to_thread.run_sync(work)
    return RedirectResponse("/password/forgot?sent=1", status_code=303)


def _reset_user(request: Request, token: str) -> User:
    """The account a reset link is for, while the link still works."""
    try:
        user_id, mark = links.read_reset(club(request).accounts.secret, token)
    except links.LinkRefused as exc:
        if exc.expired:
            raise ClubError("That link is too old. Ask for a new one.", 410) from None
        raise ClubError("That link is not valid.", 404) from None
    with club(request).store.reading() as db:
        user = db.get(User, user_id)
    if user is None or links.password_mark(user.password_hash) != mark:
        raise ClubError("That link has been used already. Ask for a new one.", 410)
    return user


@router.get("/password/reset/{token}")
def reset_page(token: str, request: Request):
    user = _reset_user(request, token)
    return render(request, "password_reset.html", error=None, name=user.name)


@router.post("/password/reset/{token}")
async def reset(token: str, request: Request):
    data = await form(request)  # checks the CSRF token
    user = _reset_user(request, token)
    new = data.get("password", "")
    try:
        if new != data.get("password2", ""):
            raise AccountError("The two passwords differ.", "password2")
        await anyio.to_thread.run_sync(club(request).accounts.set_password, user.id, new, None)
    except AccountError as exc:
        return render(request, "password_reset.html", status=400, error=exc.message, name=user.name)
    return RedirectResponse("/login?reset=1", status_code=303)
