"""Abusive websocket clients of the web club, for ``bench/abuse.py`` and the robustness tests.

Each is what a hostile or broken client does to a game's websocket (``/ws/games/{pk}``),
written on a plain socket so that it can misbehave in ways a websocket library would not:

- :class:`NeverReader` opens the socket as a visitor, keeps its receive buffer tiny and never
  reads, while sending pings (or refreshes) as often as the club lets any client send, so
  that the server's answers pile up behind the views it cannot deliver;
- :class:`Flooder` sends messages as fast as it can, and opens a new connection each time
  the club closes one;
- :class:`BigSender` announces one message of ``size`` bytes (100 MB by default) and streams
  it, to see how much the club takes before it cuts the connection.

Each runs in a thread of its own until :meth:`stop` or its ``seconds`` run out, and only ever
talks to a loopback address (127.x.y.z). Frames are masked with the all-zero key, which the
protocol allows, so that sending costs no copying.
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import json
import os
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

REFRESH = json.dumps({"type": "refresh"})
PING = json.dumps({"type": "ping"})


def loopback_only(host: str) -> str:
    """``host`` if it is a loopback address; these clients attack nothing else."""
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"{host} is not a loopback address")
    return host


def frame_header(length: int, opcode: int = 0x1, fin: bool = True) -> bytes:
    """A client frame's header for ``length`` bytes of payload, masked with the zero key."""
    first = (0x80 if fin else 0) | opcode
    if length < 126:
        head = struct.pack("!BB", first, 0x80 | length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", first, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, length)
    return head + b"\0\0\0\0"


def text_frame(text: str) -> bytes:
    data = text.encode()
    return frame_header(len(data)) + data


class HandshakeRefused(ConnectionError):
    """The server answered the websocket handshake with an HTTP refusal."""


def open_socket(
    host: str,
    port: int,
    path: str,
    *,
    source: str | None = None,
    rcvbuf: int | None = None,
    cookie: str | None = None,
    timeout: float = 10.0,
) -> socket.socket:
    """A websocket connection after its handshake, as a plain blocking socket. ``rcvbuf``
    sets the receive buffer before connecting (so the window the server sees is small)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source is not None:
            sock.bind((loopback_only(source), 0))
        sock.settimeout(timeout)
        sock.connect((loopback_only(host), port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(1)  # byte by byte: leave the first frames unread
            if not chunk:
                raise ConnectionError("the server closed the connection during the handshake")
            answer += chunk
        if not answer.startswith(b"HTTP/1.1 101"):
            raise HandshakeRefused(f"handshake refused: {answer.splitlines()[0]!r}")
        return sock
    except BaseException:
        sock.close()
        raise


def closed_by_server(sock: socket.socket, seconds: float) -> bool:
    """Read everything ``sock`` holds: True if the server closed (or reset) it within
    ``seconds``, False if it is still open then."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(1 << 20):
                return True
        except TimeoutError:
            return False
        except OSError:  # reset
            return True
    return False


@dataclass
class Abuser:
    """A misbehaving client in its own thread. Subclasses implement :meth:`_run`."""

    host: str
    port: int
    pk: int
    source: str | None = None
    seconds: float = 60.0
    errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def path(self) -> str:
        return f"/ws/games/{self.pk}"

    def start(self) -> Abuser:
        self._thread = threading.Thread(target=self._guarded, daemon=True, name=type(self).__name__)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(15)

    def _guarded(self) -> None:
        deadline = time.monotonic() + self.seconds
        try:
            self._run(deadline)
        except Exception as exc:  # reported, never raised in the thread
            self.errors.append(repr(exc))

    def _running(self, deadline: float) -> bool:
        return not self._stop.is_set() and time.monotonic() < deadline

    def _run(self, deadline: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass
class NeverReader(Abuser):
    """A visitor watching the game who never reads and sends ``message`` (a ping) all the
    while, ``per_second`` times a second."""

    per_second: float = 19.0
    message: str = PING
    rcvbuf: int = 4096
    sock: socket.socket | None = None
    refused_at: float | None = None
    """When the server stopped taking its messages (its socket's send blocked), if it did."""
    dropped_at: float | None = None
    """When a send failed because the server had cut the connection, if it did."""

    def open(self) -> NeverReader:
        self.sock = open_socket(
            self.host, self.port, self.path, source=self.source, rcvbuf=self.rcvbuf
        )
        return self

    def _run(self, deadline: float) -> None:
        if self.sock is None:
            self.open()
        sock = self.sock
        assert sock is not None
        message = text_frame(self.message)
        pause = 1.0 / self.per_second if self.per_second > 0 else 0.5
        while self._running(deadline):
            if self.per_second > 0:
                sock.settimeout(1.0)
                try:
                    sock.sendall(message)
                except TimeoutError:  # the server no longer reads us
                    if self.refused_at is None:
                        self.refused_at = time.monotonic()
                except OSError:
                    self.dropped_at = time.monotonic()  # cut off by the server
                    return
            self._stop.wait(pause)

    def dropped(self, seconds: float) -> bool:
        """Whether the server has closed this connection (reads what it holds to see)."""
        assert self.sock is not None
        return closed_by_server(self.sock, seconds)

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()


@dataclass
class Flooder(Abuser):
    """Sends pings as fast as it can; reconnects whenever the club closes the connection."""

    connections: int = 0
    sent: int = 0
    closed: int = 0
    refused: int = 0
    """Connections refused at the handshake."""

    def _run(self, deadline: float) -> None:
        ping = text_frame(json.dumps({"type": "ping"})) * 64
        while self._running(deadline):
            try:
                sock = open_socket(self.host, self.port, self.path, source=self.source)
            except HandshakeRefused:  # it flooded before: refused for a while
                self.refused += 1
                self._stop.wait(0.2)
                continue
            except OSError as exc:
                self.errors.append(f"connect: {exc!r}")
                self._stop.wait(0.2)
                continue
            self.connections += 1
            try:
                sock.settimeout(2.0)
                while self._running(deadline):
                    sock.sendall(ping)
                    self.sent += 64
            except OSError:
                self.closed += 1
            finally:
                sock.close()
            self._stop.wait(0.05)


@dataclass
class BigSender(Abuser):
    """Announces one message of ``size`` bytes and streams it; records how far it got."""

    size: int = 100 * 1024 * 1024
    chunk: int = 256 * 1024
    accepted: int = 0
    """Payload bytes the kernel took before the server cut the connection."""
    cut_after: float | None = None
    """Seconds from the first byte to the server cutting the connection (None: it took all)."""

    def _run(self, deadline: float) -> None:
        sock = open_socket(self.host, self.port, self.path, source=self.source)
        started = time.monotonic()
        payload = b"x" * self.chunk
        try:
            sock.settimeout(5.0)
            sock.sendall(frame_header(self.size))
            while self.accepted < self.size and self._running(deadline):
                part = payload[: min(self.chunk, self.size - self.accepted)]
                sock.sendall(part)
                self.accepted += len(part)
        except OSError:
            self.cut_after = time.monotonic() - started
        finally:
            sock.close()


@dataclass
class Refresher(Abuser):
    """``sockets`` connections from one address, each asking for a refresh
    ``refreshes_per_second`` times a second and reading what comes back: the refresh flood
    of a script (or of fifty pages left open) against the club's reads of the game."""

    sockets: int = 50
    refreshes_per_second: float = 19.0
    connected: int = 0
    views: int = 0
    refused: int = 0
    _buffers: dict[int, bytearray] = field(default_factory=dict, repr=False)

    def _run(self, deadline: float) -> None:
        import selectors

        socks = []
        try:
            for _ in range(self.sockets):
                try:
                    socks.append(open_socket(self.host, self.port, self.path, source=self.source))
                except OSError as exc:
                    self.errors.append(f"connect: {exc!r}")
                    break
            self.connected = len(socks)
            selector = selectors.DefaultSelector()
            for sock in socks:
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
                self._buffers[sock.fileno()] = bytearray()
            message = text_frame(REFRESH)
            pause = 1.0 / self.refreshes_per_second
            next_round = time.monotonic()
            while self._running(deadline) and socks:
                if time.monotonic() >= next_round:
                    next_round += pause
                    for sock in list(socks):
                        try:
                            sock.send(message)
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError:
                            socks.remove(sock)
                            selector.unregister(sock)
                timeout = max(0.0, min(next_round - time.monotonic(), 0.05))
                for key, _ in selector.select(timeout):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    try:
                        data = sock.recv(1 << 16)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:
                        data = b""
                    if not data:
                        socks.remove(sock)
                        selector.unregister(sock)
                        continue
                    self._count(sock.fileno(), data)
        finally:
            for sock in socks:
                sock.close()

    def _count(self, fd: int, data: bytes) -> None:
        """Count the server's frames in ``data``: views, and refusals (errors)."""
        buffer = self._buffers[fd]
        buffer += data
        while len(buffer) >= 2:
            length = buffer[1] & 0x7F
            start = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = struct.unpack("!H", buffer[2:4])[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = struct.unpack("!Q", buffer[2:10])[0], 10
            if len(buffer) < start + length:
                return
            head = bytes(buffer[start : start + 24])
            if b'"state"' in head:
                self.views += 1
            elif b'"error"' in head:
                self.refused += 1
            del buffer[: start + length]


def run_abusers(
    host: str, port: int, pks: list[int], plan: dict[str, int], seconds: float, results
) -> None:
    """Run the abusive clients of ``plan`` against the games ``pks`` for ``seconds`` and put a
    summary in the queue ``results`` (``bench/abuse.py`` runs this in a process of its own,
    so that the abusers do not slow the honest players' client). Each kind of client comes
    from loopback addresses of its own, 127.200.k.n, apart from the honest players'."""
    abusers: dict[str, list[Abuser]] = {kind: [] for kind in plan}
    makers = {
        "never_readers": lambda pk, src: NeverReader(host, port, pk, src, seconds + 5),
        "flooders": lambda pk, src: Flooder(host, port, pk, src, seconds + 5),
        "big_senders": lambda pk, src: BigSender(host, port, pk, src, seconds + 5),
        "refreshers": lambda pk, src: Refresher(host, port, pk, src, seconds + 5),
    }
    started = time.monotonic()
    for k, (kind, count) in enumerate(sorted(plan.items())):
        for n in range(count):
            abuser = makers[kind](pks[n % len(pks)], f"127.200.{k}.{n + 1}")
            if isinstance(abuser, NeverReader):
                try:
                    abuser.open()
                except OSError as exc:
                    abuser.errors.append(repr(exc))
                    continue
            abusers[kind].append(abuser.start())
    time.sleep(max(0.0, seconds - (time.monotonic() - started)))
    for group in abusers.values():
        for abuser in group:
            abuser.stop()
            if isinstance(abuser, NeverReader):
                abuser.close()
    results.put(summarize(abusers, started))


def summarize(abusers: dict[str, list[Abuser]], started: float) -> dict:
    """What became of each kind of abusive client."""
    out: dict[str, dict] = {}
    never = [a for a in abusers.get("never_readers", []) if isinstance(a, NeverReader)]
    if never:
        dropped = [a.dropped_at - started for a in never if a.dropped_at is not None]
        out["never_readers"] = {
            "count": len(never),
            "dropped": len(dropped),
            "dropped_after_s": round(max(dropped), 1) if dropped else None,
        }
    flooders = [a for a in abusers.get("flooders", []) if isinstance(a, Flooder)]
    if flooders:
        out["flooders"] = {
            "count": len(flooders),
            "connections": sum(a.connections for a in flooders),
            "closed_by_server": sum(a.closed for a in flooders),
            "refused_at_handshake": sum(a.refused for a in flooders),
            "messages_sent": sum(a.sent for a in flooders),
        }
    big = [a for a in abusers.get("big_senders", []) if isinstance(a, BigSender)]
    if big:
        out["big_senders"] = {
            "count": len(big),
            "cut_off": sum(a.cut_after is not None for a in big),
            "most_taken_bytes": max(a.accepted for a in big),
        }
    refreshers = [a for a in abusers.get("refreshers", []) if isinstance(a, Refresher)]
    if refreshers:
        out["refreshers"] = {
            "count": len(refreshers),
            "sockets": sum(a.connected for a in refreshers),
            "views_sent": sum(a.views for a in refreshers),
            "refused": sum(a.refused for a in refreshers),
        }
    errors = [e for group in abusers.values() for a in group for e in a.errors]
    out["client_errors"] = errors[:10]
    return out
