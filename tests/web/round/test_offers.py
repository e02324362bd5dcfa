"""Offers during a game, in process on a real SQLite store: the abort window and its result
(no rating change), a draw only where the rules can end drawn, takebacks in casual games
only, one open offer of a kind, the pause after a decline, every step in the record, and
three players who must all accept."""

from __future__ import annotations

import itertools
import json
from datetime import datetime

import pytest
from sqlalchemy import select, update

from ludoteca.record import Record, replay
from ludoteca.web.infra.store import GameRow, Rating, Store, User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.ratings.service import update_ratings
from ludoteca.web.round import offers
from ludoteca.web.round.replays import record_with_offers
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec
from ludoteca.web.stats.tallies import rebuild

_names = itertools.count(1)


@pytest.fixture
def games(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'offers.sqlite3'}")
    service = GameService(store)
    service.on_finish.append(update_ratings)
    yield service
    store.dispose()


@pytest.fixture
def games_on_each_database(url):
    """The service on SQLite and on PostgreSQL (the conftest's ``url``)."""
    store = Store(url)
    service = GameService(store)
    service.on_finish.append(update_ratings)
    yield service
    store.dispose()


def people(store: Store, n: int) -> list[User]:
    names = [f"o{next(_names)}" for _ in range(n)]
    with store.session() as db:
        users = [User(name=name, name_key=name, password_hash="-") for name in names]
        db.add_all(users)
        db.commit()
        return users


def start(games: GameService, game="toy", options=None, n=2, rated=False, bot=False):
    users = people(games.store, n)
    seats = [SeatSpec("me")]
    seats += (
        [SeatSpec("bot", bot="random")]
        if bot
        else [SeatSpec("user", user=u.name) for u in users[1:]]
    )
    pk = games.create(users[0], game, options or {}, seats, GameSettings(rated=rated))
    if not bot:
        for u in users[1:]:
            games.join(pk, u)
    return pk, users


def mover(games, pk, users) -> User:
    row = games.row(pk)
    return next(u for u in users if u.id == row.seats[row.to_move].user_id)


def other(users, user):
    return next(u for u in users if u.id != user.id)


def play(games, pk, users, *cells):
    for cell in cells:
        games.submit(pk, mover(games, pk, users), cell)


def refused(fn, *args, words: str, **kwargs):
    with pytest.raises(ClubError) as caught:
        fn(*args, **kwargs)
    assert words in str(caught.value.message), caught.value.message


def test_abort_only_before_each_player_moved_and_it_rates_nobody(games_on_each_database):
    games = games_on_each_database
    pk, users = start(games, rated=True)
    first = mover(games, pk, users)
    play(games, pk, users, "a1")
    second = other(users, first)
    assert offers.make(games, pk, second, "abort") == "offered"
    refused(offers.make, games, pk, second, "abort", words="already an open offer")
    refused(offers.answer, games, pk, second, "abort", True, words="not yours to answer")
    assert offers.answer(games, pk, first, "abort", True) == "agreed"
    row = games.row(pk)
    assert row.status == "finished" and row.result["ended"] == "aborted"
    assert row.result["winners"] == [] and row.result["draw"] is False
    with games.store.session() as db:
        assert db.scalars(select(Rating)).all() == []  # nothing rated
    with games.store.engine.begin() as conn:
        assert rebuild(conn) == 0  # nor counted in the club's statistics
    record = games.record(pk)
    record.offers = record_with_offers(games, pk).offers
    again = Record.loads(record.dumps())
    replay(again)  # the aborted result checks out against the moves
    assert [(e["kind"], e["action"]) for e in again.offers] == [
        ("abort", "offered"),
        ("abort", "accepted"),
        ("abort", "agreed"),
    ]
    # once each player has moved, it is too late
    pk, users = start(games)
    play(games, pk, users, "a1", "b1")
    refused(offers.make, games, pk, users[0], "abort", words="before each player has moved")


def test_draw_only_where_the_rules_can_draw_and_it_rates_as_a_draw(games):
    pk, users = start(games, rated=True)
    offers.make(games, pk, users[0], "draw")
    assert offers.answer(games, pk, users[1], "draw", True) == "agreed"
    row = games.row(pk)
    assert row.result["ended"] == "agreement" and row.result["draw"] is True
    with games.store.session() as db:
        assert {r.draws for r in db.scalars(select(Rating))} == {1}
    pk, users = start(games, "hexagone", {"players": 2})
    refused(offers.make, games, pk, users[0], "draw", words="cannot end in a draw")
    assert "draw" not in offers.view(games, pk, users[0])["may"]
    pk, users = start(games, bot=True)
    refused(offers.make, games, pk, users[0], "draw", words="computer does not agree")


def test_takeback_in_casual_games_only_and_the_record_keeps_what_was_undone(
    games_on_each_database,
):
    games = games_on_each_database
    pk, users = start(games)
    first = mover(games, pk, users)
    second = other(users, first)
    play(games, pk, users, "a1", "b2")
    ply = games.row(pk).ply
    assert offers.make(games, pk, second, "takeback") == "offered"
    assert offers.view(games, pk, first)["open"][0]["to_answer"] is True
    assert offers.answer(games, pk, first, "takeback", True) == "agreed"
    row, state = games.state(pk)
    assert row.ply == ply - 1 and row.seats[row.to_move].user_id == second.id
    play(games, pk, users, "c3")  # the second player plays another move instead
    record = record_with_offers(games, pk)
    replay(Record.loads(record.dumps()))
    agreed = [e for e in record.offers if e["action"] == "agreed"]
    assert agreed == [
        {"ply": ply, "kind": "takeback", "action": "agreed", "seat": row.to_move, "undone": ["b2"]}
    ]
    assert record.moves[-1] == "c3"
    pk, users = start(games, rated=True)
    play(games, pk, users, "a1")
    refused(
        offers.make,
        games,
        pk,
        users[0] if games.row(pk).to_move else users[1],
        "takeback",
        words="casual games",
    )


def test_after_a_takeback_the_views_show_the_new_line_at_a_ply_seen_before(games):
    """The board, the moves and the moves offered are kept per version of the game: a
    takeback and another move bring back a ply already shown, of another line, which must
    not be shown the undone move's board (nor offered the moves after it)."""
    from ludoteca.web.i18n.catalogs import language
    from ludoteca.web.round.view import offers as offered
    from ludoteca.web.round.view import shared_text

    english = language("en")
    pk, users = start(games)
    first = mover(games, pk, users)
    second = other(users, first)
    play(games, pk, users, "a1", "b2")
    row, state, moves = games.snapshot(pk)
    shared_text(row, state, moves, english)  # shown to the watchers, and kept
    before = [m["text"] for m in offered(row, state, english, False)[0]]
    assert offers.make(games, pk, second, "takeback") == "offered"
    assert offers.answer(games, pk, first, "takeback", True) == "agreed"
    play(games, pk, users, "c3")
    row, state, moves = games.snapshot(pk)
    shown = json.loads(shared_text(row, state, moves, english))
    assert [m["text"] for m in shown["moves"]][-1] == "c3"
    now = [m["text"] for m in offered(row, state, english, False)[0]]
    assert now == [state.move_to_str(m) for m in state.legal_moves()] and now != before


def test_takeback_against_the_computer_is_agreed_at_once(games):
    pk, users = start(games, bot=True)
    me = users[0]
    row = games.row(pk)
    if row.seats[row.to_move].kind == "bot":
        games.submit(pk, None, "a1", bot=True)
    play(games, pk, [me], "b2")
    games.submit(
        pk, None, next(c for c in ("a1", "c3", "a3") if c not in games.record(pk).moves), bot=True
    )
    before = games.row(pk).ply
    assert offers.make(games, pk, me, "takeback") == "agreed"
    row = games.row(pk)
    assert row.ply == before - 2 and row.seats[row.to_move].user_id == me.id


def test_a_declined_offer_pauses_its_maker_and_an_offer_lapses_when_someone_moves(games):
    pk, users = start(games)
    first = mover(games, pk, users)
    second = other(users, first)
    offers.make(games, pk, first, "draw")
    assert offers.answer(games, pk, second, "draw", False) == "declined"
    refused(offers.make, games, pk, first, "draw", words="declined")
    assert "draw" not in offers.view(games, pk, first)["may"]
    play(games, pk, users, "a1", "b1")
    assert offers.make(games, pk, first, "draw") == "offered"  # two moves later: again
    play(games, pk, users, "c1")
    assert offers.view(games, pk, second)["open"] == []  # lapsed: the game moved on
    refused(offers.answer, games, pk, second, "draw", True, words="no open offer")
    refused(offers.make, games, pk, first, "dance", words="one of")


def test_three_players_must_all_accept(games):
    pk, users = start(games, "hexagone", {"players": 3}, n=3)
    assert offers.make(games, pk, users[0], "abort") == "offered"
    assert offers.answer(games, pk, users[1], "abort", True) == "accepted"
    assert games.row(pk).status == "active"
    shown = offers.view(games, pk, users[2])["open"][0]
    assert shown["to_answer"] and shown["waiting"] == [users[2].name]
    assert offers.answer(games, pk, users[2], "abort", True) == "agreed"
    assert games.row(pk).result["ended"] == "aborted"


def test_an_offer_after_the_player_to_move_ran_out_of_time_ends_the_game_on_time(games):
    users = people(games.store, 2)
    seats = [SeatSpec("me"), SeatSpec("user", user=users[1].name)]
    clock = {"kind": "correspondence", "days": 1}
    pk = games.create(users[0], "toy", {}, seats, GameSettings(clock=clock))
    games.join(pk, users[1])
    with games.store.session() as db:  # the deadline passed (no waiting: the stored moment)
        db.execute(update(GameRow).where(GameRow.id == pk).values(deadline=datetime(2000, 1, 1)))
        db.commit()
    games.cache.forget(pk)
    refused(offers.make, games, pk, users[0], "draw", words="ran out of time")
    assert games.row(pk).result["ended"] == "timeout"


def test_a_takeback_in_another_process_is_seen_when_later_moves_bring_back_its_ply(tmp_path):
    """Two server processes on one database: ``here`` keeps the game at a ply; ``there`` takes
    a move back and another move brings the game back to that ply, along another line. Here
    must show the stored moves, and judge a move on the stored board: the one it kept would
    take a cell that is no longer free."""
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    store, other_store = Store(url), Store(url)
    here, there = GameService(store), GameService(other_store)
    try:
        users = people(store, 2)
        seats = [SeatSpec("me"), SeatSpec("user", user=users[1].name)]
        pk = here.create(users[0], "toy", {}, seats)
        here.join(pk, users[1])
        first = mover(here, pk, users)
        second = other(users, first)
        here.submit(pk, first, "a1")  # here keeps the game as its moves leave it
        there.submit(pk, second, "b2")
        ply = here.snapshot(pk)[0].ply
        assert offers.make(there, pk, second, "takeback") == "offered"
        assert offers.answer(there, pk, first, "takeback", True) == "agreed"
        there.submit(pk, second, "c3")  # instead of b2: the same ply, another line
        with pytest.raises(ClubError, match="c3"):
            here.submit(pk, first, "c3")  # free on the kept board, taken on the stored one
        row, state, moves = here.snapshot(pk)
        assert row.ply == ply and [m.text for m in moves][1:] == ["a1", "c3"]
        assert state.position() == there.state(pk)[1].position()
        here.submit(pk, first, "b2")  # free again on it
        assert [m.text for m in there.moves(pk)][1:] == ["a1", "c3", "b2"]
    finally:
        store.dispose()
        other_store.dispose()


def test_a_computer_move_found_before_a_takeback_is_not_played_after_it(games):
    """The computer thinks on a position; meanwhile its opponent takes their move back (granted
    at once) and plays another: the game is at the same ply again, on another board. The
    move found for the old board is refused, and the computer thinks again."""
    pk, users = start(games, bot=True)
    me = users[0]
    row = games.row(pk)
    if row.seats[row.to_move].kind == "bot":
        games.submit(pk, None, "a1", bot=True)
    play(games, pk, [me], "b2")
    turn = games.bot_turn(pk)
    assert turn is not None
    _, ply, takebacks = turn
    assert offers.make(games, pk, me, "takeback") == "agreed"
    play(games, pk, [me], "c3")
    assert games.row(pk).ply == ply
    with pytest.raises(ClubError, match="moved on"):
        games.submit(pk, None, "b1", bot=True, expected_ply=ply, expected_takebacks=takebacks)
    again = games.bot_turn(pk)
    assert again is not None and again[1:] == (ply, takebacks + 1)
    assert games.submit(pk, None, "b1", bot=True, expected_ply=ply, expected_takebacks=again[2])
