"""uvicorn's websocket protocol, except that a client that stopped reading, or goes on
sending after being told to stop, is cut off.

When the club drops a connection whose client has stopped reading (see
:mod:`ludoteca.web.infra.outbox`), it cannot say goodbye: a closing frame would wait behind the data
the client does not take. uvicorn then closes the transport gracefully, which waits for its
buffers to drain, and a client that never reads keeps the socket and its buffers (the
kernel's hold megabytes) open for as long as it likes. This protocol aborts the transport
instead when the application is done with a connection whose writes are paused by the
transport's flow control, so the memory is freed and the client sees a reset.

After the club closes a connection (a flood of messages, say), uvicorn goes on reading and
parsing whatever the client sends until it answers the close, for up to ten seconds: a
client that keeps flooding then has the event loop parse millions of frames, and every
game on the server waits. This protocol takes at most :data:`AFTER_CLOSE_BYTES` after its
closing frame (what a well-behaved client may have had in flight) and then aborts, and it
cuts off a client with :data:`MAX_UNREAD` messages waiting to be read by the club.

The kernel's send buffer of a websocket is bounded to :data:`SEND_BUFFER_BYTES`: left to
itself Linux grows it to 4 MiB for a client that does not read, so a few hundred such
clients would hold gigabytes of the server's memory; a bounded buffer also makes a stalled
client show itself (and be dropped) after a few views instead of hundreds.

``ludoteca serve`` runs uvicorn with it (``ws=WebSocketProtocol``); under another ASGI server
the club still drops such connections, only their sockets may linger.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from asyncio import BaseTransport
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

AFTER_CLOSE_BYTES = 64 * 1024
"""What a client may still send after the server's closing frame before it is cut off: a few
messages in flight (each at most 16 KiB), not a flood."""


SEND_BUFFER_BYTES = 256 * 1024
"""The kernel's send buffer for one websocket: several of the largest views (some 50 KB),
and at a 100 ms round trip still 2.5 MB a second, far more than a game needs."""
SLICE_BYTES = 16 * 1024
MAX_UNREAD = 100
"""Messages received but not yet taken by the club after which a connection is cut off. The
club takes a message as soon as it has answered the one before, and a page sends a few a
minute; a client that sends a hundred in one burst is flooding. uvicorn parses everything
one read from the network brings (up to 256 KiB: some 12,000 small frames, a tenth of a
second during which every game waits), so data is parsed in slices of
:data:`SLICE_BYTES` and parsing stops there."""


COMPRESS_LEVEL = 1
"""zlib's fastest level for the views sent to pages (uvicorn leaves zlib's default, 6).
A view is mostly the board's SVG, which repeats itself: level 1 compresses a 15 KB view to
3.3 KB instead of 2.8 KB in half the time, and every move sends one view to each watcher
from the one thread all of a process's games share."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    _after_close = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # the same offer, with the fastest level
            self.conn = ServerProtocol(
                extensions=[
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": COMPRESS_LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def connection_made(self, transport: BaseTransport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):  # Linux doubles it for its own bookkeeping
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES // 2)
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if getattr(self, "close_sent", False):
            self._after_close += len(data)
            if self._after_close > AFTER_CLOSE_BYTES:
                self.transport.abort()  # told to stop, it goes on: read no more of it
                return
        queue = getattr(self, "queue", None)
        for start in range(0, len(data), SLICE_BYTES):
            super().data_received(data[start : start + SLICE_BYTES])
            if queue is not None and queue.qsize() > MAX_UNREAD:
                self.transport.abort()  # a flood: parse no more of it
                return

    async def run_asgi(self) -> None:
        await super().run_asgi()
        writable = getattr(self, "writable", None)
        transport = getattr(self, "transport", None)
        if writable is not None and not writable.is_set() and transport is not None:
            transport.abort()  # the client stopped reading: what it did not take is dropped
