"""``ludoteca serve``: the default SQLite file under ./var is created and migrated on start,
``DATABASE_URL`` and ``--database`` are honoured."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from tests.web.helpers import free_port


def serve(cwd, *args: str, env: dict | None = None) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli.main", "serve", "--port", str(port), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError(proc.communicate()[0].decode())


def stop(proc: subprocess.Popen) -> str:
    os.killpg(proc.pid, signal.SIGTERM)
    return proc.communicate(timeout=20)[0].decode()


def test_default_database_is_created_under_var(tmp_path):
    env = {k: "" for k in ("DATABASE_URL",)}
    proc, port = serve(tmp_path, env=env)
    try:
        assert (tmp_path / "var" / "ludoteca.sqlite3").is_file()
        assert "Register" in httpx.get(f"http://127.0.0.1:{port}/").text
    finally:
        out = stop(proc)
    assert f"http://127.0.0.1:{port}/" in out and "var/ludoteca.sqlite3" in out


def test_database_url_env_and_option(tmp_path):
    env_db = tmp_path / "from-env.sqlite3"
    proc, _ = serve(tmp_path, env={"DATABASE_URL": f"sqlite:///{env_db}"})
    stop(proc)
    assert env_db.is_file() and not (tmp_path / "var").exists()
    opt_db = tmp_path / "from-option.sqlite3"
    proc, _ = serve(
        tmp_path, "--database", f"sqlite:///{opt_db}", env={"DATABASE_URL": f"sqlite:///{env_db}"}
    )
    stop(proc)
    assert opt_db.is_file()


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("LUDOTECA_SQLITE_SYNC", "sometimes", "use normal or full"),
        ("LUDOTECA_LOG_LEVEL", "chatty", "use debug, info, warning, error"),
    ],
)
def test_a_bad_setting_from_the_environment_is_refused_clearly(tmp_path, variable, value, said):
    env = {**os.environ, variable: value}
    out = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli.main", "serve", "--port", "0"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert f"{variable}={value!r}: {said}" in out.stderr
    assert "Traceback" not in out.stderr
