"""Who is asking, and may they: the request helpers every route uses, as FastAPI
dependencies (``user: User = Depends(require_user)``) or plain calls, plus page rendering.

They reach the club through ``request.app.state.club`` and import nothing of the features,
so any feature's routes can use them without an import cycle."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates
from jinja2 import FileSystemBytecodeCache

from ludoteca.core.messages import Text
from ludoteca.web.accounts.service import ANON_COOKIE, SESSION_COOKIE, SESSION_USER
from ludoteca.web.i18n import templates as i18n_templates
from ludoteca.web.i18n.catalogs import Language
from ludoteca.web.i18n.catalogs import language as language_named
from ludoteca.web.i18n.languages import choose
from ludoteca.web.infra.store import User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.notify.service import BELL, unread
from ludoteca.web.ops.logs import bind_user

if TYPE_CHECKING:
    from ludoteca.web.club import Club

__all__ = [
    "TEMPLATES",
    "SignedIn",
    "Visitor",
    "back_to",
    "check_csrf",
    "club",
    "cookie_token",
    "csrf_token",
    "current_user",
    "in_transaction",
    "language",
    "mover",
    "render",
    "require_user",
    "tr",
    "unread_notifications",
    "warm_templates",
]

READS = frozenset({"GET", "HEAD"})
"""Requests that change nothing: they may go by a session read a moment ago."""
MEMBER_AND_BELL = SESSION_USER.add_columns(BELL)
"""A request's member and their bell's count, in one statement (see :func:`current_user`)."""

log = logging.getLogger("ludoteca.web")
TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent.parent / "templates"))
i18n_templates.install(TEMPLATES.env)
# The templates ship with the package and change only with it, when the server restarts:
# Jinja's default looked at each template file's time on every page (about 1% of a game page).
TEMPLATES.env.auto_reload = False
# Compiling the sixty templates took 1.4 s of a busy core, paid by the first visit to each
# page after every start: Jinja keeps their compiled form on disk (a folder of this user's
# in the temporary directory, each entry checked against its template's source), and
# :func:`warm_templates` loads them all once the server has started.
try:
    TEMPLATES.env.bytecode_cache = FileSystemBytecodeCache()
except (OSError, RuntimeError):  # no safe temporary folder (a locked-down service): compile
    log.warning("no folder for the compiled templates: each is compiled once a start")


def warm_templates() -> None:
    """Load every template once (from Jinja's cache on disk, or compiled into it), so that
    no page's first visit after a start waits for it. The server runs this in a thread of
    its own when it starts; a page asked before it is done loads its own as before."""
    env = TEMPLATES.env
    for name in env.list_templates(filter_func=lambda n: n.endswith(".html")):
        try:
            env.get_template(name)
        except Exception:  # a template that does not compile fails on its page, as before
            log.exception("template %s could not be loaded", name)


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
    """The member whose session the request's cookie names, read once per request, with
    their bell's count (``request.state.unread``) in the same statement: every page shows
    it, and two reads were two round trips to the database.

    A request that changes nothing (``GET``, ``HEAD``) may go by a read of the session made
    for an earlier request a moment ago (:mod:`ludoteca.web.accounts.session_cache`); the
    bell's count is then read when a page shows it."""
    return _member(request, request.method in READS)


def mover(request: Request) -> User:
    """The signed-in member sending a move (else 401), who may be known from a read of their
    session a moment ago: the move's claim on its game checks that the session is still
    open in the same statement (``Playing.submit``'s ``session``)."""
    user = _member(request, True)
    if user is None:
        raise ClubError("Please log in first.", 401)
    return user


def _member(request: Request, recent: bool) -> User | None:
    if not hasattr(request.state, "user"):
        accounts = club(request).accounts
        token = request.cookies.get(SESSION_COOKIE)
        user = accounts.cached_session_user(token) if recent and token else None
        if user is not None:
            request.state.user, request.state.unread = user, None
        else:
            found = accounts.session_user_with(token, MEMBER_AND_BELL)
            request.state.user, request.state.unread = (
                (found[0], found[1].unread) if found else (None, None)
            )
        if request.state.user is not None:
            bind_user(request.state.user.id)  # the member's id in later log records
    return request.state.user


def language(request: Request) -> Language:
    """The language this request is answered in (:mod:`ludoteca.web.i18n.languages`)."""
    if not hasattr(request.state, "language"):
        request.state.language = language_named(choose(request, current_user(request)))
    return request.state.language


def tr(request: Request, message: str | Text) -> str:
    """``message`` (a message id or a :class:`~ludoteca.core.messages.Text`) in the
    request's language."""
    return language(request).text(message)


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


def unread_notifications(request: Request, user: User) -> int:
    """The bell's count for ``user``'s page: read with their session, when it is theirs."""
    if getattr(request.state, "user", None) is user and request.state.unread is not None:
        return request.state.unread
    with club(request).store.read_connection() as conn:
        return unread(conn, user.id)


def render(request: Request, template: str, status: int = 200, **context: Any):
    context.setdefault("user", current_user(request))
    context.setdefault("csrf", csrf_token(request))
    for key, value in i18n_templates.page_context(language(request)).items():
        context.setdefault(key, value)
    if context["user"] is not None and "unread_count" not in context:
        context["unread_count"] = unread_notifications(request, context["user"])
    return TEMPLATES.TemplateResponse(request, template, context, status_code=status)


def back_to(data: dict[str, str], default: str) -> str:
    """The page a form asked to return to (its ``next`` field), if it is a path of this
    site; else ``default``. ``//host`` and backslashes (which browsers read as ``/``) would
    send the person to another site."""
    target = data.get("next", "")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target


def in_transaction(request: Request, work):
    """Run ``work(db)`` in one transaction (committed if it returns), in a worker thread:
    what a form or JSON request that writes does."""

    def run():
        with club(request).store.session() as db:
            out = work(db)
            db.commit()
            return out

    return anyio.to_thread.run_sync(run)


Visitor = Annotated[User | None, Depends(current_user)]
"""A route parameter: the signed-in user asking, or ``None``."""

SignedIn = Annotated[User, Depends(require_user)]
"""A route parameter: the signed-in user asking; anyone else is refused (401)."""
