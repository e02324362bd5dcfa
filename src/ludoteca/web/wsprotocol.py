"""uvicorn's websocket protocol, except that a client that stopped reading, or goes on
sending after being told to stop, is cut off.

When the club drops a connection whose client has stopped reading (see
:mod:`ludoteca.web.outbox`), it cannot say goodbye: a closing frame would wait behind the data
the client does not take. uvicorn then closes the transport gracefully, which waits for its
buffers to drain, and a client that never reads keeps the socket and its buffers (the
kernel's hold megabytes) open for as long as it likes. This protocol aborts the transport
instead when the application is done with a connection whose writes are paused by the
transport's flow control, so the memory is freed and the client sees a reset.

After the club closes a connection (a flood of messages, say), uvicorn goes on reading and
parsing whatever the client sends until it answers the close, for up to ten seconds: a
client that keeps flooding then has the event loop parse millions of frames, and every
game on the server waits. This protocol takes at most :data:`AFTER_CLOSE_BYTES` after its
closing frame (what a well-behaved client may have had in flight) and then aborts.

``ludoteca serve`` runs uvicorn with it (``ws=WebSocketProtocol``); under another ASGI server
the club still drops such connections, only their sockets may linger.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

AFTER_CLOSE_BYTES = 64 * 1024
"""What a client may still send after the server's closing frame before it is cut off: a few
messages in flight (each at most 16 KiB), not a flood."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    _after_close = 0

    def data_received(self, data: bytes) -> None:
        if getattr(self, "close_sent", False):
            self._after_close += len(data)
            if self._after_close > AFTER_CLOSE_BYTES:
                self.transport.abort()  # told to stop, it goes on: read no more of it
                return
        super().data_received(data)

    async def run_asgi(self) -> None:
        await super().run_asgi()
        writable = getattr(self, "writable", None)
        transport = getattr(self, "transport", None)
        if writable is not None and not writable.is_set() and transport is not None:
            transport.abort()  # the client stopped reading: what it did not take is dropped
