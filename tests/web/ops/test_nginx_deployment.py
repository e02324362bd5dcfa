"""The deployment in ``deploy/`` as shipped: Debian's nginx with
``deploy/nginx-ludoteca.conf`` in front of two ``ludoteca serve`` processes sharing a
throw-away PostgreSQL, all on loopback.

Through nginx the page-like load client plays and loses nothing (and the processes' move
histograms, scraped from ``/metrics``, agree with its own figures), and a person plays a
game in the browser: the websockets upgrade, the moves arrive, every request of the game
reaches one process, ``X-Forwarded-For`` is believed only from nginx, and when that process
stops the page carries on through the other one with every move kept."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from bench.loadclient import Load, verify
from prometheus_client.parser import text_string_to_metric_families

from tests.web.browser import (  # noqa: F401 - browser is a fixture
    browser,
    click_cell,
    create,
    legal_moves,
    register_in_browser,
    wait_my_turn_or_end,
    wait_ply_change,
)
from tests.web.helpers import free_port

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
NGINX_SOURCE = "127.0.0.2"
"""nginx connects to the club from this loopback address, the only one the club trusts."""
VISITOR = "127.0.0.3"
"""A visitor's address, as nginx sees it."""


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is not installed and CI is set: the deployment test needs it")
        pytest.skip("nginx is not installed")
    return found


def site_config(port: int, backends: list[int]) -> str:
    """The shipped site, with loopback ports for this test and nginx's source address."""
    site = (DEPLOY / "nginx-ludoteca.conf").read_text()
    site = site.replace("listen [::]:80;", "")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    for shipped, used in zip((8001, 8002), backends, strict=True):
        assert f"server 127.0.0.1:{shipped} " in site
        site = site.replace(f"server 127.0.0.1:{shipped} ", f"server 127.0.0.1:{used} ")
    return site.replace(
        "proxy_pass http://ludoteca;",
        f"proxy_pass http://ludoteca;\n        proxy_bind {NGINX_SOURCE};",
    )


def start_nginx(tmp: Path, port: int, backends: list[int]) -> subprocess.Popen:
    tmp.mkdir(exist_ok=True)
    (tmp / "site.conf").write_text(site_config(port, backends))
    user = "user root;" if os.geteuid() == 0 else ""
    (tmp / "nginx.conf").write_text(
        f"""{user}
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 512; }}
http {{
    log_format club '$remote_addr "$request" $status $upstream_addr';
    access_log {tmp}/access.log club;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
"""
    )
    proc = subprocess.Popen(
        [nginx_binary(), "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=open(tmp / "stderr.log", "wb"),  # noqa: SIM115
    )
    wait_for(f"http://127.0.0.1:{port}/healthz", proc, tmp / "error.log")
    return proc


def start_club(url: str, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "LUDOTECA_LOG_FORMAT": "json"}
    env.pop("LUDOTECA_METRICS_TOKEN", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ludoteca.cli.main",
            "serve",
            "--port",
            str(port),
            "--database",
            url,
            "--forwarded-allow-ips",
            NGINX_SOURCE,
            "--bot-pool",
            "thread",
            "--registrations-per-hour",
            "1000",
        ],  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=open(log, "wb"),  # noqa: SIM115
        env=env,
        start_new_session=True,
    )
    return proc


def wait_for(url: str, proc: subprocess.Popen, log: Path, seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer: {log.read_text()[-2000:]}")


def move_histogram(base: str) -> tuple[float, list[tuple[float, float]]]:
    """The count and the cumulative buckets of ``ludoteca_move_seconds{stage="sent"}``."""
    text = httpx.get(base + "/metrics", timeout=10).text  # from loopback: allowed
    count, buckets = 0.0, []
    for family in text_string_to_metric_families(text):
        if family.name != "ludoteca_move_seconds":
            continue
        for s in family.samples:
            if s.labels.get("stage") != "sent":
                continue
            if s.name.endswith("_count"):
                count = s.value
            elif s.name.endswith("_bucket"):
                buckets.append((float(s.labels["le"]), s.value))
    return count, sorted(buckets)


def records(log: Path) -> list[dict]:
    out = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))
    return out


def stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def test_two_processes_behind_nginx(postgres, browser, tmp_path):  # noqa: F811
    url = postgres.fresh_database("behind_nginx")
    ports = [free_port(), free_port()]
    logs = [tmp_path / f"club{i}.log" for i in range(2)]
    clubs: list[subprocess.Popen | None] = [
        start_club(url, p, log) for p, log in zip(ports, logs, strict=True)
    ]
    nginx = None
    ctx = None
    try:
        for proc, port, log in zip(clubs, ports, logs, strict=True):
            assert proc is not None
            wait_for(f"http://127.0.0.1:{port}/readyz", proc, log)
        front_port = free_port()
        nginx = start_nginx(tmp_path / "nginx", front_port, ports)
        front = f"http://127.0.0.1:{front_port}"
        assert httpx.get(front + "/readyz").json()["ready"] is True
        assert httpx.get(front + "/metrics").status_code == 404  # not for the public

        # X-Forwarded-For: believed from nginx (which puts the visitor's own address there,
        # whatever the visitor claimed), never from anyone else
        with httpx.Client(transport=httpx.HTTPTransport(local_address=VISITOR)) as visitor:
            r = visitor.get(front + "/rules", headers={"X-Forwarded-For": "198.51.100.7"})
            assert r.status_code == 200
            through = r.headers["x-request-id"]
        direct = httpx.get(
            f"http://127.0.0.1:{ports[0]}/rules",
            headers={"X-Forwarded-For": "198.51.100.8", "X-Request-ID": "direct-spoof"},
        )
        assert direct.status_code == 200

        # the page-like load client through nginx: every move it saw is stored, and the
        # processes' move histograms (scraped from this machine) agree with its figures
        backends = [f"http://127.0.0.1:{port}" for port in ports]
        assert sum(move_histogram(b)[0] for b in backends) == 0
        load = Load(
            [front], games=2, seconds=3.0, think=0.05, page_like=True, accounts_in=url, seed=7
        )
        with ThreadPoolExecutor(1) as worker:  # the browser's loop holds this thread
            result = worker.submit(asyncio.run, load.run()).result(timeout=60)
        assert result["moves_accepted"] > 4 and not result["errors"], result
        assert verify(url, load.seen)["problems"] == []
        scraped = [move_histogram(b) for b in backends]
        # each process hears the other's fan-out probes (sent every few seconds)
        lags = [
            s.value
            for b in backends
            for family in text_string_to_metric_families(httpx.get(b + "/metrics").text)
            for s in family.samples
            if s.name == "ludoteca_fanout_lag_seconds_count"
        ]
        assert len(lags) == 2 and sum(lags) >= 1, lags
        count = sum(c for c, _ in scraped)
        accepted = result["moves_accepted"]
        assert accepted <= count <= accepted + 2 * 2, (count, result)  # in flight at the end
        buckets = [
            (le, sum(b[i][1] for _, b in scraped)) for i, (le, _) in enumerate(scraped[0][1])
        ]
        half = next(i for i, (_, n) in enumerate(buckets) if n >= count / 2)
        server_low = buckets[half - 1][0] if half else 0.0  # the median's bucket starts here
        client_p50 = result["mover_latency"]["p50_ms"] / 1000
        assert server_low <= client_p50, (buckets, result["mover_latency"])
        assert buckets[half][0] <= max(0.1, 4 * client_p50), (buckets, result["mover_latency"])

        # a person plays against the computer in the browser
        ctx = browser.new_context(viewport={"width": 1200, "height": 900})
        page = ctx.new_page()
        register_in_browser(page, front, "nginxplayer")
        pk = create(page, front, "kuniumi", [("me", ""), ("bot", "random")])
        rng = random.Random(2)

        def my_moves(n: int) -> None:
            """Play ``n`` moves by clicking, as the browser test of Kuniumi does; each
            arrives back over the game's socket."""
            for _ in range(n):
                wait_my_turn_or_end(page, timeout=30000)
                assert page.get_attribute("#play", "data-status") != "finished"
                ply = page.get_attribute("#play", "data-ply")
                move = rng.choice(legal_moves(page))
                if move.startswith("choose"):
                    page.locator(f'.choices .move-choice[data-move="{move}"]').first.click()
                elif "-" in move:
                    origin, dest = move.split("-")
                    click_cell(page, origin)
                    click_cell(page, dest)
                else:
                    click_cell(page, move.split("@")[1])
                wait_ply_change(page, ply, timeout=30000)

        my_moves(2)
        wait_my_turn_or_end(page, timeout=30000)

        # every request of the game reached one process
        served = [
            i for i, log in enumerate(logs)
            if any(r.get("game_id") == pk for r in records(log))
        ]  # fmt: skip
        assert len(served) == 1, served
        home = served[0]
        believed = {r.get("request_id"): r.get("client") for log in logs for r in records(log)}
        assert believed[through] == VISITOR
        assert believed["direct-spoof"] == "127.0.0.1"

        # its process stops: the page reconnects through nginx to the other, nothing lost
        stop(clubs[home])
        clubs[home] = None
        page.wait_for_function(
            "() => document.getElementById('play').dataset.live === '1'", timeout=30000
        )
        my_moves(2)
        # nginx logs a websocket when it closes: the first one, to the stopped process
        access = (tmp_path / "nginx" / "access.log").read_text()
        assert re.search(rf'"GET /ws/games/{pk}\S* HTTP/1.1" 101 ', access), access[-2000:]
        shown = int(page.get_attribute("#play", "data-ply") or 0)
        stored = httpx.get(f"{front}/api/games/{pk}").json()
        assert stored["ply"] >= shown >= 4
        assert verify(url, load.seen)["problems"] == []
        other = records(logs[1 - home])
        assert any(r.get("game_id") == pk for r in other)
    finally:
        if ctx is not None:
            ctx.close()
        stop(nginx)
        for proc in clubs:
            stop(proc)
