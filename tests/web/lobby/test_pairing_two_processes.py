"""Quick pairing across two real ``ludoteca serve`` processes on one PostgreSQL database:
many people seek in the same cell at once, half through each process; every seek is paired
at most once (each person in one game, with someone else), seeks made through different
processes meet, nobody is paired with someone who blocks them, and someone who sought and
left before the others came is paired with nobody."""

from __future__ import annotations

import asyncio

from bench.loadclient import ClubProcesses, open_accounts
from bench.pairing import Seeker, cells, check_games, seek
from sqlalchemy import create_engine, insert, select

from ludoteca.web.infra.store import User, normalise_url
from ludoteca.web.moderation.models import Block

PEOPLE = 24


def test_seeks_from_two_processes_are_paired_once_never_with_the_blocked_or_absent(
    postgres, tmp_path
):
    url = postgres.fresh_database("pairing")
    club = ClubProcesses(url, 2, tmp_path).start()
    try:
        names = [f"pg{i}" for i in range(PEOPLE)] + ["blocker", "blocked", "gone"]
        tokens = open_accounts(url, names)
        engine = create_engine(normalise_url(url))
        with engine.begin() as conn:
            ids = dict(conn.execute(select(User.name, User.id)).all())
            conn.execute(insert(Block).values(user_id=ids["blocker"], blocked_id=ids["blocked"]))
        engine.dispose()
        cell = cells(1)[0]
        people = {
            name: Seeker(name, f"ludoteca_session={token}", club.bases[i % 2], cell)
            for i, (name, token) in enumerate(zip(names, tokens, strict=True))
        }
        gone = people.pop("gone")

        async def scenario() -> None:
            await seek(gone, cancel_after=0.5)  # seeks, then closes the page
            await asyncio.sleep(0.3)
            apart = [
                asyncio.create_task(seek(people[n], timeout=30)) for n in ("blocker", "blocked")
            ]
            others = [p for n, p in people.items() if n not in ("blocker", "blocked")]
            await asyncio.gather(*(seek(p, timeout=20) for p in others))
            await asyncio.sleep(1.5)  # a round of both pools: the two may be all that is left
            for task in apart:
                task.cancel()
            await asyncio.gather(*apart, return_exceptions=True)

        asyncio.run(scenario())
        problems = check_games(url, [*people.values(), gone])
    finally:
        club.stop()
    logs = "\n".join(club.log_tail(i) for i in range(2))
    assert not problems, (problems, logs)
    assert not any(p.errors for p in people.values()), [p.errors for p in people.values()]
    assert gone.game is None
    games: dict[int, list[Seeker]] = {}
    for p in people.values():
        if p.game is not None:
            games.setdefault(p.game, []).append(p)
    assert all(len(table) == 2 for table in games.values()), games
    unpaired = {name for name, p in people.items() if p.game is None}
    assert unpaired <= {"blocker", "blocked"}, unpaired
    assert people["blocker"].game is None or people["blocker"].game != people["blocked"].game
    across = [t for t in games.values() if t[0].base != t[1].base]
    assert across, "no seek made through one process met one made through the other"
