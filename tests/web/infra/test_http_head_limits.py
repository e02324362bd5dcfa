"""``ludoteca serve`` facing clients directly bounds a request's head (issue 43, finding 13):
a huge header is refused with 431 and the connection closed, a client sending its head
slowly is cut off after ``--header-timeout``, and ordinary requests pass. Raw sockets on
loopback, as an attacker would."""

from __future__ import annotations

import contextlib
import socket
import time

import httpx

from tests.web.infra.test_serve import serve, stop


def answer(sock: socket.socket, seconds: float) -> bytes:
    """What the server sends until it closes the connection, or ``seconds`` pass."""
    sock.settimeout(0.2)
    out = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return out + b"<reset>"
        if not chunk:
            return out + b"<closed>"
        out += chunk
    return out


def test_huge_and_slow_heads_are_cut_off(tmp_path):
    proc, port = serve(
        tmp_path, "--database", f"sqlite:///{tmp_path / 'club.sqlite3'}", "--header-timeout", "1"
    )
    try:
        huge = socket.create_connection(("127.0.0.1", port))
        huge.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        try:
            for _ in range(64):  # up to 4 MB of one header, never finished
                huge.sendall(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass
        got = answer(huge, 5)
        assert got.startswith(b"HTTP/1.1 431") and got.endswith((b"<closed>", b"<reset>")), got[:80]
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        began = time.monotonic()
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        for _ in range(4):  # a header byte every half second: never done
            time.sleep(0.5)
            for s in slow:
                with contextlib.suppress(OSError):
                    s.sendall(b"X")
        for s in slow:
            assert answer(s, 3).endswith((b"<closed>", b"<reset>"))
        assert time.monotonic() - began < 8
        # and an ordinary visitor is served, twice on one connection
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            assert client.get("/rules").status_code == 200
            assert client.get("/", headers={"X-Fine": "b" * 2000}).status_code == 200
    finally:
        stop(proc)
