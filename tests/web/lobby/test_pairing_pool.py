"""The quick-pairing pool's rules, in process on a real SQLite database: who is paired with
whom (same cell, rating range widening while waiting, never with a blocked or absent
person, rated tables only people), tables of more than two, seats balanced over recent
games, and that no seek is ever paired twice, even with two pools (as two server
processes) matching the same seeks at once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from ludoteca.web.infra.store import GameRow, Store, User, utcnow
from ludoteca.web.lobby.pairing import matching
from ludoteca.web.lobby.pairing.models import Seek
from ludoteca.web.lobby.pairing.pool import ABSENT_SECONDS, Cell, Pool
from ludoteca.web.moderation.models import Block
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.service import GameService

TWO = next(g for g, c in available_games().items() if c.min_players == c.max_players == 2)
MANY = next(g for g, c in available_games().items() if c.max_players >= 3)


@pytest.fixture
def store(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    yield s
    s.dispose()


@pytest.fixture
def pool(store):
    return Pool(store, GameService(store), "here")


def people(store, *names: str) -> list[User]:
    with store.session() as db:
        rows = [User(name=n, name_key=n.lower(), password_hash="x") for n in names]
        db.add_all(rows)
        db.commit()
        return rows


def cell(game=TWO, players=2, control="10+5", rated=False) -> Cell:
    return Cell(game, players, control, rated)


def game_of(store, seek_id: int) -> int | None:
    with store.session() as db:
        return db.scalar(select(Seek.game_id).where(Seek.id == seek_id))


def test_two_seekers_of_one_cell_are_paired_at_once_into_one_game(store, pool):
    a, b, c = people(store, "ann", "bob", "cy")
    first = pool.seek(a, cell())
    assert pool.match(cell()) == []  # alone: waits
    other_cell = pool.seek(c, cell(control="3d"))
    second = pool.seek(b, cell())
    made = pool.match(cell())
    assert len(made) == 1
    assert game_of(store, first) == game_of(store, second) == made[0]
    assert game_of(store, other_cell) is None  # another time control: not paired
    with store.session() as db:
        row = db.get(GameRow, made[0])
        assert row.status == "active" and row.clock == {"kind": "live", "base": 600, "increment": 5}
        assert {s.user_id for s in row.seats} == {a.id, b.id}
    assert pool.match() == []  # never twice


def test_the_rating_range_widens_while_a_seeker_waits(store, pool):
    a, b = people(store, "ann", "bob")
    far = matching.BASE_RANGE * 3
    first, second = pool.seek(a, cell()), pool.seek(b, cell())
    with store.session() as db:
        db.execute(update(Seek).where(Seek.id == second).values(rating=1500 + far))
        db.commit()
    assert pool.match(cell()) == []  # too far apart for new seekers
    waited = (far - matching.BASE_RANGE) / matching.WIDEN_PER_SECOND + 1
    with store.session() as db:
        db.execute(update(Seek).values(created=utcnow() - timedelta(seconds=waited)))
        db.commit()
    assert len(pool.match(cell())) == 1
    assert game_of(store, first) == game_of(store, second) is not None


def test_nobody_is_paired_with_someone_they_block_or_who_blocks_them(store, pool):
    a, b, c = people(store, "ann", "bob", "cy")
    with store.session() as db:
        db.add(Block(user_id=b.id, blocked_id=a.id))
        db.commit()
    first, second = pool.seek(a, cell()), pool.seek(b, cell())
    assert pool.match(cell()) == []
    third = pool.seek(c, cell())
    assert len(pool.match(cell())) == 1
    assert game_of(store, first) == game_of(store, third) is not None  # the oldest, with cy
    assert game_of(store, second) is None  # bob waits on


def test_an_absent_seeker_is_never_paired(store, pool):
    a, b, c = people(store, "ann", "bob", "cy")
    gone = pool.seek(a, cell())
    with store.session() as db:
        stale = utcnow() - timedelta(seconds=ABSENT_SECONDS + 1)
        db.execute(update(Seek).where(Seek.id == gone).values(alive=stale))
        db.commit()
    pool.seek(b, cell())
    assert pool.match(cell()) == []
    left = pool.seek(c, cell(control="none"))
    pool.forget(left)  # the page closed
    assert pool.match() == []
    assert pool.sweep_absent() == 1


def test_a_rated_seek_makes_a_rated_game_of_people_only(store, pool):
    a, b, c = people(store, "ann", "bob", "cy")
    pool.seek(a, cell(rated=True))
    pool.seek(c, cell(rated=False))  # casual: not mixed with rated seeks
    pool.seek(b, cell(rated=True))
    (pk,) = pool.match()
    with store.session() as db:
        row = db.get(GameRow, pk)
        assert row.rated
        assert all(s.kind == "user" and s.user_id in (a.id, b.id) for s in row.seats)


def test_seekers_for_a_bigger_table_fill_it(store, pool):
    a, b, c, d = people(store, "ann", "bob", "cy", "dee")
    three = cell(game=MANY, players=3, control="none")
    ids = [pool.seek(p, three) for p in (a, b)]
    pool.seek(d, cell(game=MANY, players=2, control="none"))
    assert pool.match() == []  # two of three, and one alone at a table of two
    ids.append(pool.seek(c, three))
    (pk,) = pool.match()
    assert {game_of(store, i) for i in ids} == {pk}
    with store.session() as db:
        assert {s.user_id for s in db.get(GameRow, pk).seats} == {a.id, b.id, c.id}


def test_seats_are_balanced_over_recent_games(store, pool):
    a, b = people(store, "ann", "bob")
    firsts = []
    for _ in range(2):
        for p in (a, b):  # the same order of arrival each time
            pool.seek(p, cell())
        (pk,) = pool.match()
        with store.session() as db:
            firsts.append(db.get(GameRow, pk).seats[0].user_id)
    assert firsts[1] != firsts[0]  # who sat first last time sits second now


def test_no_seek_is_paired_twice_when_two_pools_match_at_once(store):
    pools = [Pool(store, GameService(store), f"p{i}") for i in range(2)]
    everyone = people(store, *[f"p{i}" for i in range(24)])
    seeks = [pools[i % 2].seek(p, cell()) for i, p in enumerate(everyone)]
    start = threading.Barrier(4)

    def run(p: Pool) -> None:
        start.wait()
        for _ in range(5):
            p.match()

    threads = [threading.Thread(target=run, args=(pools[i % 2],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    with store.session() as db:
        games = db.scalars(select(GameRow)).all()
        seated = [s.user_id for g in games for s in g.seats]
    assert len(seated) == len(set(seated)) == len(everyone)
    assert all(game_of(store, s) is not None for s in seeks)


def test_a_game_refused_to_its_creator_drops_their_seek_and_the_other_waits_on(store, pool):
    from ludoteca.web.round.quotas import OPEN_GAMES_PER_USER
    from ludoteca.web.round.service import SeatSpec

    bob, ann = people(store, "bob", "ann")
    # ann has as many games waiting for players as one may, each time in the last seat: she
    # sits first now, so she creates the game, and the quota refuses it.
    for _ in range(OPEN_GAMES_PER_USER):
        pool.games.create(ann, TWO, {}, [SeatSpec("open"), SeatSpec("me")])
    bobs = pool.seek(bob, cell())  # the older seek
    pool.seek(ann, cell())
    assert pool.match() == []
    with store.session() as db:
        left = {s.id: s.claim for s in db.scalars(select(Seek))}
    assert left == {bobs: None}  # ann's seek dropped; bob's free again, waiting
