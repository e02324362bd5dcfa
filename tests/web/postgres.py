"""A throw-away PostgreSQL server for the storage tests.

``initdb`` into a temporary directory, ``pg_ctl start`` on a free loopback port (as the
``postgres`` user via ``runuser`` when the tests run as root, since PostgreSQL refuses to
run as root), and stop it by its pid at the end. Without PostgreSQL installed the fixture
skips, except under ``CI``, where a missing server is a failure.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from helpers import free_port


def pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


class Postgres:
    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            message = "PostgreSQL (initdb, pg_ctl) is not installed"
            if os.environ.get("CI"):
                pytest.fail(message + " and CI is set: the storage tests need it")
            pytest.skip(message)
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="ludoteca-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self.pid: int | None = None

    def _run(self, *args: str, **kw) -> subprocess.CompletedProcess:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)

    def start(self) -> Postgres:
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
        opts = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -k {self.root} "
            "-c fsync=off -c full_page_writes=off"
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
        pidfile = self.data / "postmaster.pid"
        self.pid = int(pidfile.read_text().split()[0])
        return self

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def fresh_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGINT)  # fast shutdown
                for _ in range(100):
                    os.kill(self.pid, 0)
                    time.sleep(0.1)
            except ProcessLookupError:
                pass
            self.pid = None
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    server = Postgres().start()
    yield server
    server.stop()
