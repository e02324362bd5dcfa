"""Abuse benchmark of the analysis board and the computer review: honest players' moves and
pages, an honest analysis and an honest review, while hostile clients load them.

    python bench/abuse_analysis.py [--games 10] [--seconds 30] [--analysts 8]
                                   [--page-clients 6] [--review-hogs 2] [--baseline]
                                   [--server-src DIR] [--json]

It starts one real ``ludoteca serve`` process (computer players and analysis in worker
processes, as served) on a fresh SQLite file, prepares the accounts and finished games the
attack needs, then has ``--games`` honest live games played through the websocket (the
client of ``bench/load.py``) for ``--seconds`` while, in processes of their own:

- ``--analysts`` accounts each keep an analysis socket busy on Comune's start position,
  sending *start* 50 times a second (the tree-growing and worker-hogging attack);
- ``--page-clients`` clients without an account, all from one address, ask for the analysis
  page of a Comune position with 9403 legal turns as fast as they are answered;
- ``--review-hogs`` pairs of accounts ask for reviews of their two finished games each;
- an honest prober measures, once the attack runs, the lobby page and an analysis page (its
  own address), an honest member's first analysis report (a new position every
  :data:`READING` seconds, as a person reads), and an honest 10-ply review from request to
  done.

It reports the honest moves' latency (mover and opponent: 50th/99th percentile, maximum),
the probes, what the attackers got (pages served and refused, starts refused), and the
largest resident memory of the server with its workers during the attack. ``--baseline``
first measures the honest load and probes without attackers. Loopback only, every phase
bounded by ``--seconds``; the server and the temporary folder are removed at the end. Exit
status 0 when the honest players lost nothing and saw no error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import queue
import random
import re
import statistics
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

try:
    import httpx
    import psutil

    import loadclient
    from abuseclients import loopback_only, open_socket, text_frame
    from load import run_loop
    from loadclient import ClubProcesses, Load, LoadError, verify
except ImportError as exc:  # httpx, psutil and websockets come with the dev tools
    sys.exit(f"bench/abuse_analysis.py needs the dev tools ({exc.name} is missing).")

CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')
PASSWORD = "correct horse battery"
READING = 6.0
"""Seconds the honest prober reads a report before it asks about the next position."""
MANY = "5/6/7/8/7H1/8/7/6/5 D 0"
"""A Comune position with 9403 legal turns."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/abuse_analysis.py", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", type=int, default=10, help="honest concurrent games (10)")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to measure (30)")
    p.add_argument("--think", type=float, default=0.5, help="mean think time per move, s (0.5)")
    p.add_argument("--analysts", type=int, default=8, help="accounts spamming analysis (8)")
    p.add_argument("--page-clients", type=int, default=6, help="anonymous page clients (6)")
    p.add_argument("--review-hogs", type=int, default=2, help="accounts hogging reviews (2)")
    p.add_argument("--baseline", action="store_true", help="first measure without attackers")
    p.add_argument(
        "--server-src",
        type=Path,
        default=None,
        metavar="DIR",
        help="run the server from this source tree (another revision's src), to compare",
    )
    p.add_argument("--progress", type=float, default=5.0, help="seconds between progress lines")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    if not 1 <= args.games <= 200:
        p.error("--games must be 1 to 200")
    if not 5 <= args.seconds <= 600:
        p.error("--seconds must be 5 to 600")
    for name in ("analysts", "page_clients", "review_hogs"):
        if not 0 <= getattr(args, name) <= 50:
            p.error(f"--{name.replace('_', '-')} must be 0 to 50")
    return args


# --- accounts and games over HTTP -------------------------------------------------------------
def client(base: str, source: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=loopback_only(source))
    return httpx.Client(base_url=base, transport=transport, timeout=60)


def csrf(c: httpx.Client, path: str = "/") -> str:
    found = CSRF.search(c.get(path).text)
    if not found:
        raise LoadError(f"no CSRF token on {path}")
    return found.group(1)


def member(base: str, name: str, source: str) -> httpx.Client:
    c = client(base, source)
    token = csrf(c, "/register")
    r = c.post(
        "/register",
        data={"name": name, "password": PASSWORD, "password2": PASSWORD, "csrf": token},
    )
    if r.status_code not in (200, 303) or "session" not in "".join(c.cookies.keys()):
        raise LoadError(f"could not register {name}: {r.status_code}")
    c.name = name  # type: ignore[attr-defined]
    return c


def finished_game(a: httpx.Client, b: httpx.Client, rng: random.Random, plies: int | None) -> int:
    """A Kuniumi game between ``a`` and ``b`` played at random to its end (or ``plies``
    moves, then resigned)."""
    data = {"csrf": csrf(a), "game": "kuniumi", "seat0": "me", "seat1": "user"}
    data["seat1_user"] = b.name  # type: ignore[attr-defined]
    r = a.post("/games", data=data, follow_redirects=False)
    pk = int(r.headers["location"].rsplit("/", 1)[1])
    b.post(f"/games/{pk}/join", data={"csrf": csrf(b)}, follow_redirects=False)
    played = 0
    while True:
        for who in (a, b):
            view = who.get(f"/api/games/{pk}").json()
            if view["status"] == "finished":
                return pk
            if not view["your_turn"]:
                continue
            if plies is not None and played >= plies:
                who.post(f"/games/{pk}/resign", data={"csrf": csrf(who)}, follow_redirects=False)
                return pk
            move = rng.choice(view["legal"])["text"]
            headers = {"X-CSRF-Token": csrf(who)}
            who.post(
                f"/api/games/{pk}/move", json={"move": move, "ply": view["ply"]}, headers=headers
            )
            played += 1


def cookie_of(c: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in c.cookies.items())


# --- websocket frames on a plain socket -------------------------------------------------------
def frames(sock, buffer: bytearray) -> list[str]:
    """The complete text frames in what ``sock`` has now (non-blocking)."""
    try:
        data = sock.recv(1 << 16)
    except (BlockingIOError, InterruptedError, TimeoutError):
        data = None
    if data == b"":
        raise ConnectionError("closed by the server")
    if data:
        buffer += data
    out = []
    while len(buffer) >= 2:
        length, start = buffer[1] & 0x7F, 2
        if length == 126:
            if len(buffer) < 4:
                break
            length, start = struct.unpack("!H", buffer[2:4])[0], 4
        elif length == 127:
            if len(buffer) < 10:
                break
            length, start = struct.unpack("!Q", buffer[2:10])[0], 10
        if len(buffer) < start + length:
            break
        if buffer[0] & 0x0F == 0x1:
            out.append(bytes(buffer[start : start + length]).decode("utf-8", "replace"))
        del buffer[: start + length]
    return out


def start_message(token: str, position: str = "") -> str:
    return json.dumps({"type": "start", "game": "comune", "position": position, "csrf": token})


# --- the attackers (a process of their own) ---------------------------------------------------
def analyst(host, port, cookie, token, source, seconds, out) -> None:
    """Start, start, start, 50 times a second, reconnecting whenever the club closes the
    socket."""
    sent = reports = refused = connections = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            sock = open_socket(host, port, "/ws/analysis", source=source, cookie=cookie)
        except (ConnectionError, OSError):
            time.sleep(0.1)
            continue
        connections += 1
        sock.setblocking(False)
        buffer = bytearray()
        try:
            while time.monotonic() < deadline:
                try:
                    sock.send(text_frame(start_message(token)))
                    sent += 1
                except (BlockingIOError, InterruptedError):
                    pass
                for text in frames(sock, buffer):
                    kind = json.loads(text).get("type")
                    reports += kind == "analysis"
                    refused += kind == "error"
                time.sleep(0.02)  # 50 starts a second
        except (ConnectionError, OSError):
            pass
        finally:
            sock.close()
    out.append({"sent": sent, "reports": reports, "refused": refused, "connections": connections})


def page_client(base, source, seconds, out) -> None:
    ok = refused = 0
    deadline = time.monotonic() + seconds
    with client(base, source) as c:
        while time.monotonic() < deadline:
            try:
                r = c.get("/analysis/comune", params={"position": MANY})
            except httpx.HTTPError:
                continue
            ok += r.status_code == 200
            refused += r.status_code == 429
    out.append({"served": ok, "refused": refused})


def run_attack(base, plan, seconds, results) -> None:
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
    analysts: list = []
    pages: list = []
    threads = []
    for n, (cookie, token) in enumerate(plan["analysts"]):
        args = (host, port, cookie, token, f"127.202.0.{n + 1}", seconds, analysts)
        threads.append(threading.Thread(target=analyst, args=args, daemon=True))
    for _ in range(plan["page_clients"]):
        args = (base, "127.203.0.1", seconds, pages)  # one address
        threads.append(threading.Thread(target=page_client, args=args, daemon=True))
    hogs = {"asked": 0, "accepted": 0}
    for cookie, token, pks in plan["hogs"]:
        with httpx.Client(base_url=base, headers={"Cookie": cookie}, timeout=30) as c:
            for pk in pks:
                r = c.post(f"/games/{pk}/review", data={"csrf": token}, follow_redirects=False)
                hogs["asked"] += 1
                hogs["accepted"] += r.status_code == 303
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 30)
    results.put(
        {
            "analysts": {
                "count": len(analysts),
                "connections": sum(a["connections"] for a in analysts),
                "starts_sent": sum(a["sent"] for a in analysts),
                "starts_refused": sum(a["refused"] for a in analysts),
                "reports": sum(a["reports"] for a in analysts),
            },
            "anonymous_pages": {
                "clients": len(pages),
                "served": sum(p["served"] for p in pages),
                "refused": sum(p["refused"] for p in pages),
                "per_s_served": round(sum(p["served"] for p in pages) / seconds, 1),
            },
            "review_hogs": hogs,
        }
    )


# --- the honest prober (a process of its own) ---------------------------------------------------
def ms(values: list[float]) -> dict:
    if not values:
        return {"count": 0}
    values = sorted(values)
    return {
        "count": len(values),
        "p50_ms": round(1000 * statistics.median(values)),
        "max_ms": round(1000 * values[-1]),
    }


def probe(base, honest, seconds, results) -> None:
    from ludoteca.core.registry import get

    positions = [get("comune").new_state(seed=1).position(), MANY]
    cookie, token, review_pk = honest
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
    deadline = time.monotonic() + seconds
    lobby, pages, first_report = [], [], []
    review_s = None
    with (
        client(base, "127.204.0.1") as anon,
        httpx.Client(base_url=base, headers={"Cookie": cookie}, timeout=120) as me,
    ):
        sock = open_socket(host, port, "/ws/analysis", source="127.204.0.2", cookie=cookie)
        sock.settimeout(0.2)
        buffer = bytearray()
        refusals: list[str] = []
        asked = time.monotonic()
        r = me.post(f"/games/{review_pk}/review", data={"csrf": token}, follow_redirects=False)
        review_ok = r.status_code == 303

        def pages_loop() -> None:
            while time.monotonic() < deadline:
                t = time.perf_counter()
                anon.get("/")
                lobby.append(time.perf_counter() - t)
                t = time.perf_counter()
                anon.get("/analysis/kuniumi")
                pages.append(time.perf_counter() - t)
                time.sleep(0.5)

        paging = threading.Thread(target=pages_loop, daemon=True)
        paging.start()
        while time.monotonic() < deadline:
            position = positions[len(first_report) % 2]
            t = time.perf_counter()
            try:
                sock.sendall(text_frame(start_message(token, position)))
                got = False
                while not got and time.perf_counter() - t < 30:
                    for text in frames(sock, buffer):
                        data = json.loads(text)
                        if data.get("type") == "analysis" and data.get("position") == position:
                            first_report.append(time.perf_counter() - t)
                            got = True
                        elif data.get("type") == "error":
                            refusals.append(data.get("message", ""))
                            got = True
            except (ConnectionError, OSError) as exc:
                refusals.append(repr(exc))
                sock = open_socket(host, port, "/ws/analysis", source="127.204.0.2", cookie=cookie)
                sock.settimeout(0.2)
                buffer = bytearray()
            with contextlib.suppress(OSError):  # a person reads the report, then stops
                sock.sendall(text_frame(json.dumps({"type": "stop"})))
            if review_s is None and review_ok:
                status = me.get(f"/api/games/{review_pk}/review").json()["status"]
                if status == "done":
                    review_s = time.monotonic() - asked
            time.sleep(READING)
        sock.close()
        paging.join(30)
        while review_s is None and review_ok and time.monotonic() < deadline + 60:
            if me.get(f"/api/games/{review_pk}/review").json()["status"] == "done":
                review_s = time.monotonic() - asked
            time.sleep(0.5)
    results.put(
        {
            "lobby": ms(lobby),
            "analysis_page": ms(pages),
            "first_analysis_report": ms(first_report),
            "honest_review_s": None if review_s is None else round(review_s, 1),
            "honest_analysis_refusals": refusals[:3],
        }
    )


# --- memory of the server and its workers -----------------------------------------------------
class MemoryWatch(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.root = psutil.Process(pid)
        self.peak = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
                total = 0
                for p in procs:
                    with contextlib.suppress(psutil.Error):
                        total += p.memory_info().rss
                self.peak = max(self.peak, total)
            except psutil.Error:
                return
            self.stop.wait(0.5)


# --- the run ----------------------------------------------------------------------------------
def prepare(base: str, args, say) -> dict:
    """Accounts and finished games, before anything is measured."""
    rng = random.Random(1)
    plan: dict = {"analysts": [], "page_clients": args.page_clients, "hogs": []}
    for n in range(args.analysts):
        c = member(base, f"analyst{n}", f"127.201.0.{n + 1}")
        plan["analysts"].append((cookie_of(c), csrf(c)))
    for n in range(args.review_hogs):
        hog = member(base, f"hog{n}", f"127.201.1.{n + 1}")
        mate = member(base, f"hogmate{n}", f"127.201.2.{n + 1}")
        pks = [finished_game(hog, mate, rng, None) for _ in range(2)]
        plan["hogs"].append((cookie_of(hog), csrf(hog), pks))
        if say:
            say(f"review hog {n}: games {pks} finished")
    honest = member(base, "honest", "127.201.3.1")
    mate = member(base, "honestmate", "127.201.3.2")
    short = finished_game(honest, mate, rng, 10)
    plan["honest"] = (cookie_of(honest), csrf(honest), short)
    warm_up(base, cookie_of(honest), csrf(honest))
    return plan


def warm_up(base: str, cookie: str, token: str) -> None:
    """One analysis of Comune, so that the analysis worker has started and compiled the
    game's playouts before anything is measured (as on a club that has been running)."""
    port = int(base.rsplit(":", 1)[1])
    sock = open_socket("127.0.0.1", port, "/ws/analysis", source="127.201.3.1", cookie=cookie)
    sock.settimeout(0.5)
    sock.sendall(text_frame(start_message(token)))
    buffer = bytearray()
    deadline = time.monotonic() + 180
    try:
        while time.monotonic() < deadline:
            if any(json.loads(t).get("type") == "analysis" for t in frames(sock, buffer)):
                return
        raise LoadError("the analysis worker did not answer within 180 s")
    finally:
        sock.close()


def measure(args, base, seed, say, attack: dict | None, honest, server_pid) -> dict:
    ctx = multiprocessing.get_context("spawn")
    results, probes = ctx.Queue(), ctx.Queue()
    box: dict = {}
    watch = MemoryWatch(server_pid)

    def begin() -> None:
        watch.start()
        if attack is not None:
            box["attack"] = ctx.Process(
                target=run_attack, args=(base, attack, args.seconds, results), daemon=True
            )
            box["attack"].start()
        box["probe"] = ctx.Process(
            target=probe, args=(base, honest, args.seconds, probes), daemon=True
        )
        box["probe"].start()

    load = Load(
        [base],
        games=args.games,
        seconds=args.seconds,
        think=args.think,
        game="kuniumi",
        seed=seed,
        progress=say,
        progress_every=args.progress or 5.0,
    )
    try:
        out = run_loop(load.run(on_start=begin))
        out["probes"] = probes.get(timeout=args.seconds + 120)
        if attack is not None:
            out["attackers"] = results.get(timeout=60)
    except queue.Empty:
        out["probes"] = out.get("probes") or {"error": "the prober did not report"}
    finally:
        watch.stop.set()
        for p in box.values():
            if p.is_alive():
                p.kill()
    out["peak_rss_mb"] = round(watch.peak / 2**20)
    out["seen"] = load.seen
    return out


def lat(d: dict) -> str:
    return f"{d['p50_ms']} / {d['p99_ms']} / {d['max_ms']} ms  ({d['count']} views)"


def short(d: dict) -> str:
    return f"{d.get('p50_ms', '-')} / {d.get('max_ms', '-')} ms  ({d.get('count', 0)})"


def table(result: dict) -> str:
    rows = [("honest games", f"{result['games']} Kuniumi, {result['seconds']} s each phase")]
    for phase in ("baseline", "attacked"):
        r = result.get(phase)
        if r is None:
            continue
        p = r["probes"]
        rows += [
            (f"{phase}: mover p50/p99/max", lat(r["mover_latency"])),
            (f"{phase}: opponent p50/p99/max", lat(r["opponent_latency"])),
            (f"{phase}: lobby p50/max", short(p.get("lobby", {}))),
            (f"{phase}: analysis page p50/max", short(p.get("analysis_page", {}))),
            (f"{phase}: first analysis report", short(p.get("first_analysis_report", {}))),
            (f"{phase}: honest 10-ply review", f"{p.get('honest_review_s')} s"),
            (f"{phase}: peak RSS server+workers", f"{r['peak_rss_mb']} MB"),
            (f"{phase}: errors", f"{sum(r['errors'].values())} {r['errors'] or ''}".strip()),
        ]
    for kind, summary in result.get("attacked", {}).get("attackers", {}).items():
        rows.append((kind.replace("_", " "), ", ".join(f"{k} {v}" for k, v in summary.items())))
    rows.append(("nothing lost", "yes" if result["verify"]["ok"] else "NO"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def run(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-abuse-analysis-"))
    club = None
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if args.progress > 0 else None
    result: dict = {"games": args.games, "seconds": args.seconds}
    seen: dict = {}
    try:
        url = f"sqlite:///{tmp / 'club.sqlite3'}"
        club = ClubProcesses(
            url, 1, tmp, extra_args=("--bot-pool", "process"), server_src=args.server_src
        ).start()
        base = club.bases[0]
        pid = club.procs[0].pid
        if say:
            say(f"server on {base}; preparing accounts and finished games")
        plan = prepare(base, args, say)
        if args.baseline:
            if say:
                say("baseline: honest load and probes alone")
            result["baseline"] = measure(args, base, 1, say, None, plan["honest"], pid)
            seen.update(result["baseline"].pop("seen"))
            # a fresh honest review for the attacked phase
            honest = member(base, "honest2", "127.201.4.1")
            mate = member(base, "honestmate2", "127.201.4.2")
            plan["honest"] = (
                cookie_of(honest),
                csrf(honest),
                finished_game(honest, mate, random.Random(2), 10),
            )
        if say:
            say("attacked: honest load and probes while the attackers run")
        result["attacked"] = measure(args, base, 2, say, plan, plan["honest"], pid)
        seen.update(result["attacked"].pop("seen"))
        result["verify"] = verify(url, seen)
        del result["verify"]["stored_lengths"]
    except LoadError as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        if club is not None:
            print(club.log_tail(0), file=sys.stderr)
        return 1
    finally:
        if club is not None:
            club.stop()
        loadclient.clean_up_workdir(tmp, args.keep)
    return loadclient.report(result, args.json, table, sum(result["attacked"]["errors"].values()))


def main(argv: list[str] | None = None) -> int:
    return loadclient.run_interruptible(lambda: run(parse_args(argv)))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
