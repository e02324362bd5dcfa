"""Registering, logging in and out: the account pages and forms."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ludoteca.web.accounts.devices import DEVICE_COOKIE, DEVICE_DAYS
from ludoteca.web.accounts.service import SESSION_COOKIE, AccountError
from ludoteca.web.infra.store import User
from ludoteca.web.infra.throttle import TooManyAttempts, request_address
from ludoteca.web.kernel.forms import form_data, redirect
from ludoteca.web.kernel.requests import (
    check_csrf,
    club,
    language,
    render,
)

router = APIRouter()


@router.get("/register")
def register_page(request: Request):
    return render(request, "register.html", error=None, name="", next=_next(request))


@router.post("/register")
async def register(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    name, password = data.get("name", ""), data.get("password", "")
    nxt = safe_next(data.get("next", "/"))
    accounts = club(request).accounts
    try:
        if password != data.get("password2", password):
            raise AccountError("The two passwords differ.", "password2")
        address = request_address(request)
        # The language of the pages they registered on is theirs from now on: their
        # e-mails are in it before they ever touch the language menu.
        speaks = language(request).code
        user = await anyio.to_thread.run_sync(accounts.register, name, password, address, speaks)
    except AccountError as exc:
        return render(
            request, "register.html", status=400, error=exc.message, name=name[:32], next=nxt
        )
    except TooManyAttempts as exc:
        page = render(
            request, "register.html", status=429, error=exc.message, name=name[:32], next=nxt
        )
        return _too_many(page, exc)
    token = await anyio.to_thread.run_sync(accounts.open_session, user)
    # A newcomer who came to play a game goes on to it; one who came to the club, to the lobby.
    return _logged_in(request, user, token, nxt if nxt != "/" else "/?welcome=1")


@router.get("/login")
def login_page(request: Request):
    return render(
        request,
        "login.html",
        error=None,
        name="",
        next=_next(request),
        reset=request.query_params.get("reset") == "1",
    )


def safe_next(nxt: str) -> str:
    """Where to go after logging in or registering: a path of this club, never another site
    (``//host`` and ``/\\host`` are other sites to a browser)."""
    if nxt.startswith("/") and nxt[1:2] not in ("/", "\\") and len(nxt) <= 512:
        return nxt
    return "/"


def _next(request: Request) -> str:
    return safe_next(request.query_params.get("next", "/"))


@router.post("/login")
async def login(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    name = data.get("name", "")
    accounts = club(request).accounts
    password, address = data.get("password", ""), request_address(request)
    device = request.cookies.get(DEVICE_COOKIE)
    nxt = safe_next(data.get("next", "/"))
    try:
        user = await anyio.to_thread.run_sync(accounts.log_in, name, password, address, device)
    except AccountError as exc:
        return render(
            request, "login.html", status=400, error=exc.message, name=name[:32], next=nxt
        )
    except TooManyAttempts as exc:
        page = render(
            request, "login.html", status=429, error=exc.message, name=name[:32], next=nxt
        )
        return _too_many(page, exc)
    if user.language is None:  # a member from before languages were kept at registration
        await anyio.to_thread.run_sync(accounts.set_language, user.id, language(request).code)
    token = await anyio.to_thread.run_sync(accounts.open_session, user)
    return _logged_in(request, user, token, nxt)


def _too_many(response: Response, exc: TooManyAttempts) -> Response:
    """A refusal for reaching a limit says when to come back, also to programs."""
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _logged_in(request: Request, user: User, token: str, url: str) -> Response:
    """The session cookie, and the device cookie that trusts this browser with the account
    at its next log-in (:mod:`ludoteca.web.accounts.devices`)."""
    response = redirect(url)
    secure = request.url.scheme == "https"
    response.set_cookie(
        SESSION_COOKIE, token, max_age=30 * 24 * 3600, httponly=True, samesite="lax", secure=secure
    )
    response.set_cookie(
        DEVICE_COOKIE,
        club(request).accounts.trust_device(user, request.cookies.get(DEVICE_COOKIE)),
        max_age=DEVICE_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    return response


@router.post("/logout")
async def logout(request: Request):
    data = await form_data(request)
    check_csrf(request, data.get("csrf"))
    await anyio.to_thread.run_sync(
        club(request).accounts.close_session, request.cookies.get(SESSION_COOKIE)
    )
    response = redirect("/")
    response.delete_cookie(SESSION_COOKIE)
    return response
