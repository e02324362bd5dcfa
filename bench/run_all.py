"""Every benchmark of the project in one run (``make bench``), and one table of the figures.

    python bench/run_all.py [--quick] [--skip NAME,...] [--json]

Each benchmark runs as its own process, one after another, so they do not compete for the
two cores; each prints JSON, and the table at the end gives every figure with its target
and whether it is met:

- ``engines``: random complete games per second of each game, through its fastest path and
  through the game protocol, with the C limits (``limit_GAME.c``) measured in the same run,
  in rounds taking turns (``ludoteca bench``); the figures are the ratios to C;
- ``hexagone``: Hexagone's two-player games per second, and listing the legal moves of the
  reform positions of a generated corpus (``bench/hexagone_reform.py``);
- ``adapters``: the research adapters' steps and observations per second of each game
  (``bench/adapters.py``);
- ``compact``: what a Comune player is sent when a turn offers thousands of moves
  (``bench/compact_view.py``);
- ``startup``: time to the first output of every command (``bench/startup.py``);
- ``pages``: server time of the lobby, rules, leaderboard and game pages, in process
  (``bench/pages.py``);
- ``browser``: a game page's DOMContentLoaded in Chromium on loopback (``bench/page_load.py``);
- ``first_visits``: every page's first visit after the club starts, server time and compressed
  size (``bench/first_visits.py``, on a fresh club);
- ``http_path``: the SQL statements and server time of an API client's requests, in process
  (``bench/http_path.py``);
- ``load``: the club under 200 live games as pages behave (``bench/load.py --page-like``),
  ``load_http`` the same with every move sent as a page without a socket sends it
  (``--http-moves``), and ``load_api`` with players that are API clients without sockets
  (``--api-players``: ``GET /api/games/N`` before each ``POST /api/games/N/move``).
- ``bot_burst``: twelve computer turns at ``medium`` asked in one instant, through the club's
  queue and a pool of its cap: every reply within the level's time + 10%
  (``bench/bot_burst.py``);
- ``tournament``: an arena of 500 players with about 250 games at once, on one process: how
  soon a player whose game ended is in the next one (``bench/tournament.py``).

``--quick`` shortens every measurement (for a look, not for a release note). Figures on a
shared machine are noisy: ratios measured in one run are the figures to quote. Exit status
1 when a benchmark fails to run; missed targets are reported, not an error.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
PY = sys.executable
GAMES = ("kuniumi", "comune", "comino", "hexagone")
MIN_GAMES_PER_S = {"kuniumi": 2000, "comune": 1000, "comino": 300}
"""Random complete games per second each game's issue asks for (fastest path)."""


def load_command(quick: bool) -> list[str]:
    """``bench/load.py`` as pages behave: 200 games (50 when quick), 2 s think time."""
    return [PY, str(BENCH / "load.py"), "--page-like", "--json", "--think", "2",
            "--games", "50" if quick else "200", "--seconds", "10" if quick else "30",
            "--ramp", "5" if quick else "10", "--progress", "1000"]  # fmt: skip


def commands(quick: bool) -> dict[str, list[list[str]]]:
    """Each benchmark's command lines (a few have one per game)."""
    seconds, rounds = ("0.5", "1") if quick else ("1", "3")
    engine = [
        [PY, "-m", "ludoteca.cli.main", "bench", game, "--json", "--seconds", seconds,
         "--rounds", rounds] + (["-o", "players=2"] if game == "hexagone" else [])
        for game in GAMES
    ]  # fmt: skip
    return {
        "engines": engine,
        "hexagone": [
            [PY, str(BENCH / "hexagone_reform.py"), "--json"]
            + (["--positions", "1000"] if quick else [])
        ],
        "adapters": [[PY, str(BENCH / "adapters.py"), "--json", "--seconds", seconds]],
        "compact": [[PY, str(BENCH / "compact_view.py"), "--json"]],
        "startup": [[PY, str(BENCH / "startup.py"), "--json", "--runs", "1" if quick else "3"]],
        "pages": [[PY, str(BENCH / "pages.py"), "--json", "--renders", "100" if quick else "1000"]],
        "first_visits": [[PY, str(BENCH / "first_visits.py"), "--json"]],
        "http_path": [[PY, str(BENCH / "http_path.py"), "--json",
                       "--moves", "100" if quick else "400"]],
        "browser": [[PY, str(BENCH / "page_load.py"), "--json", "--loads", "5" if quick else "20"]],
        "load": [load_command(quick)],
        "load_http": [[*load_command(quick), "--http-moves"]],
        "load_api": [[*load_command(quick), "--api-players"]],
        "bot_burst": [[PY, str(BENCH / "bot_burst.py"), "--json",
                       "--rounds", "2" if quick else "5"]],
        "tournament": [[PY, str(BENCH / "tournament.py"), "--json",
                        "--players", "100" if quick else "500",
                        "--seconds", "30" if quick else "150"]],
    }  # fmt: skip


def run(name: str, command: list[str]) -> Any:
    """One benchmark process: its JSON (the last line or block it prints)."""
    out = subprocess.run(command, capture_output=True, text=True, cwd=BENCH.parent)
    text = out.stdout.strip()
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise RuntimeError(f"{name}: no JSON (exit {out.returncode}): {out.stderr.strip()[-800:]}")
    try:
        return json.loads(text[start:])
    except json.JSONDecodeError:
        return json.loads(text.splitlines()[-1])


def figures(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The summary rows: figure, value, target, met (None where no target applies)."""
    rows: list[dict[str, Any]] = []

    def add(figure: str, value: str, target: str = "", met: bool | None = None) -> None:
        rows.append({"figure": figure, "value": value, "target": target, "met": met})

    for r in results.get("engines", []):
        game = r["game"]
        if "ratio_to_c_limit" in r:
            add(f"{game}: fastest path / C", f"{r['ratio_to_c_limit']:.2f}x")
            ratio = r["api_ratio_to_c_limit"]
            add(f"{game}: protocol / C", f"1/{1 / ratio:.0f}", ">= 1/100", ratio >= 0.01)
        want = MIN_GAMES_PER_S.get(game)
        add(
            f"{game}: games/s (fastest; protocol)",
            f"{r['games_per_s']:,.0f}; {r['api_games_per_s']:,.0f}",
            f">= {want:,}" if want else "",
            r["games_per_s"] >= want if want else None,
        )
    reform = results.get("hexagone")
    if reform:
        worst = reform.get("legal_moves", {}).get("max_ms")
        if worst is not None:
            add("hexagone: reform listing, worst of corpus", f"{worst:.1f} ms", "<= 10 ms",
                worst <= 10)  # fmt: skip
    for r in results.get("adapters", []):
        add(
            f"{r['game']}: adapter steps/s (OpenSpiel; its RL environment; PettingZoo; its "
            "environment alone); observations/s",
            f"{r['openspiel_steps_per_s']:,.0f}; {r.get('openspiel_rl_steps_per_s', 0):,.0f}; "
            f"{r['pettingzoo_steps_per_s']:,.0f}; {r['pettingzoo_env_steps_per_s']:,.0f}; "
            f"{r['observations_per_s']:,.0f}",
        )
    compact = results.get("compact")
    if compact:
        forms = {row["form"]: row for row in compact["rows"]}
        add(
            f"comune view, {compact['legal_moves']:,} moves: whole vs compact",
            f"{forms['whole legal list']['kb']:.0f} KB {forms['whole legal list']['ms']:.0f} ms"
            f" vs {forms['compact']['kb']:.1f} KB {forms['compact']['ms']:.1f} ms",
        )
    startup = results.get("startup")
    if startup:
        slowest = max(startup["rows"], key=lambda row: row["median"])
        add(
            f"start-up, slowest command ({slowest['command']})",
            f"{slowest['median']:.2f} s",
            f"<= {startup['target']} s",
            all(row["meets_target"] for row in startup["rows"]),
        )
    for who in ("visitor", "member"):
        pages = [row for row in results.get("pages", []) if row["who"] == who]
        if pages:
            p50 = max(pages, key=lambda row: row["p50_ms"])
            p99 = max(pages, key=lambda row: row["p99_ms"])
            add(f"pages as {who}: worst p50 ({p50['page']})", f"{p50['p50_ms']:.2f} ms",
                "<= 1 ms", p50["p50_ms"] <= 1)  # fmt: skip
            add(f"pages as {who}: worst p99 ({p99['page']})", f"{p99['p99_ms']:.2f} ms",
                "<= 5 ms", p99["p99_ms"] <= 5)  # fmt: skip
    browser = results.get("browser")
    if browser:
        worst = max(browser, key=lambda row: row["dcl_p50_ms"])
        add(f"game page DOMContentLoaded p50, worst ({worst['game']})",
            f"{worst['dcl_p50_ms']:.0f} ms", "< 150 ms", worst["dcl_p50_ms"] < 150)  # fmt: skip
    visits = results.get("first_visits")
    if visits:
        slow = max(visits, key=lambda row: row["ms"])
        big = max(visits, key=lambda row: row["kb_gzip"])
        add(f"first visit after start, slowest ({slow['page']})", f"{slow['ms']:.0f} ms",
            "<= 200 ms", slow["ms"] <= 200)  # fmt: skip
        add(f"page HTML compressed, largest ({big['page']})", f"{big['kb_gzip']:.1f} KB",
            "< 100 KB", big["kb_gzip"] < 100)  # fmt: skip
    for row in results.get("http_path", []):
        add(f"API client's {row['request']}: statements; p50",
            f"{row['statements_mean']:.2f}; {row['p50_ms']:.2f} ms")  # fmt: skip
    for key, how in (
        ("load", "moves over sockets"),
        ("load_http", "moves over HTTP"),
        ("load_api", "API clients"),
    ):
        load = results.get(key)
        if load:
            p99 = load["p99_ms"]  # the worst of mover, opponent and watcher
            # Issue 46: API clients at 200 games are to make >= 95 of the ~100 moves offered.
            full = key == "load_api" and load["concurrent_games"] >= 200
            add(
                f"load, {load['concurrent_games']} games, {how}: moves/s; p99",
                f"{load['moves_per_s']:.0f}; {p99:.0f} ms",
                ">= 95/s, p99 < 100 ms, nothing lost" if full else "p99 < 100 ms, nothing lost",
                p99 < 100
                and bool(load["verify"]["ok"])
                and (not full or load["moves_per_s"] >= 95),
            )
    burst = results.get("bot_burst")
    if burst:
        add(
            f"{burst['burst']} {burst['level']} turns at once: slowest reply of {burst['rounds']}",
            f"{burst['worst_s'] * 1000:.0f} ms",
            f"<= {burst['bound_s'] * 1000:.0f} ms",
            bool(burst["met"]) and not burst["illegal"],
        )
    arena = results.get("tournament")
    if arena:
        p99 = arena["wait_p99"]
        add(
            f"arena, {arena['players']} players: next game after one ends, p99",
            f"{p99 * 1000:.0f} ms",
            f"<= {arena['target_p99']:g} s",
            p99 <= arena["target_p99"],
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    width = max(len(r["figure"]) for r in rows) + 2
    lines = [f"{'figure':{width}} {'measured':>30}  {'target':<26} met"]
    for r in rows:
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        lines.append(f"{r['figure']:{width}} {r['value']:>30}  {r['target']:<26} {met}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter measurements")
    parser.add_argument("--skip", default="", help="comma-separated benchmarks to leave out")
    parser.add_argument("--only", default="", help="comma-separated benchmarks to run")
    parser.add_argument("--json", action="store_true", help="print every result as JSON")
    args = parser.parse_args()
    plan = commands(args.quick)
    skip = {s for s in args.skip.split(",") if s}
    only = {s for s in args.only.split(",") if s}
    unknown = (skip | only) - set(plan)
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(sorted(unknown))}: use {', '.join(plan)}")
    results: dict[str, Any] = {}
    began = time.monotonic()
    for name, lines in plan.items():
        if name in skip or (only and name not in only):
            continue
        if name == "browser" and not Path("/usr/bin/chromium").exists():
            print("browser: left out, /usr/bin/chromium is not installed", file=sys.stderr)
            continue
        print(f"[{time.monotonic() - began:5.0f} s] {name} …", file=sys.stderr, flush=True)
        try:
            found = [run(name, line) for line in lines]
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        results[name] = found if name == "engines" else found[0]
    print(f"[{time.monotonic() - began:5.0f} s] done", file=sys.stderr)
    rows = figures(results)
    if args.json:
        print(json.dumps({"results": results, "summary": rows}, indent=2))
    else:
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
