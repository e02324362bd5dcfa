"""``kill -9`` of the server takes its helper processes with it (issue 43, finding 16): the
forkserver, the computer players' and the analysis worker, and the resource tracker all end
within seconds instead of running on (four processes were left each time)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time

import psutil
from websockets.sync.client import connect

from tests.web.helpers import Server, create_game, member, page_csrf, play_randomly


def alive(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_helpers_die_with_a_killed_server(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", toy=False, log=tmp_path / "log")
    server.start()
    try:
        player = member(server.base, "orphans")
        pk = create_game(player, "kuniumi", [("me", ""), ("bot", "random")])
        play_randomly(player, pk, random.Random(1), seconds=30, moves=2)  # a bot worker ran
        csrf = page_csrf(player)
        cookies = "; ".join(f"{k}={v}" for k, v in player.cookies.items())
        url = server.base.replace("http", "ws") + "/ws/analysis"
        with connect(url, additional_headers={"Cookie": cookies}, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "start", "game": "kuniumi", "position": "", "csrf": csrf}))
            while json.loads(ws.recv(timeout=30))["type"] != "analysis":
                pass  # the analysis worker ran
        assert server.proc is not None
        helpers = psutil.Process(server.proc.pid).children(recursive=True)
        assert len(helpers) >= 3, [p.cmdline() for p in helpers]  # forkserver, tracker, workers
        os.kill(server.proc.pid, signal.SIGKILL)  # the server alone, as a crash
        server.proc.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(p) for p in helpers):
            time.sleep(0.1)
        left = [(p.pid, p.cmdline()[:3]) for p in helpers if alive(p)]
        assert left == [], left
    finally:
        if server.proc is not None:
            with_group = server.proc.pid
            server.proc = None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(with_group, signal.SIGKILL)


def test_a_server_stopped_leaves_nothing_of_its_pools_behind(tmp_path):
    """Stopped as a service manager stops it (SIGTERM), the server leaves no named semaphore
    for the resource tracker to clean up: the count of workers that open sessions of their
    own (``seats.make_pool``) is plain shared memory. As a lock, it was left behind at every
    stop, and the tracker warned of it."""
    log = tmp_path / "log"
    server = Server(f"sqlite:///{tmp_path / 'club.sqlite3'}", toy=False, log=log).start()
    try:
        assert server.proc is not None
        os.kill(server.proc.pid, signal.SIGTERM)
        assert server.proc.wait(30) is not None
        time.sleep(1)  # the tracker, the last to go, writes its warning as it ends
    finally:
        server.kill()
    assert "leaked" not in log.read_text(errors="replace")
