"""A throw-away PostgreSQL server on loopback, for tests and benchmarks of the club.

``initdb`` into a temporary directory, ``pg_ctl start`` on a free loopback port (as the
``postgres`` user via ``runuser`` when run as root, since PostgreSQL refuses to run as
root), and stop it by its pid at the end, removing the directory. Durability is switched off
(``fsync=off``): the data is thrown away anyway, and the measurements should be of the club,
not of the disk.

    with ThrowawayPostgres() as pg:
        url = pg.fresh_database("club")
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """PostgreSQL's server programs (``initdb``, ``pg_ctl``) are not installed."""


def pg_bin() -> Path | None:
    """The folder of ``pg_ctl``: on the PATH, else the newest under /usr/lib/postgresql."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayPostgres:
    def __init__(self, *, max_connections: int = 200) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise PostgresUnavailable("PostgreSQL (initdb, pg_ctl) is not installed")
        self.bin = bindir
        self.max_connections = max_connections
        self.root = Path(tempfile.mkdtemp(prefix="ludoteca-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self.pid: int | None = None

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        try:
            return subprocess.run(cmd, check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as exc:
            log = self.root / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{Path(args[0]).name} failed ({exc.returncode}): {exc.stderr.strip()}\n{tail}"
            ) from None

    def start(self) -> ThrowawayPostgres:
        try:
            self._run(
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            )
            self.resume()
        except BaseException:
            self.stop()
            raise
        return self

    def resume(self) -> None:
        """Start the server on its data directory (again, after :meth:`halt`)."""
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -k {self.root} "
            f"-c fsync=off -c full_page_writes=off -c synchronous_commit=off "
            f"-c max_connections={self.max_connections}"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "30",
            "start",
        )
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def halt(self) -> None:
        """Shut the server down as an operator restarting it would (fast: connections are
        ended), keeping its data for :meth:`resume`."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.pid = None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def fresh_database(self, name: str) -> str:
        """Drop and create database ``name``; return its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Fast shutdown (SIGINT to the postmaster), then remove the directory."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGINT)
                for _ in range(100):
                    os.kill(self.pid, 0)
                    time.sleep(0.1)
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.pid = None
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> ThrowawayPostgres:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
