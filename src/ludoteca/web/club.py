"""The club object every route reaches through ``request.app.state.club``: storage,
accounts, the game service, the live hub and the bot pool, plus the request helpers that
tell who is asking and check their CSRF token."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates

from ludoteca.web.accounts.service import ANON_COOKIE, SESSION_COOKIE, Accounts
from ludoteca.web.infra.store import Store, User
from ludoteca.web.round.service import ClubError, GameService
from ludoteca.web.round.socket import Hub

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))


@dataclass
class Club:
    store: Store
    accounts: Accounts
    games: GameService
    hub: Hub
    bot_pool_kind: str = "process"
    bot_delay: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def club(request: Request) -> Club:
    return request.app.state.club


def cookie_token(request: Request) -> str:
    """The token CSRF tokens are derived from: the session's, else the visitor's anon one."""
    user = current_user(request)
    if user is not None:
        return request.cookies[SESSION_COOKIE]
    token = request.cookies.get(ANON_COOKIE) or getattr(request.state, "new_anon", None)
    if not token or len(token) > 128:
        token = secrets.token_urlsafe(24)
        request.state.new_anon = token
    return token


def current_user(request: Request) -> User | None:
    if not hasattr(request.state, "user"):
        request.state.user = club(request).accounts.session_user(
            request.cookies.get(SESSION_COOKIE)
        )
    return request.state.user


def require_user(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise ClubError("Please log in first.", 401)
    return user


def csrf_token(request: Request) -> str:
    return club(request).accounts.csrf_token(cookie_token(request))


def check_csrf(request: Request, supplied: object) -> None:
    if not club(request).accounts.csrf_ok(cookie_token(request), supplied):
        raise ClubError(
            "The form's security token is missing or out of date (CSRF check). "
            "Reload the page and try again.",
            403,
        )


def render(request: Request, template: str, status: int = 200, **context: Any):
    context.setdefault("user", current_user(request))
    context.setdefault("csrf", csrf_token(request))
    return TEMPLATES.TemplateResponse(request, template, context, status_code=status)
