"""``/stats`` and profiles' records: the tallies each finished game adds equal a recount
from the games; the page, its JSON and plots answer on a fresh club and after games; a
profile shows favourite game, results by seat and streaks."""

from __future__ import annotations

from sqlalchemy import create_engine, select

from ludoteca.web.infra.store import Store
from ludoteca.web.stats.models import GameTally
from ludoteca.web.stats.service import Stats, user_stats
from ludoteca.web.stats.tallies import outcome, rebuild

from .helpers import accepted, finish, form


def test_stats_answer_on_a_fresh_club(club):
    page = club.get("/stats")
    assert page.status_code == 200 and "No finished games yet" in page.text
    for plot in ("first", "months"):
        assert club.get(f"/stats/{plot}.svg").status_code in (200, 204)
        old = club.get(f"/stats/{plot}.png?lang=de", follow_redirects=False)
        assert old.headers["location"] == f"/stats/{plot}.svg?lang=de"
    assert club.get("/stats/nothing.png").status_code == 404
    assert club.get("/stats/nothing.svg").status_code == 404
    assert club.get("/api/stats").json()["finished"] == 0


def tallies(url: str) -> dict:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = {
            (t.game, t.players, t.month): (t.games, t.first_wins, t.draws, t.decided, t.plies)
            for t in conn.execute(select(GameTally))
        }
    engine.dispose()
    return rows


def test_tallies_count_each_finished_game_as_a_recount_does(person, club_url):
    alice, bob = person(), person()
    for seat in ("first", "second", "first"):
        game = accepted(alice, bob, seat=seat)
        assert finish(alice, bob, game)["status"] == "finished"
    # One more, resigned: it counts as a game but not for the length.
    game = accepted(alice, bob)
    form(alice, f"/games/{game}/resign", f"/games/{game}")
    kept = tallies(club_url)
    engine = create_engine(club_url)
    with engine.begin() as conn:
        counted = rebuild(conn)
    engine.dispose()
    assert counted >= 4
    assert tallies(club_url) == kept
    numbers = Stats(Store(club_url, migrate_schema=False), cache_seconds=0).compute()
    [toy] = [g for g in numbers["games"] if g["game"] == "toy"]
    assert toy["games"] == counted
    assert 0 <= toy["first_low"] <= toy["first_rate"] <= toy["first_high"] <= 1
    assert numbers["active_players"] >= 2
    # A profile's record.
    with Store(club_url, migrate_schema=False).reading() as db:
        from ludoteca.web.infra.store import User

        me = db.scalar(select(User).where(User.name == alice.name))
        mine = user_stats(db, me)
    assert mine["played"] == 4 and mine["favourite"] == "Toy noughts"
    assert sum(s["win"] + s["draw"] + s["loss"] for s in mine["by_seat"]) == 4
    assert 'id="user-stats"' in alice.get(f"/users/{alice.name}").text


def test_outcome_reads_every_ending():
    by_rules = outcome(
        "g", 2, None, 9, {"over": True, "winners": [0], "draw": False, "scores": [5, 3]}
    )
    assert by_rules.counts["first_wins"] == 1 and by_rules.counts["decided"] == 1
    assert by_rules.counts["spread"] == 2 and by_rules.counts["plies"] == 9
    assert by_rules.month == "1970-01"
    drawn = outcome("g", 2, None, 9, {"over": True, "winners": [0, 1], "draw": True})
    assert drawn.counts["draws"] == 1 and drawn.counts["first_wins"] == 0
    resigned = outcome("g", 2, None, 4, {"over": True, "ended": "resignation", "winners": [1]})
    assert resigned.counts["decided"] == 0 and resigned.counts["plies"] == 0
    assert outcome("g", 2, None, 4, None).counts["games"] == 1


def test_an_old_snapshot_is_served_while_a_fresh_one_is_made(club_url, club):
    import time

    stats = Stats(Store(club_url, migrate_schema=False), cache_seconds=0)
    first = stats.snapshot()
    assert "months:en:False" in first.plots  # drawn with the numbers
    again = stats.snapshot()  # stale at once (no cache): answered with the old one
    assert again is first
    deadline = time.monotonic() + 20
    while stats.snapshot() is first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stats.snapshot() is not first
