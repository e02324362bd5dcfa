"""A Swiss played to the end on PostgreSQL by two real ``ludoteca serve`` processes, each
running its tournament director, while one is killed (as a crash would) and started again
and then the other is killed: every round is paired once, never twice, every game made once, and no
result is lost. The members act only through HTTP (the tournament's forms, the game's API)."""

from __future__ import annotations

import time
from collections import Counter

import httpx
from bench.loadclient import CSRF_RE, ClubProcesses, open_accounts
from sqlalchemy import create_engine, func, select

from ludoteca.web.infra.store import GameRow, User, normalise_url
from ludoteca.web.tournaments.models import Tournament, TournamentGame

NAMES = ["tw0", "tw1", "tw2", "tw3", "tw4"]
ROUNDS = 3
GAMES_A_ROUND = 2  # five players: two games and a bye


class Member:
    def __init__(self, name: str, token: str) -> None:
        self.name = name
        self.http = httpx.Client(
            headers={"Cookie": f"ludoteca_session={token}"}, timeout=20, follow_redirects=False
        )

    def csrf(self, base: str) -> str:
        page = self.http.get(base + "/tournaments")
        match = CSRF_RE.search(page.text)
        assert match, (page.status_code, page.text[:300])
        return match.group(1) or match.group(2)

    def post_form(self, base: str, path: str, data: dict[str, str]) -> str:
        r = self.http.post(base + path, data={**data, "csrf": self.csrf(base)})
        assert r.status_code == 303, (path, r.status_code, r.text[:500])
        return r.headers["location"]

    def view(self, base: str, game: int) -> dict:
        r = self.http.get(f"{base}/api/games/{game}")
        assert r.status_code == 200, r.text[:300]
        return r.json()

    def api(self, base: str, game: int, action: str, body: dict) -> None:
        token = {"X-CSRF-Token": self.csrf(base)}
        r = self.http.post(f"{base}/api/games/{game}/{action}", json=body, headers=token)
        assert r.status_code == 200, (action, r.status_code, r.text[:300])


def test_two_processes_killed_and_restarted_pair_each_round_once_and_lose_no_result(
    postgres, tmp_path
):
    url = postgres.fresh_database("tournament_two")
    club = ClubProcesses(url, 2, tmp_path).start()
    engine = create_engine(normalise_url(url))
    try:
        people = [Member(n, t) for n, t in zip(NAMES, open_accounts(url, NAMES), strict=True)]
        with engine.connect() as conn:
            ids = dict(conn.execute(select(User.name, User.id)).all())
        by_id = {ids[p.name]: p for p in people}
        where = people[0].post_form(
            club.bases[0],
            "/tournaments",
            {
                "name": "Two servers",
                "game": "comune",
                "form": "swiss",
                "rounds": str(ROUNDS),
                "starts_in": "5",
                "clock": "live",
                "clock_base": "5",
                "clock_increment": "0",
            },
        )
        tid = int(where.rsplit("/", 1)[1])
        for i, p in enumerate(people[1:]):
            p.post_form(club.bases[i % 2], f"/tournaments/{tid}/join", {})
        people[0].post_form(club.bases[1], f"/tournaments/{tid}/start", {})

        def paired(r: int) -> list[int]:
            """Waits until round ``r``'s games are made and joined; their ids."""
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                with engine.connect() as conn:
                    rows = conn.execute(
                        select(TournamentGame.game_id, GameRow.status)
                        .outerjoin(GameRow, GameRow.id == TournamentGame.game_id)
                        .where(
                            TournamentGame.tournament_id == tid,
                            TournamentGame.round == r,
                            TournamentGame.points.is_(None),
                        )
                    ).all()
                if len(rows) == GAMES_A_ROUND and all(s == "active" for _, s in rows):
                    return sorted(g for g, _ in rows)
                time.sleep(0.1)
            raise AssertionError(f"round {r} was not paired: {rows}")

        def play(game: int, through: str) -> None:
            """The player to move makes a move; the other then resigns (the mover wins)."""
            with engine.connect() as conn:
                seated = conn.scalar(
                    select(TournamentGame.players).where(TournamentGame.game_id == game)
                )
            members = [by_id[u] for u in seated]
            views = [m.view(through, game) for m in members]
            mover = next(i for i, v in enumerate(views) if v["your_turn"])
            first = views[mover]
            members[mover].api(
                through, game, "move", {"move": first["legal"][0]["text"], "ply": first["ply"]}
            )
            members[1 - mover].api(through, game, "resign", {})
            winners[game] = seated[mover]

        winners: dict[int, int] = {}
        # Round 1: server 0 crashes with the games under way; they end through server 1,
        # the last after server 0 is back, so both directors see the round end together.
        first = paired(1)
        club.kill(0)
        play(first[0], club.bases[1])
        club.restart(0)
        play(first[1], club.bases[0])
        # Round 2: server 1 crashes; server 0 alone takes the results and pairs round 3.
        second = paired(2)
        club.kill(1)
        for game in second:
            play(game, club.bases[0])
        for game in paired(3):
            play(game, club.bases[0])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                t = conn.execute(select(Tournament).where(Tournament.id == tid)).one()
            if t.status == "finished":
                break
            time.sleep(0.1)
        with engine.connect() as conn:
            rows = conn.execute(
                select(TournamentGame).where(TournamentGame.tournament_id == tid)
            ).all()
            games_made = conn.scalar(select(func.count()).select_from(GameRow))
            results = dict(conn.execute(select(GameRow.id, GameRow.result)).all())
    finally:
        club.stop()
        engine.dispose()
    logs = "\n".join(club.log_tail(i) for i in range(2))
    assert t.status == "finished" and t.round == ROUNDS, (t, logs)
    assert Counter(r.round for r in rows) == {r: GAMES_A_ROUND + 1 for r in range(1, 4)}, rows
    for r in range(1, ROUNDS + 1):
        seated = sorted(p for row in rows if row.round == r for p in row.players)
        assert seated == sorted(ids.values()), (r, rows)  # everyone once a round
    met = Counter(frozenset(row.players) for row in rows if len(row.players) == 2)
    assert set(met.values()) == {1}, met  # five players, three rounds: no repeats
    byes = [row.players[0] for row in rows if len(row.players) == 1]
    assert len(set(byes)) == ROUNDS, byes
    games = [row.game_id for row in rows if row.game_id is not None]
    assert sorted(games) == sorted(winners) and games_made == len(games), (games, games_made)
    for row in rows:  # every result reached its pairing, crash or not
        if row.game_id is None:
            assert row.points == [1.0]
            continue
        assert results[row.game_id]["winners"] == [row.players.index(winners[row.game_id])]
        assert row.points == [1.0 if p == winners[row.game_id] else 0.0 for p in row.players]
