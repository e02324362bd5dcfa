"""Vacations pause correspondence clocks: a turn waiting for the member is pushed back by
the vacation, a turn passed to them while away counts from its end, the sweep does not end
their games on the old deadlines, and the yearly allowance is kept."""

from __future__ import annotations

from datetime import timedelta

from ludoteca.web.infra.store import Store, utcnow
from ludoteca.web.round import clocks, vacation
from ludoteca.web.round.service import GameService, GameSettings
from tests.web.round.test_offers import mover, other, people, refused

CORRESPONDENCE = {"kind": "correspondence", "days": 2}


def start_game(games, users, clock):
    from ludoteca.web.round.service import SeatSpec

    seats = [SeatSpec("me"), SeatSpec("user", user=users[1].name)]
    pk = games.create(users[0], "toy", {}, seats, GameSettings(clock=clock))
    games.join(pk, users[1])
    return pk


def test_a_vacation_pauses_the_correspondence_clocks_of_its_member(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'away.sqlite3'}")
    games = GameService(store)
    games.on_moves.append(vacation.turn_hook)
    try:
        users = people(store, 2)
        waiting = start_game(games, users, CORRESPONDENCE)  # someone is to move here
        away = mover(games, waiting, users)
        live = start_game(games, users, {"kind": "live", "base": 600, "increment": 0})
        before = games.row(waiting).deadline
        live_before = games.row(live).deadline
        now = utcnow()
        vacation.start(games, away, 10, now=now)
        row = games.row(waiting)
        assert row.deadline == before + timedelta(days=10)
        # the sweep, at a moment past the old deadline, leaves the game alone
        assert not clocks.overdue(row, before + timedelta(seconds=1))
        assert clocks.overdue(row, before + timedelta(days=10, seconds=1))
        assert games.row(live).deadline == live_before  # live clocks are not paused
        # a turn that passes to the member while away gets its full time from the end
        other_game = start_game(games, [users[1], users[0]], CORRESPONDENCE)
        if games.row(other_game).seats[games.row(other_game).to_move].user_id == away.id:
            games.submit(other_game, away, "a1")  # made before: the vacation allows moves
        games.submit(other_game, other(users, away), "b2")
        row = games.row(other_game)
        assert row.seats[row.to_move].user_id == away.id
        ends = now + timedelta(days=10)
        assert row.deadline == ends + timedelta(days=2)
        # the allowance: one vacation at a time, 30 days a year
        refused(vacation.start, games, away, 1, now=now, words="on vacation already")
        later = now + timedelta(days=11)
        if later.year == now.year:
            refused(vacation.start, games, away, 21, now=later, words="20 days of vacation")
        refused(vacation.start, games, away, 0, now=later, words="at least one")
        refused(vacation.start, games, away, "many", now=later, words="at least one")
        with store.session() as db:
            shown = vacation.summary(db, away.id, now)
        assert shown["until"] == ends and shown["left"] == 20
    finally:
        store.dispose()
