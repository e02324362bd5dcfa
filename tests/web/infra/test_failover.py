"""A server process killed in the middle of play loses no accepted move.

Two real ``ludoteca serve`` processes share one real PostgreSQL database. Simulated players
(the load benchmark's client, ``bench/loadclient.py``) play several games through the
websocket, the two seats of each game on different processes, each move a fraction of a
second after the last. Halfway through, one process is killed with SIGKILL, as a crash
would. Its players must reconnect to the other process and carry on; afterwards every move
any client was shown as accepted must be in the stored record, every record must replay
through the engine, and every game in progress at the kill must have gone on (or ended).
"""

from __future__ import annotations

import asyncio

from bench.loadclient import ClubProcesses, Load, verify

GAMES = 6
SECONDS = 8.0
KILL_AFTER = 3.0


def test_killing_a_server_mid_play_loses_no_accepted_move(postgres, tmp_path):
    url = postgres.fresh_database("failover")
    club = ClubProcesses(url, 2, tmp_path).start()
    try:
        load = Load(club.bases, games=GAMES, seconds=SECONDS, think=0.05, seed=8, grace=15)
        at_kill: dict[str, object] = {}

        async def kill_one_server() -> None:
            await asyncio.sleep(KILL_AFTER)
            at_kill["plies"] = {
                pk: len(seen.moves) for pk, seen in load.seen.items() if not seen.finished
            }
            at_kill["accepted"] = load.metrics.accepted
            club.kill(0)

        result = asyncio.run(load.run(on_start=kill_one_server))
        checked = verify(url, load.seen)
    finally:
        club.stop()
    logs = "\n".join(club.log_tail(i) for i in range(2))

    assert checked["problems"] == [], logs
    assert checked["ok"] and checked["accepted_checked"] == result["moves_accepted"]
    plies = at_kill["plies"]
    assert isinstance(plies, dict) and plies, "no game was in progress when the server died"
    assert at_kill["accepted"] > 0, "no move was played before the kill"
    # Each game has one seat on the killed process: they had to reconnect to the other.
    assert result["reconnects"] >= len(plies), result
    stalled = {
        pk: (before, checked["stored_lengths"][pk])
        for pk, before in plies.items()
        if checked["stored_lengths"][pk] < before + 2 and not load.seen[pk].finished
    }
    assert not stalled, f"games that did not go on after the kill (ply then, now): {stalled}"
    assert result["moves_accepted"] > at_kill["accepted"] + 2 * len(plies)
    assert result["refused"] == 0, result["refusals"]
    unexpected = {
        kind: n
        for kind, n in result["errors"].items()
        if not kind.startswith("socket:") and kind != "server closed the socket"
    }
    assert not unexpected, result["errors"]
