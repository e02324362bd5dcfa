"""Storage on SQLite and on a real PostgreSQL: migrations, games kept as their moves,
restoring by replay after a "restart" (a new store on the same database), and two
processes racing for the same ply."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select

from ludoteca.core.protocol import CHANCE
from ludoteca.web.accounts.service import Accounts
from ludoteca.web.infra.store import GameRow, MoveRow, Store
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.service import GameService, SeatSpec


def users(store: Store):
    accounts = Accounts(store, b"k" * 32)
    return accounts.register("alice", "a fine password"), accounts.register("bob", "another one!")


def test_migration_creates_the_schema_and_is_idempotent(url):
    store = Store(url)
    Store(url).dispose()  # a second start migrates nothing and fails nothing
    tables = set(inspect(store.engine).get_table_names())
    assert {"users", "sessions", "games", "seats", "moves", "settings", "alembic_version"} <= tables
    store.dispose()


def test_game_survives_a_restart_exactly(url):
    store = Store(url)
    alice, bob = users(store)
    service = GameService(store)
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    service.join(pk, bob)
    row, state = service.state(pk)
    mover = {0: alice, 1: bob}
    for cell in ("b2", "a1", "c3"):
        service.submit(pk, mover[state.to_move], cell)
        row, state = service.state(pk)
    position = state.position()
    with store.session() as db:
        moves = db.scalars(select(MoveRow).where(MoveRow.game_id == pk).order_by(MoveRow.ply))
        stored = [(m.ply, m.text, m.player) for m in moves]
    store.dispose()
    assert stored[0][2] == CHANCE and stored[0][1].startswith("toss ")
    assert [t for _, t, _ in stored[1:]] == ["b2", "a1", "c3"]

    again = GameService(Store(url))  # a new process: empty cache, same database
    row2, state2 = again.state(pk)
    assert state2.position() == position
    assert row2.ply == 4 and row2.status == "active"
    assert row2.to_move == state2.to_move
    again.submit(pk, mover[state2.to_move], "c1")
    assert again.state(pk)[0].ply == 5
    again.store.dispose()


def test_the_toss_comes_from_the_secret_seed(url):
    store = Store(url)
    alice, bob = users(store)
    service = GameService(store)
    tosses = set()
    for _ in range(12):
        pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
        service.join(pk, bob)
        tosses.add(service.moves(pk)[0].text)
        # Re-deriving from the stored seed gives the same draw.
        with store.session() as db:
            row = db.get(GameRow, pk)
            from ludoteca.core.table import ply_rng as table_rng
            from ludoteca.core.table import sample_chance

            fresh = service.start_state(row)
            assert sample_chance(fresh, table_rng(row.seed, 0)) == service.moves(pk)[0].text
    assert tosses == {"toss x", "toss o"}  # 12 fair tosses all alike: p = 1/2048
    store.dispose()


def test_two_processes_cannot_both_move_at_one_ply(url):
    store = Store(url)
    alice, bob = users(store)
    one = GameService(store)
    pk = one.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    one.join(pk, bob)
    other = GameService(Store(url))
    _, state = one.state(pk)
    other.state(pk)  # both processes have the game cached at the same ply
    mover = {0: alice, 1: bob}[state.to_move]
    one.submit(pk, mover, "a1")
    with pytest.raises(ClubError):
        # The other process still believes it is ply 1; its insert of ply 1 must fail or
        # be refused as stale, never stored as a second move 1.
        other.submit(pk, mover, "b1")
    with store.session() as db:
        texts = db.scalars(select(MoveRow.text).where(MoveRow.game_id == pk)).all()
    assert sorted(texts[1:]) == ["a1"]
    store.dispose()
    other.store.dispose()


def test_refused_move_leaves_the_database_unchanged(url):
    store = Store(url)
    alice, bob = users(store)
    service = GameService(store)
    pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    service.join(pk, bob)
    _, state = service.state(pk)
    mover, waiting = ({0: alice, 1: bob}[state.to_move], {0: bob, 1: alice}[state.to_move])
    service.submit(pk, mover, "a1")
    for who, text in ((mover, "b1"), (waiting, "a1"), (waiting, "zz"), (waiting, "")):
        with pytest.raises(ClubError):
            service.submit(pk, who, text)
    assert [m.text for m in service.moves(pk)][1:] == ["a1"]
    store.dispose()


def test_a_true_race_for_one_ply_stores_one_move(url):
    """Two processes validate the same move at the same ply at the same moment; the
    database's key on (game, ply) lets exactly one of them commit."""
    import threading

    barrier = threading.Barrier(2, timeout=20)

    def racing(url: str) -> GameService:
        """A service whose moves wait for each other after validation, before the commit."""
        service = GameService(Store(url))
        resolve_chance = service.playing.resolve_chance

        def resolve_then_wait(row, state, first_ply=None):
            drawn = resolve_chance(row, state, first_ply)
            if first_ply is not None:  # inside submit, after validation, before the commit
                barrier.wait()
            return drawn

        service.playing.resolve_chance = resolve_then_wait
        return service

    store = Store(url)
    alice, bob = users(store)
    setup = GameService(store)
    pk = setup.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    setup.join(pk, bob)
    mover = {0: alice, 1: bob}[setup.state(pk)[1].to_move]
    one, two = racing(url), racing(url)
    outcomes: list[object] = []

    def play(service, cell):
        try:
            outcomes.append(service.submit(pk, mover, cell))
        except ClubError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=play, args=a) for a in ((one, "a1"), (two, "c3"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    refused = [o for o in outcomes if isinstance(o, ClubError)]
    assert len(outcomes) == 2 and len(refused) == 1
    assert refused[0].status == 409 and "same time" in refused[0].message
    texts = [m.text for m in GameService(store).moves(pk)]
    assert len(texts) == 2 and texts[1] in {"a1", "c3"}
    for s in (store, one.store, two.store):
        s.dispose()


def test_upgrade_from_the_first_schema_keeps_the_games(url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from ludoteca.web.infra.store import normalise_url

    config = Config()
    config.set_main_option(
        "script_location", str(__import__("ludoteca.web.migrations", fromlist=["x"]).__path__[0])
    )
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, game, rules_version, options, seed, status, created,"
                " to_move, ply) VALUES (1, 'toy', '1', '{}', 5, 'active', '2026-01-01', 0, 1)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO moves (game_id, ply, text, player, created)"
                " VALUES (1, 0, 'toss x', -1, '2026-01-01')"
            )
        )
    engine.dispose()
    store = Store(url)  # migrates to the newest schema on start
    with store.session() as db:
        moves = db.scalars(select(MoveRow)).all()
        assert [(m.text, m.note) for m in moves] == [("toss x", None)]
    store.dispose()


@pytest.fixture
def two_processes(url):
    """A toy game between alice and bob, seen by two services on the same database (two
    server processes): ``here`` and ``there``, with ``mover``, the user of each seat."""
    store, other_store = Store(url), Store(url)
    alice, bob = users(store)
    here, there = GameService(store), GameService(other_store)
    pk = here.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
    here.join(pk, bob)
    yield here, there, pk, {0: alice, 1: bob}
    store.dispose()
    other_store.dispose()


def test_views_see_what_another_process_did_after_this_ones_move(two_processes):
    """After a move, this process keeps the row it committed for the next views; a move or a
    resignation made through another process (another service on the same database) must
    still show in this process's views at once."""
    here, there, pk, mover = two_processes
    _, state = here.state(pk)
    here.submit(pk, mover[state.to_move], "b2")
    row, _, moves = here.snapshot(pk)
    assert row.ply == 2 and [m.text for m in moves][1:] == ["b2"]

    _, state = there.state(pk)
    there.submit(pk, mover[state.to_move], "a1")  # the other process moves
    row, state, moves = here.snapshot(pk)
    assert row.ply == 3 and [m.text for m in moves][1:] == ["b2", "a1"]
    assert state.to_move == row.to_move

    here.submit(pk, mover[state.to_move], "c3")
    there.resign(pk, mover[0])  # the other process ends the game, at the same ply
    row, _, moves = here.snapshot(pk)
    assert row.status == "finished" and row.ply == 4
    assert [m.text for m in moves][1:] == ["b2", "a1", "c3"]


def test_a_move_is_judged_by_what_another_process_did_after_this_ones_last(two_processes):
    """Moves start from the row this process last committed when it is still exact; after
    another process moved or ended the game, they must see that instead."""
    here, there, pk, mover = two_processes
    _, state = here.state(pk)
    first, second = mover[state.to_move], mover[1 - state.to_move]
    here.submit(pk, first, "b2")
    there.submit(pk, second, "a1")  # here still keeps the row at ply 2
    with pytest.raises(ClubError, match="not your turn"):
        here.submit(pk, second, "c3")
    here.submit(pk, first, "c3")
    there.resign(pk, second)
    with pytest.raises(ClubError, match="the game is over"):
        here.submit(pk, second, "a2")
    assert [m.text for m in here.moves(pk)][1:] == ["b2", "a1", "c3"]


@pytest.mark.parametrize(("setting", "pragma"), [("normal", 1), ("full", 2)])
def test_sqlite_sync_sets_the_pragma_on_every_connection(tmp_path, setting, pragma):
    from sqlalchemy import text

    store = Store(f"sqlite:///{tmp_path}/club.db", sqlite_sync=setting)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == pragma
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        store.dispose()


def test_sqlite_sync_refuses_other_settings(tmp_path):
    with pytest.raises(ValueError, match="normal, full"):
        Store(f"sqlite:///{tmp_path}/club.db", sqlite_sync="off")


def test_the_views_after_this_process_s_own_move_read_nothing(two_processes):
    """Right after its own move, a process shows the game as its commit left it without
    reading the database (the views of every watcher after every move come from there);
    a game that has ended since, or one it no longer keeps whole, is read again."""
    from sqlalchemy import event

    here, there, pk, mover = two_processes
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(here.store.engine, "before_cursor_execute", count)  # its readers' too
    try:
        _, state, _ = here.snapshot(pk)  # a page opens: the moves so far are read
        here.submit(pk, mover[state.to_move], "b2")
        statements.clear()
        row, state, moves = here.snapshot(pk, after_own_change=True)
        assert statements == []
        assert row.ply == 2 and state.to_move == row.to_move
        assert [m.text for m in moves][1:] == ["b2"]
        assert (row.ply, [m.text for m in moves]) == (
            here.snapshot(pk)[0].ply,
            [m.text for m in here.snapshot(pk)[2]],
        )

        there.resign(pk, mover[0])  # seen by a plain snapshot, which forgets the kept row
        row, _, _ = here.snapshot(pk)
        assert row.status == "finished"
        statements.clear()
        row, _, _ = here.snapshot(pk, after_own_change=True)
        assert row.status == "finished" and statements != []
    finally:
        event.remove(here.store.engine, "before_cursor_execute", count)


def expire_session(store: Store, token: str) -> None:
    """Make the session ``token`` opened expire a second ago, as time passing would."""
    from datetime import timedelta

    from sqlalchemy import update

    from ludoteca.web.accounts.service import hash_token
    from ludoteca.web.infra.store import Session, utcnow

    with store.session() as db:
        db.execute(
            update(Session)
            .where(Session.token_hash == hash_token(token))
            .values(expires=utcnow() - timedelta(seconds=1))
        )
        db.commit()


def test_whose_session_a_move_checks(url):
    """A move over a socket asks only whose session its cookie opened: the user's id while it
    is open, None once it is closed or has expired (an expired one is removed as log-out
    would remove it)."""

    from ludoteca.web.accounts.service import hash_token
    from ludoteca.web.infra.store import Session

    store = Store(url)
    try:
        accounts = Accounts(store, b"k" * 32)
        alice = accounts.register("alice", "a fine password")
        token, other = accounts.open_session(alice), accounts.open_session(alice)
        assert accounts.session_user_id(token) == alice.id
        assert accounts.session_user_id(None) is None
        assert accounts.session_user_id("not a session") is None
        accounts.close_session(token)
        assert accounts.session_user_id(token) is None
        expire_session(store, other)
        assert accounts.session_user_id(other) is None
        with store.session() as db:
            assert db.get(Session, hash_token(other)) is None
    finally:
        store.dispose()


def test_a_kept_row_is_brought_up_to_date_after_another_process_moved(two_processes):
    """Players of one game are often served by different processes, so most moves a process
    sees were made by another. It brings the row it keeps up to date from the game's head
    (ply, turn, deadline) instead of loading the game with its seats and players again, and
    moves and views go on from that copy exactly as from a fresh read."""
    from sqlalchemy import event

    here, there, pk, mover = two_processes
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    _, state = here.state(pk)
    here.submit(pk, mover[state.to_move], "b2")
    kept = here.cache.get(pk).row
    _, state = there.state(pk)
    there.submit(pk, mover[state.to_move], "a1")  # the other process moves
    fresh = there.row(pk)

    event.listen(here.store.engine, "before_cursor_execute", count)
    try:
        row, state, moves = here.snapshot(pk)
    finally:
        event.remove(here.store.engine, "before_cursor_execute", count)
    assert not any("seats" in s or "users" in s for s in statements), statements
    assert (row.ply, row.to_move, row.status) == (fresh.ply, fresh.to_move, "active")
    assert (row.turn_started, row.deadline) == (fresh.turn_started, fresh.deadline)
    assert [s.user_id for s in row.seats] == [s.user_id for s in fresh.seats]
    assert state.to_move == row.to_move and [m.text for m in moves][1:] == ["b2", "a1"]
    assert kept.ply == 2  # the kept row itself is never changed: views may be reading it

    here.submit(pk, mover[state.to_move], "c3")  # a move made from the brought-up copy
    assert [m.text for m in there.moves(pk)][1:] == ["b2", "a1", "c3"]
    stored = there.row(pk)
    assert (stored.ply, stored.to_move, stored.status) == (4, here.row(pk).to_move, "active")
    assert stored.deadline is not None and stored.turn_started is not None


def test_a_move_notifies_the_other_processes_once(postgres):
    """A move's commit tells the other processes on PostgreSQL that its game changed. The
    claim names the game before the commit and the commit's flush named it again, two
    statements for one notification; each game is now named once a transaction."""
    from sqlalchemy import event

    from ludoteca.web.infra.fanout import notify_on_commit

    store = Store(postgres.fresh_database("notify_once"))
    try:
        notify_on_commit(store, "here")
        alice, bob = users(store)
        service = GameService(store)
        pk = service.create(alice, "toy", {}, [SeatSpec("me"), SeatSpec("user", user="bob")])
        service.join(pk, bob)
        _, state = service.state(pk)
        notified: list[dict] = []

        def count(_conn, _cursor, statement, parameters, *_args) -> None:
            if "pg_notify" in statement:
                notified.append(parameters)

        event.listen(store.engine, "before_cursor_execute", count)
        try:
            service.submit(pk, {0: alice, 1: bob}[state.to_move], "b2")
            assert len(notified) == 1, notified
            assert f"{pk} here" in str(notified[0])
            _, state = service.state(pk)
            service.submit(pk, {0: alice, 1: bob}[state.to_move], "a1")  # and at the next
            assert len(notified) == 2, notified
        finally:
            event.remove(store.engine, "before_cursor_execute", count)
    finally:
        store.dispose()


def test_the_migrations_make_the_indexes_the_models_declare(url):
    """Every index a model declares (``index=True``) is made by a migration, so that a query
    written for it finds it in a club's database, not only in a schema made from the models."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import ludoteca.web.app  # noqa: F401  (every feature's tables, whatever this run imported)
    from ludoteca.web.infra.store import Base

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        store.dispose()
    missing = [d for d in diff if isinstance(d, tuple) and d[0] == "add_index"]
    assert not missing, missing
