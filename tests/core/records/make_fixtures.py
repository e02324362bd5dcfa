"""Write the record fixtures in this folder with the writers as they are: the command line's
``play``, the arena, and the web club (in this process, on a throw-away SQLite file).

The fixtures are kept so that every later change to records is checked against records
written before it (they must still replay). Run from the repository root:

    python -m tests.core.records.make_fixtures

It overwrites the files of this folder; commit them only when a writer's format changed on
purpose.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
GAMES = {"comune": [], "comino": [], "kuniumi": [], "hexagone": ["-o", "players=2"]}


def cli(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "ludoteca.cli.main", *args], check=True, cwd=ROOT)


def from_command_line() -> None:
    for game, options in GAMES.items():
        out = HERE / f"play-{game}.json"
        cli(
            "play", game, *options, "--seats", "random,random", "--seed", "11", "--record", str(out)
        )


def from_arena() -> None:
    for game, options in GAMES.items():
        with tempfile.TemporaryDirectory() as folder:
            cli(
                "arena",
                game,
                "random",
                "greedy",
                *options,
                "--games",
                "1",
                "--seed",
                "12",
                "--jobs",
                "1",
                "--out",
                folder,
            )
            (record,) = [p for p in Path(folder).rglob("*.json") if "summary" not in p.name]
            (HERE / f"arena-{game}.json").write_text(record.read_text())


def from_club() -> None:
    import random

    from tests.web.helpers import create_game, page_csrf, play_randomly, register
    from tests.web.inprocess import club_in_process

    with (
        tempfile.TemporaryDirectory() as folder,
        club_in_process(f"sqlite:///{folder}/club.sqlite3") as client,
    ):
        assert register(client, "fixture").status_code == 303
        for game in GAMES:
            players = 2 if game == "hexagone" else None
            pk = create_game(client, game, [("me", ""), ("bot", "random")], players)
            play_randomly(client, pk, random.Random(13), seconds=300)
            record = client.get(f"/games/{pk}/record.json").json()
            (HERE / f"club-{game}.json").write_text(json.dumps(record, indent=2) + "\n")
        # A game ended by a resignation, a few moves in.
        pk = create_game(client, "comino", [("me", ""), ("bot", "random")])
        # three moves, then resign on our own turn, the board settled
        view = play_randomly(client, pk, random.Random(14), moves=3)
        r = client.post(
            f"/api/games/{pk}/resign",
            json={"ply": view["ply"]},
            headers={"X-CSRF-Token": page_csrf(client)},
        )
        assert r.status_code == 200, r.text
        record = client.get(f"/games/{pk}/record.json").json()
        (HERE / "club-comino-resigned.json").write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    from_command_line()
    from_arena()
    from_club()
