"""Structured logs with ``structlog``: one JSON object per line for machines, or a plain
line for a person at a terminal (``ludoteca serve --log-format``).

Every record (the club's own, and the standard-library loggers of uvicorn and SQLAlchemy)
goes through the same processors, so each carries the request id, the user id and the game
id bound for the request it belongs to (:class:`RequestContext`). An error's traceback is
written once, inside its record (``exception``), never as loose lines.

Nothing secret reaches a log: values under keys that name secrets (passwords, tokens,
cookies, session, authorization) are replaced, and e-mail addresses and ``key=value``
secrets inside any text (a message, a traceback, an SMTP server's refusal) are masked by
:func:`redact`.
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
import threading
import time
from datetime import UTC, datetime
from typing import Any

import orjson
import structlog
from structlog.contextvars import bind_contextvars, clear_contextvars, get_contextvars
from structlog.types import EventDict

FORMATS = ("json", "plain")
SECRET_KEYS = re.compile(r"pass|token|secret|cookie|session|authori[sz]ation|csrf|e-?mail", re.I)
EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")
SECRET_PAIR = re.compile(
    r"(?i)\b(password|passwd|token|secret|session|csrf|ludoteca_session|ludoteca_anon)"
    r"(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s&;,]+)"
)
URL_PASSWORD = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]+:)[^@/\s]+@", re.I)
SECRET_WORD = re.compile(r"(?i)pass|token|secret|session|csrf|ludoteca_anon")
"""A quick test that a text could hold a ``password=…``-like pair at all."""
MASK = "[redacted]"


def redact(text: str) -> str:
    """``text`` without e-mail addresses, ``password=…``-like pairs or URL passwords.

    Most texts hold neither an ``@`` nor a secret's name: those are returned after two quick
    tests, without the slower searches (this runs on every record's message)."""
    if "@" in text:
        text = URL_PASSWORD.sub(r"\1" + MASK + "@", text)
        text = EMAIL.sub("[e-mail]", text)
    if SECRET_WORD.search(text):
        text = SECRET_PAIR.sub(lambda m: m.group(1) + m.group(2) + MASK, text)
    return text


PLAIN_KEYS = frozenset(
    {"logger", "level", "timestamp", "request_id", "route", "method", "client", "status", "ms"}
)
"""Fields the club fills itself with values that cannot hold a secret: not searched."""


def _redact_event(_logger: Any, _name: str, event: EventDict) -> EventDict:
    for key, value in list(event.items()):
        if key in PLAIN_KEYS:
            continue
        if key in ("event", "exception"):
            if isinstance(value, str):
                event[key] = redact(value)
            continue
        if SECRET_KEYS.search(key):
            event[key] = MASK
        elif isinstance(value, str):
            event[key] = redact(value)
    return event


def _drop_color_message(_logger: Any, _name: str, event: EventDict) -> EventDict:
    event.pop("color_message", None)  # uvicorn's second copy of its message
    event.pop("message", None)  # another handler's formatter's copy (the event already says it)
    return event


def _json(event: EventDict, **_kw: Any) -> str:
    """One JSON line, rendered by ``orjson`` (several times faster than ``json``); values it
    does not know are written as their ``str``."""
    return orjson.dumps(event, default=str).decode()


class _AccessWriter:
    """Writes the access lines (one per request, one per closed websocket) straight to the
    configured stream, without the standard library's record and structlog's processor
    chain, which cost several times the line itself on every request. The fields are the
    club's own (route templates, numbers, addresses): nothing to redact. Shares the
    handler's lock, so its lines never interleave with the other records'."""

    def __init__(self, handler: logging.StreamHandler, fmt: str) -> None:
        self.handler = handler
        self.json = fmt == "json"

    def write(self, event: str, fields: dict[str, Any]) -> None:
        record = {
            **get_contextvars(),
            **fields,
            "event": event,
            "level": "info",
            "logger": access.name,
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        }
        if self.json:
            line = orjson.dumps(record, default=str).decode() + "\n"
        else:
            pairs = " ".join(
                f"{key}={value}"
                for key, value in record.items()
                if key not in ("event", "level", "timestamp") and value is not None
            )
            line = f"{record['timestamp']} [info     ] {event:<30} {pairs}\n"
        handler = self.handler
        with handler.lock or _NO_LOCK:
            handler.stream.write(line)
            handler.flush()


_NO_LOCK = threading.Lock()
_access_writer: _AccessWriter | None = None


def configure(fmt: str = "json", level: int = logging.INFO, stream=None) -> None:
    """Send every log record to ``stream`` (stderr) as JSON lines or plain lines."""
    global _access_writer
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}")
    shared: list = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _drop_color_message,
    ]
    if fmt == "json":
        final: list = [
            structlog.processors.format_exc_info,
            _redact_event,
            structlog.processors.JSONRenderer(serializer=_json),
        ]
    else:
        final = [
            structlog.processors.format_exc_info,
            _redact_event,
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=_plain_traceback),
        ]
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *final],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_ludoteca", False):
            root.removeHandler(old)
    handler._ludoteca = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    _access_writer = _AccessWriter(handler, fmt)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # a dozen lines at every start
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def _plain_traceback(sio, exc_info) -> None:
    structlog.dev.plain_traceback(sio, exc_info)


GAME_PATH = re.compile(r"^/(?:ws/|api/)?games/(\d+)")
access = logging.getLogger("ludoteca.access")


class RequestContext:
    """ASGI middleware: binds a request id (the balancer's ``X-Request-ID`` when it sends
    one, else a new one) and the game id of the path to every record logged while the
    request runs, and writes one ``request`` event per HTTP request with its route, status,
    time, user id and client address (as uvicorn believes it: behind a trusted proxy,
    its ``X-Forwarded-For``). ``quiet`` paths (the health checks) are never logged as traffic."""

    def __init__(self, app, quiet: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.quiet = quiet

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket") or scope.get("path") in self.quiet:
            return await self.app(scope, receive, send)
        request_id = _request_id(scope)
        clear_contextvars()
        bind_contextvars(request_id=request_id)
        match = GAME_PATH.match(scope.get("path", ""))
        if match:
            bind_contextvars(game_id=int(match.group(1)))
        started = time.perf_counter()
        if scope["type"] == "websocket":
            try:
                return await self.app(scope, receive, send)
            finally:
                if access.isEnabledFor(logging.INFO):
                    extra = {
                        "route": getattr(scope.get("route"), "path", None),
                        "seconds": round(time.perf_counter() - started, 1),
                        "client": (scope.get("client") or ("?",))[0],
                    }
                    _log_access("websocket closed", extra)
                clear_contextvars()
        status = 500

        async def sending(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if access.isEnabledFor(logging.INFO):
                user = scope.get("state", {}).get("user")
                extra = {
                    "method": scope.get("method"),
                    "route": getattr(scope.get("route"), "path", None),
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                    "user_id": getattr(user, "id", None),
                    "client": (scope.get("client") or ("?",))[0],
                }
                _log_access("request", extra)
            clear_contextvars()


def _log_access(event: str, fields: dict[str, Any]) -> None:
    """The access line: straight to the configured stream, or (logs not configured by
    :func:`configure`, as in tests) through the standard library like any record."""
    writer = _access_writer
    if writer is not None and writer.handler in logging.getLogger().handlers:
        writer.write(event, fields)
    else:
        access.info(event, extra=fields)


def _request_id(scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            given = value.decode("latin-1")
            if 0 < len(given) <= 64 and all(c.isalnum() or c in "-_." for c in given):
                return given
    return secrets.token_hex(8)


def bind_user(user_id: int | None) -> None:
    """Name the member a request or socket acts for in its later records."""
    if user_id is not None:
        bind_contextvars(user_id=user_id)
