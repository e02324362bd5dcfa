"""Storage for the web club: accounts, sessions and games kept as their records.

A game is stored as the parts of its record (principle 2 of ``docs/ARCHITECTURE.md``): game id,
rules version, options, the secret seed, the start position, the seats and the list of moves,
one row per move. No board is ever stored; a game is restored by replaying its moves through the
engine. The ``moves`` table's primary key ``(game_id, ply)`` is what keeps two server processes
from both committing a move at the same ply: the second insert fails and its move is refused.

The schema is created and upgraded by the Alembic migrations in
:mod:`ludoteca.web.migrations`; the table definitions here must match them.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, sessionmaker

from ludoteca.web.infra.pool_ping import ping_when_idle
from ludoteca.web.infra.sqlite_checkpoints import Checkpointer

DEFAULT_DATABASE = "sqlite:///var/ludoteca.sqlite3"
MIGRATION_LOCK = 0x6C75646F
"""The PostgreSQL advisory lock that one migrating process holds at a time."""


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class Setting(Base):
    """Server-wide values that every process must share, such as the signing key."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    """The name folded to lower case: ``Alice`` and ``alice`` are one account."""
    password_hash: Mapped[str] = mapped_column(String(255))
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """The language the member registered in, or chose since with the menu (``en``, ``de``,
    ``ja``); ``None`` only for members older than that rule who never chose."""
    name_skeleton: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """What the name looks like (:func:`ludoteca.web.accounts.names.skeleton`): a new name
    that looks like an existing one (``aIice`` beside ``alice``) is refused."""


class Session(Base):
    """A logged-in browser. Only a hash of the cookie token is stored."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    expires: Mapped[datetime] = mapped_column(DateTime)
    user: Mapped[User] = relationship(lazy="joined")


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    rules_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    """Secret: the table's randomness comes from it; never sent to a browser while playing."""
    start: Mapped[str | None] = mapped_column(Text, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for players), ``active`` or ``finished``."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    started: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    to_move: Mapped[int] = mapped_column(Integer, default=0)
    """Cached from the engine after each move, so the lobby can say whose turn it is."""
    ply: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """A rated game changes its players' ratings when it ends; a casual one does not."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Only the players may watch a private game while it is played."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The time control, or None for untimed: ``{"kind": "live", "base": s, "increment": s}``
    (a Fischer clock) or ``{"kind": "correspondence", "days": d}`` (days per move)."""
    turn_started: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When the player to move started thinking: their clock runs from here."""
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    """When the player to move runs out of time; any process may end the game after it."""
    takebacks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many times moves were taken back (migration ``0017``). A takeback lowers the ply,
    and later moves bring it back up along another line: a process whose kept game is of an
    older count holds moves and a board that are no longer the game's, however equal the
    plies (:mod:`ludoteca.web.round.cached`), and a move's claim made on it is refused."""
    rematch_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The finished game this one is the rematch of: unique (migration ``0010``), so that
    however many presses of *Rematch* arrive at once, one game is made."""
    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.index", lazy="selectin", cascade="all, delete-orphan"
    )
    __table_args__ = (
        Index("ux_games_rematch_of", "rematch_of", unique=True),
        # The last finished games in order, for the lobby (migration 0016).
        Index("ix_games_status_finished", "status", "finished"),
    )


class Seat(Base):
    """A player's place at a game: open to anyone, reserved for a user, or a bot."""

    __tablename__ = "seats"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``open``, ``user`` (a person, once taken or reserved) or ``bot``."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    reserved_for: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    resigned: Mapped[bool] = mapped_column(Boolean, default=False)
    clock_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Time left on this seat's live clock when its turn last ended (milliseconds)."""
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False)
    user: Mapped[User | None] = relationship(foreign_keys=[user_id], lazy="joined")
    reserved: Mapped[User | None] = relationship(foreign_keys=[reserved_for], lazy="joined")
    __table_args__ = (
        # A member's games without reading their seats' rows: the profile (migration 0019).
        Index("ix_seats_user_game", "user_id", "game_id", "index"),
    )


class MoveRow(Base):
    __tablename__ = "moves"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    player: Mapped[int] = mapped_column(Integer)
    """The player index who chose it, ``-1`` (CHANCE) for an outcome the table drew."""
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The engine's line for people about the move (points scored, captures); not part of
    the record, which is the moves alone."""
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Rating(Base):
    """A user's current rating in one pool (a game, or a game at a player count)."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float | None] = mapped_column(Float, nullable=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    user: Mapped[User] = relationship(lazy="joined")


class RatingHistory(Base):
    """A rating after each rated game, for the profile's plot."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class LoginAttempt(Base):
    """A failed log-in, keyed by account and by address; shared by every server process so
    that guessing is limited however the requests are spread."""

    __tablename__ = "login_attempts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(96))
    created: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


UNAVAILABLE_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "53300"})
"""PostgreSQL's codes for a server shutting down or starting up (admin, crash shutdown,
cannot connect now) and for too many connections; class ``08`` (connection exceptions)
counts too."""
SQLITE_BUSY = ("database is locked", "unable to open database file")


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached for now (down, restarting,
    connection lost, pool exhausted, SQLite busy) rather than that a statement is wrong:
    the former is worth retrying in a moment, the latter is not."""
    from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(exc, PoolTimeout | DisconnectionError):
        return True
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    orig = exc.orig
    sqlstate = getattr(orig, "sqlstate", None)
    if sqlstate:
        return sqlstate.startswith("08") or sqlstate in UNAVAILABLE_SQLSTATES
    if not isinstance(exc, OperationalError):
        return False
    if type(orig).__module__.startswith("psycopg"):
        return True  # no SQLSTATE: the server was not reached at all
    return any(words in str(orig) for words in SQLITE_BUSY)


def normalise_url(url: str) -> str:
    """Accept the URLs people write (``postgresql://``, ``postgres://``) for our driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


SQLITE_SYNC = ("normal", "full")
"""SQLite's ``synchronous`` settings the club offers (see :func:`make_engine`)."""


def make_engine(
    url: str, sqlite_sync: str = "normal", *, background_checkpoints: bool = False
) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created on first use.

    SQLite runs in WAL mode. ``sqlite_sync`` is its ``synchronous`` setting: with ``normal``
    (SQLite's advice for WAL) a commit is written to the log but not flushed to the disk
    each time, so a crash of the club loses nothing and the file is never corrupted, while
    a power cut or an operating-system crash may take back the last moments' moves; with
    ``full`` every commit waits for the disk (1 to 10 ms here), and since commits take
    turns, a busy club queues moves behind those waits.

    With ``background_checkpoints`` no commit copies the log into the database: the caller
    runs a :class:`~ludoteca.web.infra.sqlite_checkpoints.Checkpointer` (as :class:`Store`
    does).
    """
    if sqlite_sync not in SQLITE_SYNC:
        raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}")
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        db = parsed.database
        if db and db != ":memory:":
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        from ludoteca.web.infra.sqlite_writes import (
            connection_factory,  # writers queue instead of polling
        )

        connect_args = {"check_same_thread": False, "timeout": 30, "factory": connection_factory()}
        # Every worker thread keeps its connection: with the default pool of 5 (and 10 more
        # opened and closed on demand) a busy club opened a connection, with its pragmas,
        # for most requests. 64 covers the request threads (40) and play's own (4).
        engine = create_engine(url, connect_args=connect_args, pool_size=64, max_overflow=16)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn, _record) -> None:  # pragma: no cover - driver detail
            cur = conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")  # one of SQLITE_SYNC
            if background_checkpoints:
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    engine = create_engine(url, pool_size=20, max_overflow=30)
    ping_when_idle(engine)  # not pool_pre_ping's round trip at every checkout
    return engine


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision.

    Several processes starting together on one PostgreSQL database take turns: the first
    migrates, the others wait for its commit and then find nothing to do."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).resolve().parents[1] / "migrations")
    )
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def database_url(explicit: str | None = None) -> str:
    """The database to use: ``--database``, else ``DATABASE_URL``, else the SQLite default."""
    return explicit or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE


class Store:
    """The engine and session factory the app works through."""

    def __init__(
        self, url: str, *, migrate_schema: bool = True, sqlite_sync: str = "normal"
    ) -> None:
        self.url = normalise_url(url)
        database = make_url(self.url).database if self.url.startswith("sqlite") else None
        on_file = bool(database) and database != ":memory:"
        self.engine = make_engine(self.url, sqlite_sync, background_checkpoints=on_file)
        self.checkpointer: Checkpointer | None = None
        """For a SQLite file, the thread that copies its log into it (no commit does)."""
        if on_file:
            assert database is not None
            self.checkpointer = Checkpointer(database).start()
        if migrate_schema:
            migrate(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        if self.engine.dialect.name == "sqlite":
            # SQLite's driver begins no transaction for a read anyway; switching each
            # connection to autocommit and back made a read twice as slow (0.48 against
            # 0.25 ms for a bare SELECT).
            self._read_engine = self.engine
            self.reading = self.session
        else:
            self._read_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            self.reading = sessionmaker(self._read_engine, expire_on_commit=False)
        """Sessions that only read, each statement on its own: no BEGIN and ROLLBACK round
        trips around them. The views after every move read this way. (PostgreSQL's default
        READ COMMITTED gives each statement a fresh snapshot even inside a transaction, so
        a transaction would add no consistency; the readers bound each query by the last.)"""

    def read_connection(self) -> Connection:
        """A plain connection for one quick read, outside any transaction (as :attr:`reading`).

        For the reads every request makes (whose session it is, the bell's count): a Core
        statement on a connection costs a third of an ORM session's query."""
        return self._read_engine.connect()

    def setting(self, key: str, default_factory) -> str:
        """A shared setting, created once (by whichever process gets there first)."""
        from sqlalchemy.exc import IntegrityError

        with self.session() as db:
            row = db.get(Setting, key)
            if row is not None:
                return row.value
            db.add(Setting(key=key, value=default_factory()))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
            return db.get(Setting, key).value  # type: ignore[union-attr]

    def dispose(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.engine.dispose()


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
