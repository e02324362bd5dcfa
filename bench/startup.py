"""Start-up time of the ``ludoteca`` command: how long until each command shows its first output.

    python bench/startup.py [--runs 5] [--target 0.5] [--only WORD] [--json]

Each command runs as a real process (``python -m ludoteca.cli.main ...``, what the
``ludoteca`` script runs), ``--runs`` times after one untimed run that leaves the machine
warm (files cached, numba's on-disk cache filled); the time is from starting the process to
the first byte it writes on stdout or stderr, which are a terminal as when a person runs it
(a pseudo-terminal). ``play`` gets ``quit`` on its input once it
has shown something, ``serve`` is stopped once it has logged. Reported per command: the
median and the slowest run, and whether the median meets ``--target`` seconds (default 0.5).
Exit status 1 when a command misses it.

Figures on a shared machine are noisy; compare commands within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

POSITIONS = {
    "kuniumi": "6/6/6/6/6/6 setup",
    "comune": "5/6/7/8/9/8/7/6/5 L 0",
    "comino": "- YYYY RRRR 0 0 deal",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments) of every command measured."""
    record = str(tmp / "record.json")
    out = [
        ("--help", ["--help"]),
        ("--version", ["--version"]),
    ]
    for game in ("kuniumi", "comune", "comino", "hexagone"):
        out.append((f"play {game} --vs random", ["play", game, "--vs", "random", "--seed", "1"]))
    for game in ("kuniumi", "comune"):
        out.append((f"play {game} --vs hard", ["play", game, "--vs", "hard", "--seed", "1"]))
    for game, position in POSITIONS.items():
        out.append((f"legal {game}", ["legal", game, position]))
        out.append((f"show {game}", ["show", game, position, "--no-color"]))
    out += [
        ("perft kuniumi 1", ["perft", "kuniumi", POSITIONS["kuniumi"], "1"]),
        ("apply comune", ["apply", "comune", POSITIONS["comune"], "e5-"]),
        ("replay", ["replay", record]),
        ("bench kuniumi", ["bench", "kuniumi", "--seconds", "0.2", "--no-limit"]),
        ("arena kuniumi", ["arena", "kuniumi", "random", "random", "--games", "2"]),
        ("analyze kuniumi", ["analyze", "kuniumi", "--games", "2", "--level", "random"]),
        ("serve", ["serve", "--port", "PORT", "--database", f"sqlite:///{tmp / 'club.db'}"]),
    ]
    return out


def first_output(args: list[str], cwd: Path, timeout: float = 60.0) -> float:
    """Seconds from starting ``ludoteca ARGS`` to its first byte of output.

    Its stdout and stderr are a terminal (a pseudo-terminal), as when a person runs it: a
    progress bar then shows at once, and output is written line by line.
    """
    args = [str(free_port()) if a == "PORT" else a for a in args]
    leader, follower = pty.openpty()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli.main", *args],
        stdin=subprocess.PIPE,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
    )
    os.close(follower)
    try:
        ready, _, _ = select.select([leader], [], [], timeout)
        elapsed = time.perf_counter() - started
        if not ready:
            raise RuntimeError(f"ludoteca {' '.join(args)}: no output in {timeout:g} s")
        if args[0] == "serve":
            proc.terminate()
        else:
            try:
                proc.stdin.write(b"quit\n")
                proc.stdin.close()
            except BrokenPipeError:
                pass
        proc.stdin = None  # closed: nothing more to send
        end = time.perf_counter() + timeout
        while proc.poll() is None and time.perf_counter() < end:  # drain, so it never blocks
            if select.select([leader], [], [], 0.05)[0]:
                try:
                    os.read(leader, 65536)
                except OSError:
                    break
        return elapsed
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(leader)


def make_record(cwd: Path) -> None:
    """A short unfinished record for ``replay``: a game of Kuniumi quit at once."""
    subprocess.run(
        [sys.executable, "-m", "ludoteca.cli.main", "play", "kuniumi", "--vs", "random"]
        + ["--seed", "1", "--record", str(cwd / "record.json")],
        input=b"quit\n",
        capture_output=True,
        cwd=cwd,
        check=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[2].replace("\n", " "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=5,
        help="timed runs of each command, after one untimed run (default 5)",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=0.5,
        help="seconds a command's median may take to its first output (default 0.5)",
    )
    parser.add_argument("--only", help="measure only the commands whose label contains WORD")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        make_record(tmp)
        for label, argv in commands(tmp):
            if args.only and args.only not in label:
                continue
            first_output(argv, tmp)  # warm: files cached, numba's cache filled
            times = [first_output(argv, tmp) for _ in range(args.runs)]
            median = statistics.median(times)
            rows.append(
                {
                    "command": label,
                    "median": round(median, 3),
                    "max": round(max(times), 3),
                    "meets_target": median <= args.target,
                }
            )
            if not args.json:
                mark = "ok" if median <= args.target else "SLOW"
                print(f"{label:28} median {median:6.3f} s  max {max(times):6.3f} s  {mark}")
    failed = not all(r["meets_target"] for r in rows)
    if args.json:
        print(
            json.dumps(
                {"target": args.target, "runs": args.runs, "cpus": os.cpu_count(), "rows": rows},
                indent=2,
            )
        )
    elif rows:
        print(f"every command within {args.target:g} s" if not failed else "SOME COMMANDS MISS")
    return int(failed)


if __name__ == "__main__":
    sys.exit(main())
