"""``ludoteca admin backup`` of a club while it plays, and ``restore`` elsewhere: every
account, game and move committed before the backup began is in the restored club, each
restored game is whole (its moves match its ply), and a backup of the club at rest restores
to an identical database. On SQLite and on the throw-away PostgreSQL. Refusals are one line
and nothing is overwritten without ``--force``."""

from __future__ import annotations

import itertools
import random
import threading
from pathlib import Path

from sqlalchemy import create_engine, inspect, text

from ludoteca.cli.main import main
from ludoteca.web.infra.store import normalise_url
from tests.web.helpers import legal_texts, move
from tests.web.inprocess import club_in_process, new_client, table_game

_fresh = itertools.count()


def rows(url: str) -> dict[str, list[tuple]]:
    """Every row of every table, in a fixed order."""
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            return {
                table: sorted(
                    tuple(map(repr, r)) for r in conn.execute(text(f"SELECT * FROM {table}"))
                )
                for table in inspect(conn).get_table_names()
            }
    finally:
        engine.dispose()


def ids(url: str, sql: str) -> set:
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            return set(conn.execute(text(sql)).all())
    finally:
        engine.dispose()


def other_database(url: str, tmp_path: Path, request) -> str:
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / f'restored{next(_fresh)}.sqlite3'}"
    return request.getfixturevalue("postgres").fresh_database(f"restored{next(_fresh)}")


def test_backup_of_a_busy_club_restores_elsewhere(url, tmp_path, request, capsys):
    with club_in_process(url) as a:
        b = new_client(a)
        games = [table_game(a, b, f"bk{i}a", f"bk{i}b") for i in range(3)]
        stop = threading.Event()
        rng = random.Random(5)

        def play() -> None:  # the club keeps playing through the backup
            while not stop.is_set():
                for pk in games:
                    for client in (a, b):
                        view = client.get(f"/api/games/{pk}").json()
                        if view["your_turn"] and view["status"] != "finished":
                            move(client, pk, rng.choice(legal_texts(view)), view["ply"])

        player = threading.Thread(target=play)
        player.start()
        try:
            before_users = ids(url, "SELECT id, name FROM users")
            before_moves = ids(url, "SELECT game_id, ply, text FROM moves")
            backup = tmp_path / "club.backup"
            assert main(["admin", "backup", str(backup), "--database", url]) == 0
        finally:
            stop.set()
            player.join(timeout=30)
        assert before_moves, "the club had played before the backup"
        restored = other_database(url, tmp_path, request)
        assert main(["admin", "restore", str(backup), "--database", restored]) == 0
        assert before_users <= ids(restored, "SELECT id, name FROM users")
        assert before_moves <= ids(restored, "SELECT game_id, ply, text FROM moves")
        assert set(games) <= {pk for (pk,) in ids(restored, "SELECT id FROM games")}
        # each game whole: as many moves as its ply says (one commit's snapshot)
        whole = ids(
            restored,
            "SELECT g.id, g.ply, (SELECT count(*) FROM moves m WHERE m.game_id = g.id)"
            " FROM games g",
        )
        assert all(ply == count for _, ply, count in whole), whole

        # at rest: the restored club is the same, row for row
        quiet = tmp_path / "quiet.backup"
        assert main(["admin", "backup", str(quiet), "--database", url]) == 0
        again = other_database(url, tmp_path, request)
        assert main(["admin", "restore", str(quiet), "--database", again]) == 0
        assert rows(again) == rows(url)

        # nothing replaced without --force, refused in one line each
        capsys.readouterr()
        assert main(["admin", "backup", str(quiet), "--database", url]) == 2
        assert main(["admin", "restore", str(quiet), "--database", again]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 2 and "already" in err[0] and "--force" in err[1], err
        assert main(["admin", "restore", str(quiet), "--database", again, "--force"]) == 0
        assert rows(again) == rows(url)


def test_refusals(tmp_path, capsys):
    club = tmp_path / "club.sqlite3"
    with club_in_process(f"sqlite:///{club}"):
        pass
    not_backup = tmp_path / "notes.txt"
    not_backup.write_text("hello")
    cases = [
        (["admin", "restore", str(not_backup)], "not a club backup"),
        (["admin", "restore", str(tmp_path / "none")], "no such backup file"),
        (["admin", "backup", str(tmp_path / "nowhere" / "b")], "is not a folder"),
        (
            ["admin", "backup", str(tmp_path / "b"), "--database", f"sqlite:///{tmp_path}/x.db"],
            "no club database",
        ),
    ]
    for argv, said in cases:
        if "--database" not in argv:
            argv = [*argv, "--database", f"sqlite:///{club}"]
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], err
    # a SQLite backup does not restore into PostgreSQL
    assert main(["admin", "backup", str(tmp_path / "ok"), "--database", f"sqlite:///{club}"]) == 0
    assert (
        main(
            [
                "admin",
                "restore",
                str(tmp_path / "ok"),
                "--database",
                "postgresql://nobody@127.0.0.1:1/none",
            ]
        )
        == 2
    )
    assert "restores only to a sqlite database" in capsys.readouterr().err
