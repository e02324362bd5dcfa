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
    games.on_turn.append(vacation.turn_hook)
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


def test_a_vacation_pauses_untimed_games_and_the_first_turn_of_a_game_started_during_it(tmp_path):
    """An untimed game is ended as abandoned after 14 days of its person to move's absence:
    a vacation pauses that watch as it pauses correspondence clocks, for the turns waiting
    when it starts and the turns reaching the member during it, a game's first one too."""
    store = Store(f"sqlite:///{tmp_path / 'untimed.sqlite3'}")
    games = GameService(store)
    games.on_turn.append(vacation.turn_hook)
    try:
        users = people(store, 2)
        waiting = start_game(games, users, None)
        away = mover(games, waiting, users)
        passing = start_game(games, [other(users, away), away], None)
        if games.row(passing).seats[games.row(passing).to_move].user_id == away.id:
            games.submit(passing, away, "a1")
        before = games.row(waiting).deadline
        now = utcnow()
        vacation.start(games, away, 10, now=now)
        ends = now + timedelta(days=10)
        assert games.row(waiting).deadline == before + timedelta(days=10)
        games.submit(passing, other(users, away), "b2")  # the turn reaches them while away
        assert games.row(passing).deadline == ends + clocks.ABANDONED_AFTER
        for clock, turn in ((CORRESPONDENCE, timedelta(days=2)), (None, clocks.ABANDONED_AFTER)):
            for seats in ([away, other(users, away)], [other(users, away), away]):
                pk = start_game(games, seats, clock)
                row = games.row(pk)
                if row.seats[row.to_move].user_id == away.id:  # their first turn waits
                    assert row.deadline == ends + turn
                else:  # someone else's turn: not paused
                    assert row.deadline <= utcnow() + turn
    finally:
        store.dispose()


def test_another_process_shows_the_deadline_a_vacation_pushed_back(tmp_path):
    """A server process that kept the game (its last move was made there) shows the deadline
    a vacation taken through another process pushed back, not the one it kept."""
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    store, other_store = Store(url), Store(url)
    here, there = GameService(store), GameService(other_store)
    try:
        users = people(store, 2)
        pk = start_game(here, users, CORRESPONDENCE)
        first = mover(here, pk, users)
        here.submit(pk, first, "a1")  # here keeps the game as this move left it
        away = other(users, first)
        before = here.snapshot(pk)[0].deadline
        vacation.start(there, away, 7)
        row, _, _ = here.snapshot(pk)  # as after hearing that the game changed
        assert row.deadline == before + timedelta(days=7)
        assert row.deadline == there.row(pk).deadline
    finally:
        store.dispose()
        other_store.dispose()


def test_the_news_of_a_turn_reaching_someone_away_carries_the_paused_deadline(postgres):
    """The move's notification tells the other processes the deadline the vacation set, not
    the one the clock set before it: they show the game from the news without reading it."""
    from ludoteca.web.infra.fanout import notify_on_commit
    from tests.web.round.test_move_news import _news, collected

    url = postgres.fresh_database("vacationnews")
    store, other_store = Store(url), Store(url)
    notify_on_commit(other_store, "there")
    here, there = GameService(store), GameService(other_store)
    there.on_turn.append(vacation.turn_hook)
    try:
        users = people(store, 2)
        pk = start_game(here, users, CORRESPONDENCE)
        first = mover(here, pk, users)
        away = other(users, first)
        here.snapshot(pk)
        now = utcnow()
        vacation.start(there, away, 4, now=now)
        with collected(other_store) as payloads:
            there.submit(pk, first, "a1")
        news = _news(payloads[-1])
        assert news is not None
        row, _, _ = here.snapshot(pk, news=[news])
        assert row.deadline == there.row(pk).deadline == now + timedelta(days=4 + 2)
    finally:
        store.dispose()
        other_store.dispose()


def test_a_move_writes_its_game_once_however_the_hook_asks_about_vacations(tmp_path):
    """The hook asks whether the member now to move is away in a statement of its own, which
    must not make the move's session flush the clock's new values in an ``UPDATE`` of the
    game before the move's claim: the claim writes them (one write of the game a move)."""
    from sqlalchemy import event

    store = Store(f"sqlite:///{tmp_path / 'once.sqlite3'}")
    games = GameService(store)
    games.on_turn.append(vacation.turn_hook)
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    try:
        users = people(store, 2)
        pk = start_game(games, users, None)  # untimed: each turn runs the hook
        games.submit(pk, mover(games, pk, users), "a1")  # the kept game is now the move's
        event.listen(store.engine, "before_cursor_execute", count)
        games.submit(pk, mover(games, pk, users), "b2")
        event.remove(store.engine, "before_cursor_execute", count)
        writes = [s for s in seen if s.lstrip().upper().startswith("UPDATE GAMES")]
        assert len(writes) == 1, seen
        assert any("vacations" in s for s in seen), seen  # the hook did ask
        assert "b2" in [m.text for m in games.moves(pk)]
    finally:
        store.dispose()
