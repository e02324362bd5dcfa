"""Backing up a club's database and restoring it, while the club runs.

- **SQLite**: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database
  page by page inside one read transaction, so the copy is the database as of one commit
  even while the club writes to it (readers never block writers in WAL mode). The backup is
  an ordinary SQLite file; restoring copies it into the club's file the same way.
- **PostgreSQL**: ``pg_dump --format=custom`` (one consistent snapshot, taken without
  stopping anyone) and ``pg_restore --single-transaction``, the tools of Debian's
  ``postgresql`` package; the password is handed over in ``PGPASSWORD``, never on a command
  line other users can read.

A backup is written to a temporary file beside ``FILE`` and renamed into place once
complete, so a failed or interrupted backup never leaves a partial file under ``FILE``.
Nothing is overwritten without ``force``: neither an existing backup file nor a database
that already holds a club. Refusals are :class:`BackupError`, one line each.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from ludoteca.web.infra.store import normalise_url

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore refused or failed; the message is one line for the operator."""


def kind_of(url: str) -> str:
    backend = make_url(normalise_url(url)).get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"cannot back up a {backend} database (sqlite and postgresql only)")
    return backend


def backup(url: str, file: Path, *, force: bool = False) -> str:
    """Write a backup of the club at ``url`` to ``file``; returns what was written."""
    file = Path(file)
    if file.exists() and not force:
        raise BackupError(f"{file} already exists (add --force to replace it)")
    if file.is_dir():
        raise BackupError(f"{file} is a folder, not a file")
    if not file.parent.is_dir():
        raise BackupError(f"{file.parent} is not a folder")
    kind = kind_of(url)
    fd, temp_name = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".part", dir=file.parent)
    os.close(fd)
    temp = Path(temp_name)
    try:
        if kind == "sqlite":
            _sqlite_copy(_sqlite_path(url, must_exist=True), temp, source_read_only=True)
        else:
            _run("pg_dump", "--format=custom", "--no-owner", f"--file={temp}", url=url)
        os.replace(temp, file)
    finally:
        temp.unlink(missing_ok=True)
    size = file.stat().st_size
    return f"backed up the {kind} club to {file} ({size:,} bytes)"


def restore(url: str, file: Path, *, force: bool = False) -> str:
    """Restore the backup ``file`` into the database at ``url``; returns what was done."""
    file = Path(file)
    if not file.is_file():
        raise BackupError(f"{file}: no such backup file")
    with file.open("rb") as f:
        head = f.read(16)
    kind = kind_of(url)
    made_by = (
        "sqlite" if head == SQLITE_MAGIC else "postgresql" if head[:5] == PGDUMP_MAGIC else None
    )
    if made_by is None:
        raise BackupError(f"{file} is not a club backup (neither SQLite nor pg_dump's format)")
    if made_by != kind:
        raise BackupError(f"{file} is a {made_by} backup; it restores only to a {made_by} database")
    if kind == "sqlite":
        _check_sqlite_backup(file)
        target = _sqlite_path(url, must_exist=False)
        if _sqlite_has_club(target) and not force:
            raise BackupError(f"{target} already holds a club (add --force to replace it)")
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(file, target, source_read_only=True)
    else:
        has_club = _postgres_has_club(url)
        if has_club and not force:
            raise BackupError("the database already holds a club (add --force to replace it)")
        options = ["--clean", "--if-exists"] if has_club else []
        _run(
            "pg_restore",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            *options,
            str(file),
            url=url,
        )
    return f"restored {file} into the {kind} database"


def _sqlite_path(url: str, *, must_exist: bool) -> Path:
    database = make_url(normalise_url(url)).database or ""
    if database in ("", ":memory:"):
        raise BackupError("a SQLite club backs up from and restores to a file")
    path = Path(database)
    if must_exist and not path.is_file():
        raise BackupError(f"{path}: no club database there")
    return path


def _sqlite_copy(source: Path, target: Path, *, source_read_only: bool) -> None:
    """Copy ``source`` into ``target`` with SQLite's online backup API, all pages in one
    step: one read transaction, so the copy is the source as of one commit."""
    uri = f"file:{source.resolve()}?mode=ro" if source_read_only else str(source)
    try:
        src = sqlite3.connect(uri, uri=source_read_only, timeout=30)
        try:
            dst = sqlite3.connect(target, timeout=30)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite refused the copy: {exc}") from None


def _check_sqlite_backup(file: Path) -> None:
    if not _sqlite_has_club(file):
        raise BackupError(f"{file} is a SQLite file but holds no club")
    try:
        with sqlite3.connect(f"file:{file.resolve()}?mode=ro", uri=True) as conn:
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as exc:
        raise BackupError(f"{file} is damaged: {exc}") from None
    if ok != "ok":
        raise BackupError(f"{file} is damaged: {ok}")


def _sqlite_has_club(path: Path) -> bool:
    if not path.is_file() or path.stat().st_size == 0:
        return False
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            row = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='alembic_version'"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a SQLite database ({exc})") from None
    return row is not None


def _postgres_has_club(url: str) -> bool:
    import psycopg

    libpq, password = _libpq(url)
    try:
        with psycopg.connect(libpq, password=password, connect_timeout=10) as conn:
            return conn.execute("SELECT to_regclass('alembic_version')").fetchone()[0] is not None
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BackupError(f"cannot reach the database: {first}") from None


def _libpq(url: str) -> tuple[str, str | None]:
    """The URL as libpq reads it, without its password, and the password."""
    parsed: URL = make_url(normalise_url(url))
    password = parsed.password
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), (
        str(password) if password is not None else None
    )


def tool(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: the newest PostgreSQL's under /usr/lib/postgresql (a
    dump must be made by a version at least the server's), else the one on the PATH."""
    found = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
        reverse=True,
    )
    path = found[0] if found else shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: apt install postgresql-client)")
    return path


def _run(name: str, *args: str, url: str) -> None:
    libpq, password = _libpq(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    command = [tool(name), *args, f"--dbname={libpq}"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise BackupError(f"{name} failed: {lines[0] if lines else f'exit {done.returncode}'}")
