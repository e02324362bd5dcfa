"""Reading a game on the server: the stored game, its state and its moves, kept per game
(:mod:`~ludoteca.web.round.cached`) and checked against the database.

A kept state whose ply differs from the database's is brought up to date by replaying the
stored moves, so several server processes sharing one database never act on a stale board.
Within a process a lock per game orders the changes. The roles that change games
(:mod:`.playing`, :mod:`.finishing`, :mod:`.setup`) are handed this reader to read through.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import joinedload

from ludoteca.core.errors import GameError
from ludoteca.core.protocol import Game, State
from ludoteca.core.registry import get as get_game
from ludoteca.core.table import start_from
from ludoteca.record import Record
from ludoteca.web.infra.fanout import is_postgres
from ludoteca.web.infra.store import GameRow, MoveRow, Store, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round import clocks
from ludoteca.web.round.cached import MAX_CACHED_GAMES, GameCache, Live
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.move_news import read_news
from ludoteca.web.round.storage import (
    HEAD,
    MOVE_TEXTS,
    MOVED_COLUMNS,
    PLAYED_MOVES,
    SESSION_OPEN,
    PlayedMove,
    caught_up,
    record_of,
)

TurnHook = Callable[[Any, GameRow, int, datetime], None]
"""``(db, row, to_move, now)``: a turn began at ``now`` for seat ``to_move`` and the clocks
set ``row.deadline``; the hook may push it back (a vacation). Run before the move's claim
writes the deadline, so the claim and the news the other processes hear carry it."""


class GameReader:
    """The games of one database as this process reads them, kept in ``cache``."""

    def __init__(self, store: Store, cache: GameCache) -> None:
        self.store = store
        self.cache = cache
        self.tells_news = is_postgres(store)
        """Whether a move's notification carries what it changed (other processes hear it)."""
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.on_turn: list[TurnHook] = []
        """Run whenever a turn begins (see :data:`TurnHook`); cheap when they have nothing
        to do, as they run on every turn."""
        self._botless: set[int] = set()
        """Games seen without a computer seat; seats never become one after creation."""

    def run_clocks(self, db, row: GameRow, mover: int | None, to_move: int, now: datetime) -> None:
        """The clocks after moves (:func:`.clocks.after_moves`), then the turn hooks if a
        turn began: every change of the player to move comes through here."""
        clocks.after_moves(row, mover, to_move, now)
        if row.turn_started == now and row.deadline is not None:
            for hook in self.on_turn:
                hook(db, row, to_move, now)

    def lock(self, pk: int) -> threading.Lock:
        """The lock that orders this process's changes to game ``pk``."""
        with self._locks_guard:
            return self._locks.setdefault(pk, threading.Lock())

    def make_game(self, game_id: str, options: dict[str, Any]) -> Game:
        if game_id not in available_games():
            raise ClubError("There is no game called {game_id!r}.", game_id=game_id)
        try:
            return get_game(game_id, **options)  # which checks the number of players
        except GameError as exc:
            raise ClubError(
                "Bad options for {game_id}: {why}", game_id=game_id, why=exc.text
            ) from None
        except TypeError as exc:
            raise ClubError("Bad options for {game_id}: {exc}", game_id=game_id, exc=exc) from None

    # --- reading --------------------------------------------------------------------------------
    def row(self, pk: int) -> GameRow:
        with self.store.session() as db:
            return self.row_in(db, pk)

    def state(self, pk: int) -> tuple[GameRow, State]:
        """The stored game and its current state (a copy: callers may look, not touch)."""
        with self.lock(pk), self.store.session() as db:
            row = self.row_in(db, pk)
            return row, self.state_in(db, row).clone()

    def snapshot(
        self, pk: int, *, after_own_change: bool = False, news: list[str | None] | None = None
    ) -> tuple[GameRow, State, list[PlayedMove]]:
        """The stored game, a copy of its state and its moves, read together in one session
        under the game's lock: everything a view is made of, consistent with each other. It
        runs after every move for every watcher, so it reads only the moves it has not seen.

        ``after_own_change``: the caller has just committed a move to ``pk`` in this process
        and wants the game as that move left it. What the commit kept answers without
        reading the database at all. A change made since, here or in another process,
        brings its own views after these (the hub delivers each change in turn).

        ``news``: what the changes made in other processes since the caller's last snapshot
        said they changed, in order (:mod:`~ludoteca.web.round.move_news`); if they follow
        what is kept, the game is brought up to date from them without a read."""
        with self.lock(pk):
            learned = after_own_change or (bool(news) and self._learn(pk, news or []))
            kept = self._as_committed(pk) if learned else None
            if kept is not None:
                return kept
            return self._read_snapshot(pk)

    def _learn(self, pk: int, heard: list[str | None]) -> bool:
        """Bring the kept game up to date with the news of other processes' moves, in the
        order they were committed; False if any change came without news or does not follow
        what is kept (the caller then reads the database). Nothing is changed but the kept
        entries, each replaced whole, so a view reading the old ones is undisturbed."""
        for text in heard:
            news = None if text is None else read_news(text)
            if news is None:
                return False
            kept = self.cache.get(pk)
            row, live, known = kept.row, kept.live, kept.moves
            if not kept.whole():
                return False
            assert row is not None and live is not None and known is not None
            if clocks.live(row) or news.takebacks != row.takebacks:
                return False  # a takeback since (or before) what is kept: read it
            if news.ply <= row.ply:
                continue  # read from the database since
            if news.first_ply != row.ply:
                return False
            state = live.state.clone()
            try:
                for _, move, _, _ in news.moves:
                    state.play(move)
            except GameError:
                return False
            if state.is_over:  # news is sent only for moves after which the game goes on
                return False
            self.cache.keep(
                pk,
                takebacks=row.takebacks,
                live=Live(news.ply, state),
                row=caught_up(row, news),
                moves=(*known, *(PlayedMove(*m) for m in news.moves)),
            )
        return True

    def _as_committed(self, pk: int) -> tuple[GameRow, State, list[PlayedMove]] | None:
        """The game as this process's last commit to it left it, or None if that is not
        kept whole (the game ended, or it was forgotten)."""
        kept = self.cache.get(pk)
        row, live, known = kept.row, kept.live, kept.moves
        if not kept.whole():
            return None
        assert row is not None and live is not None and known is not None
        return row, live.state.clone(), list(known)

    def _read_snapshot(self, pk: int) -> tuple[GameRow, State, list[PlayedMove]]:
        # a plain connection: the kept row and state usually answer, and a read through an ORM
        # session cost more than the statements (see _fresh_row for when it is needed)
        with self.store.read_connection() as db:
            row = self._fresh_row(db, pk)
            state = self.state_in(db, row).clone()
            known = self.cache.of_line(pk, row.takebacks).moves or ()
            if len(known) > row.ply:
                known = ()
            if len(known) < row.ply:
                newer = db.execute(
                    PLAYED_MOVES, {"pk": pk, "first": len(known), "last": row.ply}
                ).all()
                known = (*known, *(PlayedMove(*m) for m in newer))
            self.cache.keep(pk, takebacks=row.takebacks, moves=known)
            with self._locks_guard:
                if not any(s.kind == "bot" for s in row.seats):
                    if len(self._botless) > 100 * MAX_CACHED_GAMES:
                        self._botless.clear()
                    self._botless.add(pk)
            return row, state, list(known)

    def may_have_bots(self, pk: int) -> bool:
        """False for a game known to have no computer seat: nothing for a bot to do there."""
        return pk not in self._botless

    def moves(self, pk: int) -> list[MoveRow]:
        with self.store.session() as db:
            return list(
                db.scalars(select(MoveRow).where(MoveRow.game_id == pk).order_by(MoveRow.ply))
            )

    def start_state(self, row: GameRow) -> State:
        game = self.make_game(row.game, dict(row.options))
        if game.rules_version != row.rules_version:
            raise ClubError(
                "This game was played under {game} rules version {rules_version}; this server "
                "implements version {rules_version2}.",
                500,
                game=row.game,
                rules_version=row.rules_version,
                rules_version2=game.rules_version,
            )
        return start_from(game, row.seed, row.start)

    def states_along(self, pk: int) -> tuple[GameRow, list[MoveRow], State]:
        row = self.row(pk)
        return row, self.moves(pk), self.start_state(row)

    def record(self, pk: int) -> Record:
        row, moves, start = self.states_along(pk)
        return record_of(row, start, [m.text for m in moves])

    # --- what the roles that change games read through, in their own session ----------------
    def row_in(self, db, pk: int) -> GameRow:
        """Game ``pk`` loaded in ``db``, with its seats (and their users) in the same query:
        every move reads them."""
        row = db.get(GameRow, pk, options=[joinedload(GameRow.seats)])
        if row is None:
            raise ClubError("There is no game number {pk}.", 404, pk=pk)
        return row

    def _fresh_row(self, db, pk: int) -> GameRow:
        """The game as stored now, for reading only. The row this process committed its last
        move with is still exact if the game is still active at that ply: while a game is
        active, everything else that changes it (resigning, a time-out) also ends it. One
        narrow query checks that instead of loading the game with its seats and players;
        after moves made through another process it also holds what they changed."""
        kept = self.cache.get(pk).row
        if kept is not None:
            # on the connection itself: the ORM's handling of a statement costs more than
            # SQLite's, and this one needs none of it
            conn = db.connection() if isinstance(db, OrmSession) else db
            head = conn.execute(HEAD, {"pk": pk}).one_or_none()
            if (
                head is not None
                and head.status == "active"
                and head.takebacks == kept.takebacks  # else the same ply is another line
            ):
                if head.ply == kept.ply and all(
                    getattr(head, name) == getattr(kept, name) for name in MOVED_COLUMNS
                ):
                    return kept
                if head.ply >= kept.ply and not clocks.live(kept):
                    # Moved since, by another process (players of one game are often served
                    # by different processes), or a vacation pushed the deadline back: the
                    # head holds all that changed.
                    row = caught_up(kept, head)
                    self.cache.keep(pk, takebacks=row.takebacks, row=row)
                    return row
            self.cache.drop_row(pk)
        if isinstance(db, Connection):  # a plain connection cannot load ORM rows
            with self.store.reading() as orm:
                return self.row_in(orm, pk)
        return self.row_in(db, pk)

    def session_open(self, session_hash: str, user_id: int) -> bool:
        """Whether a move's refused claim was refused for its session (closed or expired)."""
        with self.store.read_connection() as conn:
            found = conn.execute(
                select(SESSION_OPEN),
                {"session_hash": session_hash, "session_user": user_id, "session_now": utcnow()},
            ).scalar()
        return bool(found)

    def row_to_move(self, db, pk: int, trust_kept: bool) -> tuple[GameRow, bool]:
        """The game to make a move in, attached to ``db``, and whether it is the kept row
        taken on trust. With ``trust_kept``, the row this process last kept of an active game
        is used without the query that checks it (:meth:`_fresh_row`): the move's claim
        checks it anyway (:data:`CLAIM` matches only the game at that ply, not finished,
        and at one ply an active game is always the same), so a move made on it is right,
        and :meth:`.playing.Playing.submit` tries again on the stored game before refusing
        anything. Not for a game whose player to move is out of time, which only the stored
        game may end."""
        kept = self.cache.get(pk).row if trust_kept else None
        if kept is not None and kept.status == "active" and not clocks.overdue(kept, utcnow()):
            return db.merge(kept, load=False), True
        return self._row_to_change(db, pk), False

    def _row_to_change(self, db, pk: int) -> GameRow:
        """The game as stored now, attached to ``db`` to be changed. A kept row still exact
        (:meth:`_fresh_row`) is copied into the session without a query; the copy, not the
        kept row, is changed, since views may be reading the kept one."""
        row = self._fresh_row(db, pk)
        if row in db:
            return row
        return db.merge(row, load=False)

    def state_in(self, db, row: GameRow) -> State:
        """The state of ``row`` at its ply: the kept one (not a copy: the caller holds the
        game's lock), or one caught up or replayed from the stored moves, then kept."""
        live = self.cache.of_line(row.id, row.takebacks).live
        if live is not None and live.ply == row.ply:
            return live.state
        # Stored moves are only ever added to: a cached state behind the database (another
        # process moved) catches up by playing the newer moves instead of the whole game.
        behind = live is not None and live.ply < row.ply
        first = live.ply if live is not None and behind else 0
        state = live.state.clone() if live is not None and behind else self.start_state(row)
        texts = db.scalars(MOVE_TEXTS, {"pk": row.id, "first": first, "last": row.ply}).all()
        for number, text in enumerate(texts, start=first + 1):
            try:
                state.play(text)
            except GameError as exc:
                if behind:  # not the game the cache thought: restore it from the start
                    self.cache.drop_state(row.id)
                    return self.state_in(db, row)
                raise ClubError(
                    "Game {id} cannot be restored: move {number} {text!r} is refused by the "
                    "engine ({why}).",
                    500,
                    id=row.id,
                    number=number,
                    text=text,
                    why=exc.text,
                ) from None
        self.cache.keep(row.id, takebacks=row.takebacks, live=Live(first + len(texts), state))
        return state
