"""A member's own lists in the lobby (their games, their finished games, the private games
waiting for them), read with one Core statement, against the ORM reading they replaced, on
random clubs in both databases the club runs on."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import select

from ludoteca.web.infra.store import GameRow, Seat, Store, User, utcnow
from ludoteca.web.lobby.members import FINISHED_SHOWN, member_games
from ludoteca.web.lobby.summary import game_summary

STATUSES = ("open", "active", "finished")


def _random_club(store: Store, rng: random.Random) -> list[User]:
    """Four members and 500 games of two or three seats: open, taken, bots, reserved for a
    member, or reserved and taken by them."""
    now = utcnow()
    with store.session() as db:
        users = [User(name=f"M{i}", name_key=f"m{i}", password_hash="-") for i in range(4)]
        db.add_all(users)
        db.flush()
        for n in range(500):
            status = rng.choice(STATUSES)
            row = GameRow(
                game=rng.choice(["kuniumi", "comune", "comino", "hexagone"]),
                rules_version="1",
                options={},
                seed=n,
                status=status,
                to_move=rng.randrange(2),
                private=rng.random() < 0.3,
                finished=now - timedelta(minutes=rng.randrange(10_000), microseconds=n)
                if status == "finished"
                else None,
                result={"over": True, "winners": [0], "draw": False}
                if status == "finished"
                else None,
                clock=rng.choice([None, {"kind": "live", "base": 300, "increment": 2}]),
            )
            for index in range(rng.choice([2, 3])):
                kind = rng.choice(["open", "user", "user", "bot", "reserved", "taken"])
                seat = Seat(index=index, kind="user" if kind in ("reserved", "taken") else kind)
                if kind == "user":
                    seat.user_id = rng.choice(users).id
                elif kind == "reserved":
                    seat.reserved_for = rng.choice(users).id
                elif kind == "taken":  # a reserved seat its member has taken
                    seat.reserved_for = seat.user_id = rng.choice(users).id
                elif kind == "bot":
                    seat.bot = "hard"
                row.seats.append(seat)
            db.add(row)
        db.commit()
        return list(users)


def _orm_reading(store: Store, user: User) -> tuple[list[int], list[int], list[int]]:
    """The three queries the lobby made before (the reference)."""
    with store.session() as db:
        invited = select(Seat.game_id).where(Seat.reserved_for == user.id, Seat.user_id.is_(None))
        waiting = db.scalars(
            select(GameRow).where(
                GameRow.status == "open", GameRow.private.is_(True), GameRow.id.in_(invited)
            )
        ).all()
        mine = select(Seat.game_id).where(Seat.user_id == user.id)
        active = db.scalars(
            select(GameRow)
            .where(GameRow.id.in_(mine), GameRow.status.in_(["active", "open"]))
            .order_by(GameRow.id.desc())
        ).all()
        finished = db.scalars(
            select(GameRow)
            .where(GameRow.id.in_(mine), GameRow.status == "finished")
            .order_by(GameRow.finished.desc())
            .limit(FINISHED_SHOWN)
        ).all()
    return (
        sorted(g.id for g in waiting),
        [g.id for g in active],
        [g.id for g in finished],
    )


def test_a_members_lists_are_the_games_the_orm_found(url):
    store = Store(url)
    try:
        users = _random_club(store, random.Random(7))
        with store.session() as db:
            rows = {g.id: g for g in db.scalars(select(GameRow)).all()}
            for g in rows.values():
                for s in g.seats:
                    _ = s.user, s.reserved  # loaded before the session closes
        for user in users:
            listed = member_games(store, user.id)
            invited, playing, finished = _orm_reading(store, user)
            assert sorted(g.id for g in listed.invited) == invited
            assert [g.id for g in listed.playing] == playing
            assert [g.id for g in listed.finished] == finished
            assert playing and len(finished) == FINISHED_SHOWN, "every member has many games"
            # what the lobby shows of each is what it showed from the mapped rows
            for game in [*listed.invited, *listed.playing, *listed.finished]:
                assert game_summary(game, user) == game_summary(rows[game.id], user)
    finally:
        store.dispose()


def test_a_member_without_games_has_empty_lists(url):
    store = Store(url)
    try:
        with store.session() as db:
            user = User(name="Alone", name_key="alone", password_hash="-")
            db.add(user)
            db.commit()
        listed = member_games(store, user.id)
        assert (listed.invited, listed.playing, listed.finished) == ([], [], [])
    finally:
        store.dispose()
