"""Tournaments played to the end through the club's services (the toy game, every game
resigned or won at once), on SQLite and PostgreSQL: Swiss and arena standings, byes, the
finish hook, restart safety and two processes pairing one round once."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, Store, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.notify.models import Notification
from ludoteca.web.round.service import GameService, GameSettings
from ludoteca.web.tournaments.director import Director, finish_hook
from ludoteca.web.tournaments.models import Tournament, TournamentGame
from ludoteca.web.tournaments.service import Tournaments, checked

PASSWORD = "a fine password"
BLITZ = GameSettings(clock={"kind": "live", "base": 180, "increment": 2})


class Club:
    """One server process's tournament parts over ``url``."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        self.games = GameService(self.store)
        self.games.on_finish.append(finish_hook)
        self.tournaments = Tournaments(self.store)
        self.director = Director(self.store, self.games)


@pytest.fixture
def club(url):
    one = Club(url)
    yield one
    one.store.dispose()


def members(club: Club, n: int, prefix: str = "p"):
    accounts = Accounts(club.store, b"k" * 32)
    return [accounts.register(f"{prefix}{i}", PASSWORD) for i in range(n)]


def new(club: Club, creator, form: str, **fields: str) -> int:
    data = {"name": f"a {form}", "game": "toy", "form": form, "starts_in": "0", **fields}
    return club.tournaments.create(creator, checked(data, BLITZ))


def resign_all(club: Club, tid: int, people, loser=lambda players: players[-1]) -> int:
    """Ends every game of ``tid`` in progress: the chosen player resigns."""
    by_id = {u.id: u for u in people}
    with club.store.session() as db:
        running = db.execute(
            select(TournamentGame.game_id, TournamentGame.players)
            .join(GameRow, GameRow.id == TournamentGame.game_id)
            .where(TournamentGame.tournament_id == tid, GameRow.status == "active")
        ).all()
    for game, players in running:
        club.games.resign(game, by_id[loser(players)])
    return len(running)


def pairings(club: Club, tid: int) -> list[TournamentGame]:
    with club.store.session() as db:
        return list(
            db.scalars(
                select(TournamentGame)
                .where(TournamentGame.tournament_id == tid)
                .order_by(TournamentGame.id)
            )
        )


def status(club: Club, tid: int) -> str:
    with club.store.session() as db:
        return db.get(Tournament, tid).status


def test_a_swiss_is_played_to_the_end_with_byes_spread_and_standings_from_the_games(club):
    people = members(club, 5)
    tid = new(club, people[0], "swiss", rounds="3")
    for u in people[1:]:
        club.tournaments.join(tid, u)
    with pytest.raises(ClubError):
        club.tournaments.join(tid + 99, people[1])
    for _ in range(12):
        club.director.tick()
        resign_all(club, tid, people, loser=lambda players: max(players))
        if status(club, tid) == "finished":
            break
    assert status(club, tid) == "finished"
    rows = pairings(club, tid)
    by_round = Counter(g.round for g in rows)
    assert sorted(by_round) == [1, 2, 3]
    for r in (1, 2, 3):
        seated = [p for g in rows if g.round == r for p in g.players]
        assert sorted(seated) == sorted(u.id for u in people)  # everyone once a round
    byes = [g.players[0] for g in rows if len(g.players) == 1]
    assert len(byes) == 3 and len(set(byes)) == 3
    met = Counter(frozenset(g.players) for g in rows if len(g.players) == 2)
    assert max(met.values()) == 1  # five players, three rounds: nobody meets twice
    view = club.tournaments.view(tid, people[0])
    recount = Counter()
    for g in rows:
        for p, x in zip(g.players, g.points, strict=True):
            recount[p] += x
    assert {line.user_id: line.points for line in view.lines} == dict(recount)
    assert [line.points for line in view.lines] == sorted(recount.values(), reverse=True)
    assert len(view.podium) == 3
    with club.store.session() as db:
        kinds = Counter(
            n.kind
            for n in db.scalars(select(Notification).where(Notification.user_id == people[1].id))
        )
    assert kinds["tournament"] == 2  # started, ended
    assert kinds["pairing"] >= 2
    places = club.tournaments.of_member(people[1].id)
    assert places[0][0].id == tid and places[0][1] is not None


def test_an_arena_pairs_whoever_is_free_again_and_ends_on_time(club):
    people = members(club, 4, "a")
    tid = new(club, people[0], "arena", minutes="1")
    for u in people[1:]:
        club.tournaments.join(tid, u)
    assert club.tournaments.pause(tid, people[3]) is True  # paused: never paired
    club.director.tick()
    assert len(pairings(club, tid)) == 1
    # the first seat always wins: a winning streak doubles the points after two wins
    for _ in range(4):
        resign_all(club, tid, people)
        club.director.tick()
    rows = pairings(club, tid)
    assert all(people[3].id not in g.players for g in rows)
    assert len(rows) >= 4
    with club.store.session() as db:
        db.execute(update(Tournament).where(Tournament.id == tid).values(ends=utcnow()))
        db.commit()
    club.director.tick()
    assert status(club, tid) == "running"  # a game under way is played out
    resign_all(club, tid, people)
    club.director.tick()
    assert status(club, tid) == "finished"
    assert len(pairings(club, tid)) == len(rows)  # nobody paired after the end
    view = club.tournaments.view(tid, None)
    assert view.lines[0].points >= 2 and sum(line.games for line in view.lines) == 2 * len(rows)


def test_a_restart_and_a_second_process_pair_each_round_once(club, url):
    people = members(club, 4, "r")
    tid = new(club, people[0], "swiss", rounds="2")
    for u in people[1:]:
        club.tournaments.join(tid, u)
    club.director._start(tid)
    club.director._advance(tid)  # round 1 paired, then the process stops before any game
    with club.store.session() as db:  # ... a while ago: its claims on the pairings lapsed
        db.execute(update(TournamentGame).values(making=utcnow() - timedelta(minutes=5)))
        db.commit()
    other = Club(url)  # the restarted process, and a second one at the same time
    third = Club(url)
    try:
        threads = [threading.Thread(target=c.director.tick) for c in (other, third, other, third)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows = pairings(other, tid)
        assert len(rows) == 2 and all(g.game_id is not None for g in rows)
        assert len({g.game_id for g in rows}) == 2
        resign_all(other, tid, people)
        threads = [threading.Thread(target=c.director.tick) for c in (other, third) * 3]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows = pairings(other, tid)
        assert Counter(g.round for g in rows) == {1: 2, 2: 2}
        # a pairing whose maker stopped after claiming it is made again later, once
        with other.store.session() as db:
            db.execute(
                update(TournamentGame)
                .where(TournamentGame.round == 2)
                .values(game_id=None, making=utcnow() - timedelta(minutes=5))
            )
            db.commit()
        other.director.tick()
        third.director.tick()
        assert all(g.game_id is not None for g in pairings(third, tid))
    finally:
        other.store.dispose()
        third.store.dispose()


def test_bad_requests_are_refused_and_change_nothing(club):
    (alice,) = members(club, 1, "b")
    bad = [
        {"name": "", "game": "toy", "form": "swiss"},
        {"name": "x", "game": "nogame", "form": "swiss"},
        {"name": "x", "game": "toy", "form": "knockout"},
        {"name": "x", "game": "toy", "form": "swiss", "rounds": "99"},
        {"name": "x", "game": "toy", "form": "arena", "minutes": "-3"},
        {"name": "x", "game": "toy", "form": "round-robin", "max_players": "40"},
        {"name": "x" * 200, "game": "toy", "form": "arena"},
    ]
    for data in bad:
        with pytest.raises(ClubError):
            checked(data, BLITZ)
    with pytest.raises(ClubError):
        checked({"name": "x", "game": "toy", "form": "swiss"}, GameSettings())  # untimed
    for _ in range(3):
        new(club, alice, "arena")
    with pytest.raises(ClubError):
        new(club, alice, "arena")  # the limit of tournaments per member
    with club.store.session() as db:
        assert len(db.scalars(select(Tournament)).all()) == 3


def test_a_round_robin_meets_everyone_once_and_sits_out_in_turn(tmp_path):
    club = Club(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        people = members(club, 3, "c")
        tid = new(club, people[0], "round-robin")
        for u in people[1:]:
            club.tournaments.join(tid, u)
        for _ in range(8):
            club.director.tick()
            resign_all(club, tid, people)
            if status(club, tid) == "finished":
                break
        assert status(club, tid) == "finished"
        rows = pairings(club, tid)
        ids = sorted(u.id for u in people)
        assert sorted(tuple(sorted(g.players)) for g in rows) == [
            (ids[0], ids[1]),
            (ids[0], ids[2]),
            (ids[1], ids[2]),
        ]
        assert Counter(g.round for g in rows) == {1: 1, 2: 1, 3: 1}
    finally:
        club.store.dispose()


def test_the_clubs_recurring_tournament_announces_its_next_edition_as_it_starts(tmp_path):
    from ludoteca.web.moderation.service import grant

    club = Club(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        mod, member = members(club, 2, "m")
        with pytest.raises(ClubError):
            new(club, member, "arena", repeat_days="7")  # members schedule one at a time
        with club.store.session() as db:
            grant(db, db.get(type(mod), mod.id), "moderator")
            db.commit()
        tid = new(club, mod, "arena", repeat_days="7")
        club.tournaments.join(tid, member)
        club.director.tick()
        club.director.tick()  # a second look makes no second edition
        with club.store.session() as db:
            rows = db.scalars(select(Tournament).order_by(Tournament.id)).all()
            assert [t.status for t in rows] == ["running", "upcoming"]
            assert rows[1].starts - rows[0].starts == timedelta(days=7)
            assert rows[1].repeat_days == 7
    finally:
        club.store.dispose()


def test_who_runs_out_of_time_without_a_move_is_paused(tmp_path):
    club = Club(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        people = members(club, 2, "t")
        tid = new(club, people[0], "arena")
        club.tournaments.join(tid, people[1])
        (game,) = club.director.tick()
        with club.store.session() as db:
            row = db.get(GameRow, game)
            late = row.to_move
            db.execute(update(GameRow).where(GameRow.id == game).values(deadline=utcnow()))
            db.commit()
        assert club.games.expire_overdue() == [game]
        view = club.tournaments.view(tid, None)
        state = {line.user_id: line.state for line in view.lines}
        away = pairings(club, tid)[0].players[late]
        assert state[away] == "paused" and list(state.values()).count("paused") == 1
        assert club.director.tick() == []  # nobody to pair the other player with
    finally:
        club.store.dispose()


def test_a_player_who_withdraws_from_a_swiss_is_paired_no_more(tmp_path):
    club = Club(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        people = members(club, 4, "w")
        tid = new(club, people[0], "swiss", rounds="2")
        for u in people[1:]:
            club.tournaments.join(tid, u)
        club.director.tick()
        resign_all(club, tid, people)
        club.tournaments.withdraw(tid, people[3])
        club.director.tick()
        second = [g.players for g in pairings(club, tid) if g.round == 2]
        assert sorted(p for players in second for p in players) == sorted(u.id for u in people[:3])
        assert any(len(players) == 1 for players in second)  # three left: one bye
    finally:
        club.store.dispose()


def test_tournament_mails_go_in_the_members_language_to_those_who_want_them(tmp_path):
    """Start, a correspondence pairing and the end are e-mailed (a live pairing is not: the
    page opens the game), in each member's language, only to confirmed addresses whose
    owners have not turned tournament e-mail off."""
    from ludoteca.web.infra.store import User
    from ludoteca.web.notify.links import read_unsubscribe, unsubscribe_token
    from ludoteca.web.notify.models import MailOut, NotificationPrefs
    from ludoteca.web.notify.service import unsubscribe

    club = Club(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    try:
        people = members(club, 3, "e")
        wants = {people[0].id: True, people[1].id: True, people[2].id: False}
        with club.store.session() as db:
            db.get(User, people[1].id).language = "de"
            for uid, on in wants.items():
                db.add(
                    NotificationPrefs(
                        user_id=uid,
                        email=f"u{uid}@example.org",
                        email_confirmed=True,
                        email_turns=False,
                        email_challenges=False,
                        email_tournaments=on,
                    )
                )
            db.commit()
        post = GameSettings(clock={"kind": "correspondence", "days": 3})
        data = {"name": "By post", "game": "toy", "form": "swiss", "rounds": "2", "starts_in": "0"}
        tid = club.tournaments.create(people[0], checked(data, post))
        live = new(club, people[0], "arena")
        for u in people[1:]:
            club.tournaments.join(tid, u)
        club.tournaments.join(live, people[1])
        club.director.tick()
        for _ in range(5):
            resign_all(club, tid, people)
            club.director.tick()
        assert status(club, tid) == "finished"
        with club.store.session() as db:
            mails = db.scalars(select(MailOut).order_by(MailOut.id)).all()
        got = Counter(m.user_id for m in mails)
        assert people[2].id not in got  # turned off
        assert all(m.kind == "tournaments" for m in mails)
        mine = [m.body for m in mails if m.user_id == people[0].id]
        assert "The tournament By post has started." in mine
        assert any(b.startswith("Your next game in By post") for b in mine)
        assert any(b.startswith("The tournament By post is over") for b in mine)
        assert "The tournament a arena has started." in mine
        assert not any(b.startswith("Your next game in a arena") for b in mine)  # live: no mail
        german = [m.body for m in mails if m.user_id == people[1].id and "By post" in m.body]
        assert "Das Turnier By post hat begonnen." in german, german
        assert any(b.startswith("Deine nächste Partie in By post") for b in german)
        # the e-mails' one-click unsubscribe turns this kind off
        uid = people[0].id
        token = unsubscribe_token(b"s" * 32, uid, "tournaments", 0)
        assert read_unsubscribe(b"s" * 32, token) == (uid, "tournaments", 0)
        with club.store.session() as db:
            assert unsubscribe(db, uid, "tournaments", 0)
            db.commit()
            assert db.get(NotificationPrefs, uid).email_tournaments is False
    finally:
        club.store.dispose()
