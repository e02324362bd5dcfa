"""The web club's own ASGI middleware and its refusals: request size limits, NUL characters
refused before routing, security headers, and a plain apology for an unexpected failure.

:func:`error_response` is how every refusal is answered (JSON for the API, the error page
otherwise); :mod:`ludoteca.web.app` wires these around the application.
"""

from __future__ import annotations

import html
import logging

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.datastructures import MutableHeaders

from ludoteca.core.messages import N_, Text
from ludoteca.web.accounts.service import ANON_COOKIE
from ludoteca.web.infra.inputs import NUL_REFUSED
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.requests import render, tr

log = logging.getLogger("ludoteca.web")
MAX_BODY = 64 * 1024
UNEXPECTED = N_("Something went wrong on the server; sorry.")
UNAVAILABLE = N_("The club's database is not answering just now; please try again in a moment.")
RETRY_UNAVAILABLE = 5
"""Seconds a client is asked to wait (``Retry-After``) while the database is unreachable:
a restart of PostgreSQL takes a few seconds."""
UNSTORABLE = N_("The request holds a value the club cannot store or look up.")
NO_PAGE = N_("There is no such page.")
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; "
    "base-uri 'none'"
)
"""Pages load everything from the club itself. ``form-action`` keeps an injected form from
posting (say, a password) elsewhere and ``base-uri`` an injected ``<base>`` from moving the
page's relative links and scripts: neither falls back to ``default-src``."""


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY`` bytes, declared or streamed."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > MAX_BODY
                except ValueError:
                    too_big = True
                if too_big:
                    response = PlainTextResponse("Request too large.", status_code=413)
                    return await response(scope, receive, send)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise ClubError("Request too large.", 413)
            return message

        return await self.app(scope, limited, send)


class RefuseNul:
    """Refuse a path or query string holding a NUL character (``%00``) before routing.

    No page is named with one and no parameter has a use for one, and PostgreSQL cannot
    compare text holding one, so a user name such as ``/users/a%00b`` used to fail in the
    database with a 500. A path with NUL names no page (404); a query with one is a bad
    request (400)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            query = scope.get("query_string", b"")
            if "\x00" in scope.get("path", ""):
                response = error_response(Request(scope), NO_PAGE, 404)
                return await response(scope, receive, send)
            if b"%00" in query or b"\x00" in query:
                response = error_response(Request(scope), NUL_REFUSED, 400)
                return await response(scope, receive, send)
        return await self.app(scope, receive, send)


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", ""
    )


def error_response(request: Request, message: str | Text, status: int):
    """The refusal, in the reader's language, as JSON for the API, else as the error page.
    When that page cannot be drawn (it asks the database who is logged in, and the database
    may be down) a bare page in English says it instead: escaped, since messages quote what
    the visitor typed."""
    headers = {"Retry-After": str(RETRY_UNAVAILABLE)} if status == 503 else None
    try:
        message = tr(request, message)
    except Exception:  # never fail while reporting a failure
        message = str(message)
    if wants_json(request):
        return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)
    try:
        response = render(request, "error.html", status=status, message=message)
    except Exception:  # never fail while reporting a failure
        response = HTMLResponse(f"<p>{html.escape(message)}</p>", status_code=status)
    if headers:
        response.headers.update(headers)
    return response


SECURITY_HEADERS = (
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("content-security-policy", CONTENT_SECURITY_POLICY),
)
HSTS = ("strict-transport-security", "max-age=31536000")
"""Sent on answers over HTTPS (directly, or behind a proxy uvicorn trusts to say so with
``X-Forwarded-Proto``): the browser then never tries plain HTTP for the club again, so no
one on the way can strip the TLS. Never over plain HTTP, where it would mean nothing and a
club served only that way must stay reachable. Subdomains are not included: the club may
share its domain with sites it does not run."""


class SecurityHeaders:
    """Add the security headers to every answer (unless a route set its own), and the
    visitor's cookie when a page made one (``request.state.new_anon``).

    A plain ASGI middleware: Starlette's ``@app.middleware("http")`` wraps every response
    in a stream between two tasks, which cost a busy club a sizeable share of each request."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    if name not in headers:
                        headers[name] = value
                if scope.get("scheme") == "https" and HSTS[0] not in headers:
                    headers[HSTS[0]] = HSTS[1]
                new_anon = scope.get("state", {}).get("new_anon")
                if new_anon and ANON_COOKIE not in Request(scope).cookies:
                    secure = "; Secure" if scope.get("scheme") == "https" else ""
                    headers.append(
                        "set-cookie",
                        f"{ANON_COOKIE}={new_anon}; HttpOnly; Path=/; SameSite=lax{secure}",
                    )
            await send(message)

        await self.app(scope, receive, sending)


class InternalErrors:
    """Answer an unexpected failure with a plain apology and log the details.

    Starlette's last-resort handler answers too, but then re-raises, and uvicorn closes the
    connection, so a client's next request on it fails; here the failure ends with the
    answer. A failure after the answer began can only be logged and the connection closed.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watched(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            if started:
                raise
            log.exception("unexpected error on %s", scope.get("path", "?"))
            response = error_response(Request(scope), UNEXPECTED, 500)
            await response(scope, receive, send)
