"""The load benchmark's page-like players send their moves as ``static/game.js`` does.

A page whose socket is open sends each move over it; a page without one POSTs it and shows
the view in the answer (``--http-moves``); an API client reads the position and POSTs its
move without any socket (``--api-players``). Both run here against a real ``ludoteca serve``
on SQLite, with a watcher on every game, and every stored record must hold every move a
client saw accepted."""

from __future__ import annotations

import asyncio

import pytest
from bench.loadclient import ClubProcesses, Load, verify

GAMES = 3
SECONDS = 4.0


def page_like_run(url: str, servers: int, tmp_path, **options) -> tuple[dict, dict, str]:
    """Page-like players against ``servers`` real servers on the database ``url``: the
    benchmark's result, the check of every stored record, and the servers' logs."""
    club = ClubProcesses(url, servers, tmp_path).start()
    try:
        load = Load(
            club.bases, seconds=SECONDS, think=0.05, page_like=True, accounts_in=url, **options
        )
        result = asyncio.run(load.run())
        checked = verify(url, load.seen)
    finally:
        club.stop()
    return result, checked, "".join(club.log_tail(i) for i in range(servers))


@pytest.mark.parametrize("how", ["socket", "http", "api"])
def test_page_like_players_move_as_the_page_does(tmp_path, how):
    """``api``: players without sockets, as API clients, who read the position before each
    move (``--api-players``)."""
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    result, checked, logs = page_like_run(
        url, 1, tmp_path, games=GAMES, seed=3, http_moves=how == "http", api_players=how == "api"
    )
    assert checked["problems"] == [], logs
    assert result["moves_accepted"] > 2 * GAMES, result
    assert result["moves_over"] == how
    http_moves_sent = result["http_move_latency"]["count"]
    if how == "socket":
        assert http_moves_sent == 0
    else:
        assert http_moves_sent >= result["moves_accepted"] - GAMES
    if how == "api":
        assert result["opponent_latency"]["count"] == 0  # nobody but the watcher has a socket
    assert result["watcher_latency"]["count"] > 0
    assert not result["errors"] and result["refused"] == 0, result


def test_servers_can_run_from_another_source_tree(tmp_path):
    """``--server-src``: the servers import the club from the given tree (here a tree whose
    package is this one, linked), so two revisions can meet the same client; the records
    are then checked after bringing the schema to this revision's."""
    from pathlib import Path

    import ludoteca

    other = tmp_path / "other-src"
    other.mkdir()
    (other / "ludoteca").symlink_to(Path(ludoteca.__file__).resolve().parent)
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    club = ClubProcesses(url, 1, tmp_path, server_src=other).start()
    try:
        process = club.procs[0]
        assert process is not None
        environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        path = next(e for e in environ if e.startswith(b"PYTHONPATH="))
        assert path.split(b"=", 1)[1].split(b":")[0] == str(other).encode()
        load = Load(club.bases, games=2, seconds=2.0, think=0.05, seed=5, page_like=True,
                    accounts_in=url)  # fmt: skip
        result = asyncio.run(load.run())
    finally:
        club.stop()
    checked = verify(url, load.seen, upgrade=True)
    assert checked["problems"] == [] and result["moves_accepted"] > 0, result


def test_game_affinity_puts_every_seat_of_a_game_on_one_server():
    """``--game-affinity``: a group of players (one game at a time) shares a server, and the
    groups are spread over the servers; without it a game's seats sit on different ones."""
    bases = ["http://a", "http://b"]
    spread = Load(bases, games=4, seconds=1, think=0, game="kuniumi")
    by_game = Load(bases, games=4, seconds=1, think=0, game="kuniumi", game_affinity=True)
    seats = by_game.seats
    groups = [range(g * seats, (g + 1) * seats) for g in range(4)]
    assert all(len({by_game.home_of(i) for i in group}) == 1 for group in groups)
    assert {by_game.home_of(group[0]) for group in groups} == {0, 1}
    assert all(len({spread.home_of(i) for i in group}) == 2 for group in groups)


@pytest.mark.parametrize("by_game", [True, False], ids=["by-game", "seats-spread"])
def test_two_servers_lose_nothing(postgres, tmp_path, by_game):
    """Page-like players on two servers sharing PostgreSQL, with every connection of a game
    on one of them or a game's seats on both (each move then reaches the other server in its
    notification's news): the moves are accepted, and every stored record holds them."""
    url = postgres.fresh_database(f"two_servers_{by_game}")
    result, checked, logs = page_like_run(
        url, 2, tmp_path, games=GAMES + 1, seed=4, game_affinity=by_game
    )
    assert result["client_loop_lag"]["count"] > 0, result
    assert checked["problems"] == [], logs
    assert result["moves_accepted"] > 2 * GAMES, result
    assert not result["errors"] and result["refused"] == 0, result
