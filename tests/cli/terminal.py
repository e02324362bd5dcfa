"""The ``ludoteca`` command in a pseudo-terminal, as a person runs it (and as
``bench/startup.py`` measures it): stdin, stdout and stderr are a terminal, so the command
draws what a person would see, colours and prompts included.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """One ``ludoteca ARGS`` process on a pseudo-terminal of ``columns`` x ``rows``."""

    def __init__(
        self, *args: str, cwd: Path | str | None = None, columns: int = 100, rows: int = 40
    ) -> None:
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": str(columns), "TERM": "xterm"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ludoteca.cli.main", *args],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        self.fd = leader
        self.raw = b""
        self.seen = 0
        """How much of :attr:`text` the last :meth:`expect` consumed."""

    @property
    def text(self) -> str:
        """Everything shown so far, without colours and carriage returns."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout: float) -> bool:
        if not select.select([self.fd], [], [], timeout)[0]:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the process ended and closed the terminal
            return False
        self.raw += data
        return bool(data)

    def expect(self, pattern: str, timeout: float = 60.0) -> str:
        """Wait until ``pattern`` (a regular expression) shows after the last one expected;
        everything shown so far."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.text[self.seen :])
            if found:
                self.seen += found.end()
                return self.text
            if not self._read(0.1) and self.proc.poll() is not None:
                break
        raise AssertionError(f"{pattern!r} never showed; the terminal shows:\n{self.text[-3000:]}")

    def wait_for(self, pattern: str, timeout: float = 60.0) -> str:
        """Wait until ``pattern`` shows anywhere in the output; everything shown so far."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if re.search(pattern, self.text):
                return self.text
            if not self._read(0.1) and self.proc.poll() is not None:
                break
        raise AssertionError(f"{pattern!r} never showed; the terminal shows:\n{self.text[-3000:]}")

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def send_raw(self, data: bytes) -> None:
        os.write(self.fd, data)

    def interrupt(self) -> None:
        """Ctrl-C as a terminal sends it: SIGINT to the whole foreground process group."""
        os.killpg(self.proc.pid, signal.SIGINT)

    def finish(self, timeout: float = 60.0) -> int:
        """Wait for the process to end, reading all it shows; its exit status."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.1)
        while self._read(0.05):
            pass
        if self.proc.poll() is None:
            self.close()
            raise AssertionError(f"still running after {timeout:g} s:\n{self.text[-3000:]}")
        return self.proc.returncode

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        os.close(self.fd)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.close()
        else:
            self.proc.wait()
            with contextlib.suppress(OSError):
                os.close(self.fd)


def run(*args: str, cwd: Path | str | None = None, lines: tuple[str, ...] = ()) -> Terminal:
    """Run ``ludoteca ARGS`` to its end in a terminal, typing ``lines`` once it asks."""
    term = Terminal(*args, cwd=cwd)
    with term:
        for line in lines:
            term.expect(r"> ")
            term.send(line)
        term.finish()
    return term
