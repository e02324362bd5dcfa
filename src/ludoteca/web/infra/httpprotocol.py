"""uvicorn's HTTP protocol (httptools), except that a request's head is bounded in size and
in time, for a server that faces clients directly.

Left to itself the parser took a 64 MB header line (20 unfinished 8 MB heads took the
server from 225 to 385 MB), and a client sending its head a byte at a time kept the
connection for ever (40 such still open after a minute). Here a head (request line and
headers) over :data:`MAX_HEAD_BYTES` is answered ``431`` and the connection closed, and a
connection whose head is not complete :data:`HEAD_SECONDS` after it began (or after the
connection opened, for the first) is closed. Bodies are not concerned: the club bounds them
itself (:class:`ludoteca.web.middleware.BodyLimit`), and a slow upload of a small form is no threat.

``ludoteca serve`` runs uvicorn with it (``http=HeadLimitedProtocol``); behind a reverse
proxy the proxy's own limits apply as well.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 32 * 1024
"""A request's head at most: browsers send 1 to 3 KB, and refuse cookies past 4 KB each."""
HEAD_SECONDS = 10.0
"""How long a client may take over one request's head (``ludoteca serve --header-timeout``)."""


class HeadLimitedProtocol(HttpToolsProtocol):
    head_seconds: float = HEAD_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_open = True  # the first request's head is awaited from the start
        self._head_bytes = 0
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._head_open and self.transport is not None and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._disarm()
                self._refuse(431, b"Request Header Fields Too Large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open = True
        self._head_bytes = 0
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._head_open = False
        self._disarm()
        super().on_headers_complete()

    # --- the head's clock -----------------------------------------------------------------
    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.head_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self._head_open and not self.transport.is_closing():
            self._refuse(408, b"Request Timeout")

    def _refuse(self, status: int, reason: bytes) -> None:
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s"
            % (status, reason, len(reason), reason)
        )
        self.transport.close()
