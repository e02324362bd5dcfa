"""Abuse benchmark of the web club: honest players' move latency while hostile clients attack.

    python bench/abuse.py [--games 20] [--seconds 30] [--think 0.5] [--game kuniumi]
                          [--never-readers 4] [--flooders 2] [--big-senders 1]
                          [--refreshers 1] [--baseline] [--json]

It starts one real ``ludoteca serve`` process on a fresh SQLite file and has simulated
players play ``--games`` live games through the game's websocket, as ``bench/load.py`` does
(the same client, ``bench/loadclient.py``). Once they play, a process of its own runs the
abusive clients of ``bench/abuseclients.py`` against their games: spectators that never read
while asking for refreshes, clients that flood messages and reconnect, clients that send one
100 MB message, and 50 sockets from one address each asking for 19 refreshes a second. It
reports the honest players' latency from a move sent to the view showing it (mover and
opponent: 50th and 99th percentile, maximum) and what became of each abusive client; with
``--baseline`` it first measures the same load without the abusers, to compare.

Everything runs on this machine (the server on 127.0.0.1, players and abusers each on their
own 127.x.y.z address), every phase is bounded by ``--seconds``, and the server and the
temporary folder are removed at the end, also after Ctrl-C. Exit status: 0 when the honest
players lost nothing and saw no error, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

try:
    import loadclient
    from abuseclients import run_abusers
    from load import run_loop
    from loadclient import ClubProcesses, Load, LoadError, verify
except ImportError as exc:  # httpx and websockets come with the dev tools
    sys.exit(f"bench/abuse.py needs the dev tools ({exc.name} is missing): run `make test` once.")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/abuse.py",
        description=__doc__.split("\n\n")[0],
        epilog="Loopback only; stops by itself after the measured seconds (twice with "
        "--baseline) plus set-up.",
    )
    p.add_argument("--games", type=int, default=20, help="honest concurrent games (20)")
    p.add_argument("--seconds", type=float, default=30.0, help="how long to measure (30)")
    p.add_argument("--think", type=float, default=0.5, help="mean think time per move, s (0.5)")
    p.add_argument("--game", default="kuniumi", help="which game (kuniumi)")
    p.add_argument("--never-readers", type=int, default=4, help="spectators that never read (4)")
    p.add_argument("--flooders", type=int, default=2, help="clients flooding messages (2)")
    p.add_argument("--big-senders", type=int, default=1, help="clients sending 100 MB (1)")
    p.add_argument(
        "--refreshers",
        type=int,
        default=1,
        help="addresses each holding 50 sockets that ask 19 refreshes a second (1)",
    )
    p.add_argument(
        "--baseline", action="store_true", help="first measure the same load without abusers"
    )
    p.add_argument("--seed", type=int, default=1, help="seed for moves and think times")
    p.add_argument("--progress", type=float, default=5.0, help="seconds between progress lines")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    from ludoteca.web.round.catalog import available_games

    if args.game not in available_games():
        p.error(f"no game {args.game!r} (games: {', '.join(sorted(available_games()))})")
    if not 1 <= args.games <= 500:
        p.error("--games must be 1 to 500")
    if not 1 <= args.seconds <= 600:
        p.error("--seconds must be 1 to 600")
    if not 0 <= args.think <= 60:
        p.error("--think must be 0 to 60 seconds")
    for name in ("never_readers", "flooders", "big_senders", "refreshers"):
        if not 0 <= getattr(args, name) <= 50:
            p.error(f"--{name.replace('_', '-')} must be 0 to 50")
    return args


def honest_load(args: argparse.Namespace, base: str, say, on_start=None) -> tuple[Load, dict]:
    load = Load(
        [base],
        games=args.games,
        seconds=args.seconds,
        think=args.think,
        game=args.game,
        seed=args.seed,
        progress=say,
        progress_every=args.progress or 5.0,
    )
    return load, run_loop(load.run(on_start=on_start))


def lat(d: dict) -> str:
    return f"{d['p50_ms']} / {d['p99_ms']} / {d['max_ms']} ms  ({d['count']} views)"


def table(result: dict) -> str:
    rows = [
        ("game", f"{result['game']}, {result['games']} honest games, think {result['think_s']} s")
    ]
    for phase in ("baseline", "abused"):
        r = result.get(phase)
        if r is None:
            continue
        rows += [
            (f"{phase}: moves per second", f"{r['moves_per_s']} ({r['seconds']} s)"),
            (f"{phase}: mover p50/p99/max", lat(r["mover_latency"])),
            (f"{phase}: opponent p50/p99/max", lat(r["opponent_latency"])),
            (f"{phase}: errors", f"{sum(r['errors'].values())} {r['errors'] or ''}".strip()),
        ]
    for kind, summary in result.get("abusers", {}).items():
        if kind != "client_errors":
            rows.append((kind.replace("_", " "), ", ".join(f"{k} {v}" for k, v in summary.items())))
    if result.get("abusers", {}).get("client_errors"):
        rows.append(("abuser errors", "; ".join(result["abusers"]["client_errors"])))
    v = result["verify"]
    rows.append(("nothing lost", "yes" if v["ok"] else f"NO: {len(v['problems'])} problems"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {val}" for k, val in rows)


def run(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-abuse-"))
    club = None
    attack = None
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if args.progress > 0 else None
    result: dict = {"game": args.game, "games": args.games, "think_s": args.think}
    plan = {
        "never_readers": args.never_readers,
        "flooders": args.flooders,
        "big_senders": args.big_senders,
        "refreshers": args.refreshers,
    }
    plan = {kind: n for kind, n in plan.items() if n}
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    seen = {}
    try:
        url = f"sqlite:///{tmp / 'club.sqlite3'}"
        if say:
            say(f"starting the server (logs in {tmp})")
        club = ClubProcesses(url, 1, tmp).start()
        base = club.bases[0]
        port = int(base.rsplit(":", 1)[1])
        if args.baseline:
            if say:
                say("baseline: the honest players alone")
            load, result["baseline"] = honest_load(args, base, say)
            seen.update(load.seen)
        box: dict = {}

        def start_attack() -> None:
            pks = sorted(box["load"].seen)
            if say:
                say(f"abusers {plan} attack games {pks[0]}..{pks[-1]}")
            process = ctx.Process(
                target=run_abusers,
                args=("127.0.0.1", port, pks, plan, args.seconds, results),
                daemon=True,
            )
            process.start()
            box["process"] = process

        load = Load(
            [base],
            games=args.games,
            seconds=args.seconds,
            think=args.think,
            game=args.game,
            seed=args.seed + 1,
            progress=say,
            progress_every=args.progress or 5.0,
        )
        box["load"] = load
        result["abused"] = run_loop(load.run(on_start=start_attack if plan else None))
        seen.update(load.seen)
        attack = box.get("process")
        if attack is not None:
            try:
                result["abusers"] = results.get(timeout=30)
            except queue.Empty:
                result["abusers"] = {"client_errors": ["the abusers did not report"]}
        if say:
            say("checking every stored record …")
        result["verify"] = verify(url, seen)
        del result["verify"]["stored_lengths"]
    except LoadError as exc:
        print(f"abuse benchmark failed: {exc}", file=sys.stderr)
        if club is not None:
            print(f"--- server log (end) ---\n{club.log_tail(0)}", file=sys.stderr)
        return 1
    finally:
        if attack is not None and attack.is_alive():
            attack.kill()
            attack.join(5)
        if club is not None:
            club.stop()
        loadclient.clean_up_workdir(tmp, args.keep)
    return loadclient.report(result, args.json, table, sum(result["abused"]["errors"].values()))


def main(argv: list[str] | None = None) -> int:
    return loadclient.run_interruptible(lambda: run(parse_args(argv)))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
