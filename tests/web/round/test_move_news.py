"""A move's notification carries what it changed, so that the other server processes show
it without reading the game back (:mod:`ludoteca.web.round.move_news`); and a move is made
on the row a process keeps without a query to check it, the claim checking it instead."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime

import pytest
from sqlalchemy import event

from ludoteca.web.infra.fanout import notify_on_commit, parse_payload
from ludoteca.web.infra.store import Store
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.move_news import MAX_BYTES, news_text, read_news
from ludoteca.web.round.service import GameService, SeatSpec
from tests.web.infra.test_store import expire_session, users

HEAD_READ = "SELECT games.status, games.ply"


def test_news_reads_back_as_it_was_written_and_nothing_else_is_news():
    when = datetime(2026, 11, 27, 10, 15, 20, 123456)
    moved = {"ply": 5, "to_move": 1, "turn_started": when, "deadline": None}
    added = [
        {"ply": 3, "text": "b2", "player": 0, "note": "scores 2 — «ok»"},
        {"ply": 4, "text": "x", "player": -1, "note": None},
    ]
    news = read_news(news_text(3, moved, added, takebacks=1) or "")
    assert news is not None
    assert (news.first_ply, news.ply, news.to_move) == (3, 5, 1)
    assert (news.turn_started, news.deadline) == (when, None)
    assert news.moves == ((3, "b2", 0, "scores 2 — «ok»"), (4, "x", -1, None))
    assert news.takebacks == 1
    for garbage in ("", "[]", "{}", "[1,2,3]", "not json", '[3,9,1,null,null,[[3,"b2",0,null]],0]'):
        assert read_news(garbage) is None, garbage  # the last: its plies do not add up
    long_note = [{"ply": 3, "text": "b2", "player": 0, "note": "n" * MAX_BYTES}]
    assert news_text(3, {**moved, "ply": 4}, long_note, takebacks=0) is None  # too long to notify


@pytest.fixture
def told(postgres):
    """Two services on one PostgreSQL database, as two server processes: ``there`` notifies
    (its payloads are collected in ``payloads``), ``here`` keeps what it has seen."""
    url = postgres.fresh_database(f"news{next(_numbers)}")
    store, other_store = Store(url), Store(url)
    notify_on_commit(other_store, "there")
    alice, bob = users(store)
    here, there = GameService(store), GameService(other_store)
    pk = here.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    here.join(pk, bob)
    payloads: list[str] = []

    def collect(_conn, _cursor, statement, parameters, *_args) -> None:
        if "pg_notify" in statement:
            payloads.append(parameters["payload"])

    event.listen(other_store.engine, "before_cursor_execute", collect)
    yield here, there, pk, {0: alice, 1: bob}, payloads
    event.remove(other_store.engine, "before_cursor_execute", collect)
    store.dispose()
    other_store.dispose()


_numbers = iter(range(10**6))


@contextmanager
def collected(store: Store):
    """The payloads of the notifications ``store``'s sessions send meanwhile."""
    payloads: list[str] = []

    def collect(_conn, _cursor, statement, parameters, *_args) -> None:
        if "pg_notify" in statement:
            payloads.append(parameters["payload"])

    event.listen(store.engine, "before_cursor_execute", collect)
    try:
        yield payloads
    finally:
        event.remove(store.engine, "before_cursor_execute", collect)


def _news(payload: str) -> str | None:
    parsed = parse_payload(payload)
    assert parsed is not None
    return parsed[2]


class Statements:
    def __init__(self, store: Store) -> None:
        self.store, self.seen = store, []

    def __enter__(self) -> list[str]:
        event.listen(self.store.engine, "before_cursor_execute", self._count)
        return self.seen

    def __exit__(self, *_exc) -> None:
        event.remove(self.store.engine, "before_cursor_execute", self._count)

    def _count(self, _conn, _cursor, statement, *_args) -> None:
        self.seen.append(statement)


def test_another_process_shows_a_move_from_its_news_without_reading(told):
    here, there, pk, mover, payloads = told
    _, state, _ = here.snapshot(pk)  # a watcher's page opened here
    there.submit(pk, mover[state.to_move], "b2")
    news = _news(payloads[-1])
    assert news is not None
    with Statements(here.store) as statements:
        row, state, moves = here.snapshot(pk, news=[news])
    assert statements == []
    stored_row, stored_state, stored_moves = there.snapshot(pk)
    assert (row.ply, row.to_move, row.status) == (stored_row.ply, stored_row.to_move, "active")
    assert (row.turn_started, row.deadline) == (stored_row.turn_started, stored_row.deadline)
    assert moves == stored_moves and state.to_move == stored_state.to_move
    assert [s.user_id for s in row.seats] == [s.user_id for s in stored_row.seats]

    # the player served here answers: on the learned row, without checking it first
    with Statements(here.store) as statements:
        here.submit(pk, mover[state.to_move], "a1")
    assert not any(s.startswith(HEAD_READ) for s in statements), statements
    assert [m.text for m in there.moves(pk)][1:] == ["b2", "a1"]


def test_news_that_does_not_follow_what_is_kept_is_read_from_the_database(told):
    here, there, pk, mover, payloads = told
    _, state, _ = here.snapshot(pk)
    there.submit(pk, mover[state.to_move], "b2")
    _, state = there.state(pk)
    there.submit(pk, mover[state.to_move], "a1")
    later = _news(payloads[-1])
    with Statements(here.store) as statements:
        row, _, moves = here.snapshot(pk, news=[later])  # the first move's news was missed
    assert statements != []
    assert row.ply == 3 and [m.text for m in moves][1:] == ["b2", "a1"]

    _, state = there.state(pk)
    there.resign(pk, mover[state.to_move])  # no news: not a move, and the game ended
    assert _news(payloads[-1]) is None
    row, _, _ = here.snapshot(pk, news=[None])
    assert row.status == "finished"


def test_a_move_on_a_kept_row_behind_the_game_is_judged_on_the_stored_game(told):
    """The kept row is taken on trust; if another process moved since (and no news came),
    the claim or the checks on the kept row fail, and the move is judged again on the game
    as stored: accepted if it is right there, refused with the stored game's reason if not."""
    here, there, pk, mover, _ = told
    _, state = here.state(pk)
    first, second = mover[state.to_move], mover[1 - state.to_move]
    here.submit(pk, first, "b2")
    there.submit(pk, second, "a1", expected_ply=2)  # here keeps the row at ply 2
    assert here.submit(pk, first, "c3", expected_ply=3) == 4  # stale on trust, then right
    there.submit(pk, second, "a2")
    with pytest.raises(ClubError, match="not your turn"):
        here.submit(pk, second, "b1")  # judged on the stored game: first is to move
    with pytest.raises(ClubError, match="has moved on"):
        here.submit(pk, first, "b1", expected_ply=4)
    assert [m.text for m in there.moves(pk)][1:] == ["b2", "a1", "c3", "a2"]


def test_a_move_in_a_session_is_claimed_only_while_the_session_is_open(url):
    """The session a socket's move was sent in is checked by the move's claim itself, not by
    a statement of its own: open, the move is stored; closed (in any process), expired, or
    another person's, it is refused as a session that has ended, and nothing is stored."""
    from ludoteca.web.accounts.service import Accounts, hash_token
    from ludoteca.web.kernel.errors import SessionEnded

    store = Store(url)
    try:
        accounts = Accounts(store, b"k" * 32)
        alice = accounts.register("alice", "a fine password")
        bob = accounts.register("bob", "another fine password")
        games = GameService(store)
        pk = games.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
        games.join(pk, bob)
        _, state = games.state(pk)
        first, second = (alice, bob) if state.to_move == 0 else (bob, alice)
        tokens = {u.id: accounts.open_session(u) for u in (alice, bob)}
        with Statements(store) as statements:
            games.submit(pk, first, "b2", session=hash_token(tokens[first.id]))
        assert not any("FROM sessions" in s and "UPDATE" not in s for s in statements)
        assert any(s.startswith("UPDATE games") and "sessions" in s for s in statements)

        with pytest.raises(SessionEnded):  # another person's session
            games.submit(pk, second, "a1", session=hash_token(tokens[first.id]))
        accounts.close_session(tokens[second.id])
        with pytest.raises(SessionEnded):
            games.submit(pk, second, "a1", session=hash_token(tokens[second.id]))
        token = accounts.open_session(second)
        expire_session(store, token)
        with pytest.raises(SessionEnded):
            games.submit(pk, second, "a1", session=hash_token(token))
        assert [m.text for m in games.moves(pk)][1:] == ["b2"]
        games.submit(pk, second, "a1", session=hash_token(accounts.open_session(second)))
        assert [m.text for m in games.moves(pk)][1:] == ["b2", "a1"]
    finally:
        store.dispose()
