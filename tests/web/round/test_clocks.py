"""Clocks kept by the server: the arithmetic, games ended on time (by a late move and by the
sweeper with no one acting), results for two and for three or four players, records that
replay, two processes ending the same game once, and the clock ticking in a real browser."""

from __future__ import annotations

import itertools
import json
import random
import re
import threading
import time
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select, update

from ludoteca.core.errors import RecordError
from ludoteca.core.protocol import CHANCE, TERMINAL
from ludoteca.core.registry import get as get_game
from ludoteca.core.table import sample_chance
from ludoteca.record import replay, timeout_result
from ludoteca.web.infra.store import GameRow, Seat, Store, User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round import clocks
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec
from tests.web.helpers import create_game, join, move, view

_db = itertools.count(1)
T0 = datetime(2026, 1, 1, 12, 0, 0)


# --- arithmetic -------------------------------------------------------------------------------
def test_time_controls_are_read_from_the_stored_clock():
    live = clocks.TimeControl.of({"kind": "live", "base": 300, "increment": 3})
    assert live == clocks.TimeControl("live", base_ms=300_000, increment_ms=3_000)
    assert clocks.TimeControl.of({"kind": "live", "base": 0.25}).base_ms == 250
    corr = clocks.TimeControl.of({"kind": "correspondence", "days": 2})
    assert corr is not None and corr.days == 2 and not corr.live
    for bad in (
        None,
        {},
        {"kind": "blitz"},
        {"kind": "live"},
        {"kind": "live", "base": -1},
        {"kind": "live", "base": "x"},
        {"kind": "correspondence", "days": 0},
        [1],
    ):
        assert clocks.TimeControl.of(bad) is None, bad


def test_fischer_charge_takes_the_time_used_and_adds_the_increment():
    assert clocks.charge(60_000, 1_500, 2_000) == 60_500
    assert clocks.charge(60_000, 1_500, 0) == 58_500
    assert clocks.charge(1_000, 5_000, 2_000) == 2_000  # never below zero before the increment
    assert clocks.elapsed_ms(T0, T0 + timedelta(seconds=1, microseconds=2500)) == 1002
    assert clocks.elapsed_ms(T0 + timedelta(seconds=1), T0) == 0
    assert clocks.elapsed_ms(None, T0) == 0


def table(clock, kinds=("user", "user")) -> GameRow:
    row = GameRow(clock=clock, status="active", to_move=0, ply=0)
    row.seats = [
        Seat(index=i, kind=k, resigned=False, timed_out=False) for i, k in enumerate(kinds)
    ]
    return row


def test_live_clock_runs_for_the_player_to_move_only():
    row = table({"kind": "live", "base": 60, "increment": 5})
    clocks.start(row)
    assert [s.clock_ms for s in row.seats] == [60_000, 60_000]
    clocks.after_moves(row, None, 0, T0)  # the game starts with seat 0 to move
    assert row.turn_started == T0 and row.deadline == T0 + timedelta(seconds=60)
    now = T0 + timedelta(seconds=7, milliseconds=250)
    view = clocks.clock_view(row, now)
    assert view["running"] == 0 and view["ms"] == [52_750, 60_000]
    assert view["now"] - view["deadline"] == -52_750
    clocks.after_moves(row, 0, 1, now)  # seat 0 moved after 7.25 s: +5 s increment
    assert row.seats[0].clock_ms == 60_000 - 7_250 + 5_000
    assert row.deadline == now + timedelta(seconds=60)
    # within one turn (the same player moves on) the clock runs on without an increment
    later = now + timedelta(seconds=2)
    clocks.after_moves(row, 1, 1, later)
    assert row.seats[1].clock_ms == 58_000 and row.deadline == later + timedelta(seconds=58)
    assert not clocks.overdue(row, later + timedelta(seconds=57))
    assert clocks.overdue(row, later + timedelta(seconds=58))
    clocks.after_moves(row, 1, TERMINAL, later + timedelta(seconds=1))  # the game is over
    assert row.deadline is None


def test_a_computer_seat_has_no_running_clock():
    row = table({"kind": "live", "base": 60, "increment": 0}, kinds=("user", "bot"))
    clocks.start(row)
    clocks.after_moves(row, None, 1, T0)
    assert row.deadline is None and clocks.running_seat(row) is None
    assert clocks.clock_view(row, T0 + timedelta(hours=1))["ms"] == [60_000, None]
    clocks.after_moves(row, 1, 0, T0 + timedelta(seconds=30))  # the bot's time costs nothing
    assert row.seats[1].clock_ms == 60_000
    assert row.deadline == T0 + timedelta(seconds=90)


def test_an_untimed_game_is_abandoned_after_fourteen_days_without_a_move():
    row = table(None, kinds=("user", "user"))
    clocks.after_moves(row, None, 0, T0)
    assert row.deadline == T0 + clocks.ABANDONED_AFTER == T0 + timedelta(days=14)
    assert clocks.clock_view(row, T0) is None and clocks.running_seat(row) is None  # no clock
    later = T0 + timedelta(days=3)
    clocks.after_moves(row, 0, 0, later)  # the same player moves on: their turn goes on
    assert row.deadline == T0 + timedelta(days=14)
    clocks.after_moves(row, 0, 1, later)  # the turn passes: the next player has 14 days
    assert row.deadline == later + timedelta(days=14) and clocks.abandoned(row)
    assert not clocks.overdue(row, later + timedelta(days=13, hours=23))
    assert clocks.overdue(row, later + timedelta(days=14))
    bot = table(None, kinds=("user", "bot"))
    clocks.after_moves(bot, 0, 1, T0)  # nobody waits on a computer
    assert bot.deadline is None
    clocks.after_moves(row, 1, TERMINAL, later)
    assert row.deadline is None


def test_an_abandoned_rated_game_ends_rated_and_replays(tmp_path):
    from ludoteca.web.infra.store import Rating
    from ludoteca.web.ratings.service import update_ratings

    store = Store(f"sqlite:///{tmp_path / 'left.sqlite3'}")
    service = GameService(store)
    service.on_finish.append(update_ratings)
    users = people(store, "stays", "leaves")
    seats = [SeatSpec("me"), SeatSpec("user", user="leaves")]
    pk = service.create(users[0], "toy", {}, seats, GameSettings(rated=True))
    service.join(pk, users[1])
    first = to_move_user(service, pk, users)
    service.submit(pk, first, "b2")
    gone = to_move_user(service, pk, users)
    assert service.expire_overdue() == []  # thirteen days, say: nothing happens
    with store.session() as db:  # fourteen days pass
        db.execute(update(GameRow).where(GameRow.id == pk).values(deadline=datetime(2000, 1, 1)))
        db.commit()
    assert service.expire_overdue() == [pk]
    row = service.row(pk)
    late = next(s for s in row.seats if s.user_id == gone.id)
    assert row.status == "finished" and row.result["ended"] == "timeout"
    assert row.result["abandoned"] is True and row.result["winners"] == [1 - late.index]
    assert row.result["reason"].endswith("abandoned the game")
    with store.session() as db:
        ratings = {r.user_id: r for r in db.scalars(select(Rating))}
    assert ratings[first.id].wins == 1 and ratings[gone.id].losses == 1
    assert ratings[first.id].rating > 1500 > ratings[gone.id].rating
    replay(service.record(pk))  # the stored game's record verifies
    store.dispose()


def test_correspondence_deadline_is_renewed_at_every_turn_change():
    row = table({"kind": "correspondence", "days": 3})
    clocks.start(row)
    assert row.seats[0].clock_ms is None
    clocks.after_moves(row, None, 0, T0)
    assert row.deadline == T0 + timedelta(days=3)
    t1 = T0 + timedelta(hours=5)
    clocks.after_moves(row, 0, 0, t1)  # same player, same turn: same deadline
    assert row.deadline == T0 + timedelta(days=3)
    row.to_move = 1
    clocks.after_moves(row, 0, 1, t1)
    assert row.deadline == t1 + timedelta(days=3)
    view = clocks.clock_view(row, t1)
    assert view["kind"] == "correspondence" and view["running"] == 1 and "ms" not in view
    assert view["deadline"] - view["now"] == 3 * 86_400_000


def test_time_controls_are_described_for_the_lobby():
    assert str(clocks.describe({"kind": "live", "base": 300, "increment": 3})) == "5+3"
    assert str(clocks.describe({"kind": "live", "base": 30, "increment": 0})) == "30s+0"
    assert str(clocks.describe({"kind": "correspondence", "days": 1})) == "1 day a move"
    assert str(clocks.describe({"kind": "correspondence", "days": 3})) == "3 days a move"
    assert str(clocks.describe(None)) == ""


# --- results and records ----------------------------------------------------------------------
def toy_state(moves=("toss x", "a1")):
    state = get_game("toy").new_state()
    for m in moves:
        state.play(m)
    return state


def test_two_players_the_other_wins_on_time_and_the_record_replays():
    from ludoteca.record import Record

    state = toy_state()
    result = timeout_result(state, [state.to_move])
    assert state.to_move == 1
    assert result["ended"] == "timeout" and result["timed_out"] == [1]
    assert result["winners"] == [0] and result["winner_sides"] == ["cross"]
    assert result["reason"] == "nought ran out of time" and result["draw"] is False
    record = Record.begin(toy_state(()))
    record.moves = ["toss x", "a1"]
    record.result = result
    record = Record.loads(record.dumps())
    assert replay(record).position() == state.position()
    for key, value, message in [
        ("timed_out", [5], "not a list of seats"),
        ("timed_out", [], "not a list of seats"),
        ("timed_out", "1", "not a list of seats"),
        ("winners", [1], r"winners is \[1\], but the replayed game gives"),
    ]:
        bad = Record.loads(record.dumps())
        bad.result[key] = value
        with pytest.raises(RecordError, match=message):
            replay(bad)
    over = Record.loads(record.dumps())
    over.moves += ["b1", "a2", "b2", "a3"]  # cross completes a line: the game is over
    with pytest.raises(RecordError, match="after the game was over"):
        replay(over)


def test_more_than_two_players_rank_the_others_by_captured_pieces():
    hexagone = get_game("hexagone", players=4)
    state = hexagone.new_state(seed=3)
    # The fourth player starts with a captured white piece (their handicap): on time at once,
    # the fourth ranks first among those still playing.
    result = timeout_result(state, [0])
    assert result["winners"] == [3] and result["ranking"][-1] == [0]
    assert result["ranking"] == [[3], [1, 2], [0]]
    three = get_game("hexagone", players=3).new_state(seed=3)
    assert timeout_result(three, [1])["winners"] == [0, 2]  # tied: they share the win
    # Later in a game: the winners are the best of the others by Hexagone's own ranking.
    rng = random.Random(11)
    state = three
    while not state.is_over:
        if state.to_move >= 0 and len(set(state.scores())) == 3:
            break
        if state.to_move == CHANCE:
            state.play(sample_chance(state, rng))
        else:
            state.play(rng.choice(state.legal_moves()))
    assert not state.is_over, "a random game ended before the scores differed"
    loser = max(range(3), key=lambda p: state.scores()[p])  # the leader runs out of time
    result = timeout_result(state, [loser])
    others = [p for p in range(3) if p != loser]
    best = max(others, key=lambda p: state.scores()[p])
    assert result["winners"] == [best] and result["ranking"][-1] == [loser]
    assert result["scores"] == list(state.scores())


# --- the game service: late moves, the sweep, several processes -------------------------------
def people(store: Store, *names: str) -> list[User]:
    with store.session() as db:
        users = [User(name=n, name_key=n, password_hash="-") for n in names]
        db.add_all(users)
        db.commit()
        return users


def start_game(service: GameService, clock, game="toy", options=None, n=2):
    users = people(service.store, *(f"p{i}x{next(_db)}" for i in range(n)))
    seats = [SeatSpec("me")] + [SeatSpec("user", user=u.name) for u in users[1:]]
    pk = service.create(users[0], game, options or {}, seats, GameSettings(clock=clock))
    for u in users[1:]:
        service.join(pk, u)
    return pk, users


def to_move_user(service, pk, users) -> User:
    row = service.row(pk)
    return next(u for u in users if u.id == row.seats[row.to_move].user_id)


def test_a_move_after_the_deadline_is_refused_and_ends_the_game(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'late.sqlite3'}")
    service = GameService(store)
    pk, users = start_game(service, {"kind": "live", "base": 0.6, "increment": 1})
    row = service.row(pk)
    assert row.status == "active" and [s.clock_ms for s in row.seats] == [600, 600]
    assert row.deadline is not None and row.deadline - row.turn_started == timedelta(seconds=0.6)
    first = to_move_user(service, pk, users)
    service.submit(pk, first, "b2")  # in time: charged, plus 1 s
    row = service.row(pk)
    mover = next(s for s in row.seats if s.user_id == first.id)
    assert 1000 < mover.clock_ms <= 1600
    second = to_move_user(service, pk, users)
    time.sleep(0.8)
    with pytest.raises(ClubError, match="ran out of time") as refused:
        service.submit(pk, second, "a1")
    assert refused.value.status == 409 and refused.value.changed
    row = service.row(pk)
    late = next(s for s in row.seats if s.user_id == second.id)
    assert row.status == "finished" and row.deadline is None and row.ply == 2
    assert late.timed_out and late.clock_ms == 0
    assert row.result["ended"] == "timeout" and row.result["timed_out"] == [late.index]
    assert row.result["winners"] == [1 - late.index]
    replay(service.record(pk))  # the stored game's record verifies
    with pytest.raises(ClubError, match="over"):
        service.submit(pk, first, "a1")
    store.dispose()


def test_two_processes_sweeping_end_a_game_once(url):
    """Two services on one database (as two server processes: their own locks, caches and
    connections) sweep at the same moment: one ends the game, the finish hooks run once."""
    stores = [Store(url), Store(url)]
    services = [GameService(s) for s in stores]
    ended: list[int] = []
    for s in services:
        s.on_finish.append(lambda db, row, state: ended.append(row.id))
    pk, _ = start_game(services[0], {"kind": "live", "base": 0.3, "increment": 0})
    assert services[1].expire_overdue() == []  # not yet
    time.sleep(0.5)
    results: list[list[int]] = []
    barrier = threading.Barrier(2)

    def sweep(service):
        barrier.wait()
        results.append(service.expire_overdue())

    threads = [threading.Thread(target=sweep, args=(s,)) for s in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [[], [pk]] and ended == [pk]
    row = services[1].row(pk)
    assert row.status == "finished" and row.result["ended"] == "timeout"
    assert sum(s.timed_out for s in row.seats) == 1
    for s in stores:
        s.dispose()


def test_a_move_racing_the_end_on_time_in_another_process_changes_nothing(url):
    """A move checked in time by one process, committed just after another process ended
    the game on time: the move is refused and the stored game stays as the time-out left it."""
    stores = [Store(url), Store(url)]
    services = [GameService(s) for s in stores]
    pk, users = start_game(services[0], {"kind": "live", "base": 0.4, "increment": 0})
    with stores[0].session() as db:
        row = services[0].reader.row_in(db, pk)
        state = services[0].reader.state_in(db, row).clone()
        player = state.to_move
        state.play("b2")  # checked in time ...
        time.sleep(0.6)
        assert services[1].expire_overdue() == [pk]  # ... but another process ends it first
        with pytest.raises(ClubError, match="same time"):
            services[0].playing.commit_moves(db, row, state, [("b2", player, None)])
    row = services[1].row(pk)
    assert row.status == "finished" and row.result["timed_out"] == [player]
    assert services[1].moves(pk)[-1].text.startswith("toss") and row.ply == 1
    replay(services[1].record(pk))
    for s in stores:
        s.dispose()


def test_correspondence_deadline_is_set_and_renewed(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'corr.sqlite3'}")
    service = GameService(store)
    pk, users = start_game(service, {"kind": "correspondence", "days": 2})
    row = service.row(pk)
    assert row.deadline - row.turn_started == timedelta(days=2)
    assert all(s.clock_ms is None for s in row.seats)
    service.submit(pk, to_move_user(service, pk, users), "b2")
    after = service.row(pk)
    assert after.deadline - after.turn_started == timedelta(days=2)
    assert after.turn_started > row.turn_started and after.deadline > row.deadline
    assert service.expire_overdue() == []
    store.dispose()


@pytest.mark.parametrize("players", [3, 4])
def test_hexagone_with_more_players_ends_on_time_and_replays(tmp_path, players):
    store = Store(f"sqlite:///{tmp_path / 'hex.sqlite3'}")
    service = GameService(store)
    clock = {"kind": "live", "base": 0.3, "increment": 0}
    pk, users = start_game(service, clock, "hexagone", {"players": players}, n=players)
    late = service.row(pk).to_move
    time.sleep(0.5)
    assert service.expire_overdue() == [pk]
    row = service.row(pk)
    assert row.status == "finished" and [s.timed_out for s in row.seats].count(True) == 1
    assert row.seats[late].timed_out
    result = row.result
    assert result["timed_out"] == [late] and late not in result["winners"]
    assert result["ranking"][-1] == [late]
    _, state = service.state(pk)
    expected = timeout_result(state, [late])["winners"]
    assert result["winners"] == expected
    if players == 4 and late != 3:
        assert result["winners"] == [3]  # the handicap's captured white piece
    record = service.record(pk)
    assert json.loads(record.dumps())["result"]["ended"] == "timeout"
    replay(record)
    store.dispose()


# --- a real server: the sweeper ends a game no one moves in ------------------------------------
def shorten_clock(server, pk: int, seconds: float) -> None:
    """Give an open game a live clock shorter than the form allows (before it starts)."""
    store = Store(server.url, migrate_schema=False)
    with store.session() as db:
        db.execute(
            update(GameRow)
            .where(GameRow.id == pk)
            .values(clock={"kind": "live", "base": seconds, "increment": 0})
        )
        db.commit()
    store.dispose()


def test_the_server_ends_a_game_on_time_with_no_one_moving(server, make_user, anon):
    from tests.web.round.test_websocket import receive, socket_for

    a, b = make_user("clk"), make_user("clk")
    pk = create_game(a, "toy", [("me", ""), ("open", "")])
    shorten_clock(server, pk, 2.0)
    join(b, pk)
    started = view(anon, pk)
    assert started["status"] == "active" and started["clock"]["kind"] == "live"
    running = started["clock"]["running"]
    assert running == started["to_move"]
    assert 0 < started["clock"]["ms"][running] <= 2000
    assert started["clock"]["deadline"] - started["clock"]["now"] <= 2000
    time.sleep(0.3)
    again = view(anon, pk)["clock"]
    assert again["ms"][running] < started["clock"]["ms"][running]  # the server's clock runs
    assert again["ms"][1 - running] == 2000
    with socket_for(server, anon, pk) as watcher:
        state = receive(watcher, "state")
        deadline = time.monotonic() + 10
        while state["status"] != "finished" and time.monotonic() < deadline:
            state = receive(watcher, "state")  # told by the sweeper, not by any move
    assert state["status"] == "finished", "the sweeper did not end the game"
    result = state["result"]
    assert result["ended"] == "timeout" and result["timed_out"] == [running]
    assert result["winners"] == [1 - running]
    loser = started["seats"][running]["side"]
    assert result["reason"] == f"{loser} ran out of time"
    assert state["seats"][running]["timed_out"] and state["clock"]["ms"][running] == 0
    assert state["clock"]["running"] is None and state["clock"]["timed_out"] == [running]
    mover = a if started["seats"][running]["label"] == a.name else b
    late = move(mover, pk, "b2")
    assert late.status_code == 409 and "over" in late.json()["error"]
    record = mover.get(f"/games/{pk}/record.json")
    assert record.status_code == 200
    from ludoteca.record import Record

    replay(Record.loads(record.text))
    assert "ran out of time" in anon.get("/").text  # the lobby's recent games say why


# --- the browser ------------------------------------------------------------------------------
def clock_seconds(text: str) -> float:
    match = re.fullmatch(r"(?:(\d+):)?(\d+):(\d+)(?:\.(\d))?", text.strip())
    assert match, f"not a clock: {text!r}"
    h, m, s, tenth = match.groups()
    return int(h or 0) * 3600 + int(m) * 60 + int(s) + int(tenth or 0) / 10


def test_the_browser_shows_the_clocks_ticking(browser, server, make_user):
    from tests.web.browser import register_in_browser

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    name = f"tick{next(_db)}"
    register_in_browser(page, server.base, name)
    page.goto(f"{server.base}/games/new?game=toy")
    page.select_option('select[name="seat0"]', "me")
    page.select_option('select[name="seat1"]', "open")
    page.select_option("#clock-select", "live")
    page.fill("#clock-base", "1")
    page.fill("#clock-increment", "0")
    page.click("#create")
    page.wait_for_selector("#play[data-synced='1']")
    pk = int(page.get_attribute("#play", "data-id"))
    other = make_user("tock")
    join(other, pk)
    page.wait_for_selector("#seats .clock.running")
    assert "Live clock: 1 min + 0 s a move" in page.inner_text("#clock-info")
    first = clock_seconds(page.inner_text("#seats .clock.running"))
    idle = page.inner_text("#seats .clock:not(.running)")
    assert clock_seconds(idle) == 60 and 55 < first <= 60
    page.wait_for_timeout(1500)
    second = clock_seconds(page.inner_text("#seats .clock.running"))
    assert 0.8 < first - second < 3, (first, second)  # it ticks, at the pace of real time
    # a correspondence game shows the time left to move in days and hours
    pk2 = create_game(other, "toy", [("me", ""), ("open", "")])
    store = Store(server.url, migrate_schema=False)
    with store.session() as db:
        db.execute(
            update(GameRow)
            .where(GameRow.id == pk2)
            .values(clock={"kind": "correspondence", "days": 3})
        )
        db.commit()
        assert db.scalar(select(GameRow.clock).where(GameRow.id == pk2))["days"] == 3
    store.dispose()
    page.goto(f"{server.base}/games/{pk2}")
    page.click("#join")
    page.wait_for_selector("#seats .clock.running")
    assert re.fullmatch(r"2 days 23 h left", page.inner_text("#seats .clock.running"))
    assert "Correspondence: 3 days a move" in page.inner_text("#clock-info")
    context.close()
