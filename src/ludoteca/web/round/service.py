"""Playing a game on the server: the only place where moves are accepted.

The server is the authority (principle 1 of ``docs/ARCHITECTURE.md``). A move arrives as text,
is parsed and played by the engine through the protocol, chance outcomes that follow are drawn
from the game's secret seed (principle 3), and only when the moves are committed to the database
is anyone told (the caller broadcasts after :meth:`GameService.submit` returns).

States are cached in memory by game and ply; a cache entry whose ply differs from the
database's is rebuilt by replaying the stored moves, so several server processes sharing one
database never act on a stale board. Within a process a lock per game orders the moves.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import joinedload, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from ludoteca.core.errors import GameError, IllegalMoveError, MalformedError
from ludoteca.core.messages import Text, to_stored
from ludoteca.core.protocol import CHANCE, TERMINAL, Game, Result, State
from ludoteca.core.registry import get as get_game
from ludoteca.core.table import draw_at, ply_rng, start_from
from ludoteca.record import Record
from ludoteca.web.infra.fanout import is_postgres, notice
from ludoteca.web.infra.store import GameRow, MoveRow, Seat, Store, User, utcnow
from ludoteca.web.infra.store import Session as StoredSession
from ludoteca.web.round import clocks, quotas
from ludoteca.web.round.catalog import available_games, bot_levels
from ludoteca.web.round.errors import ClubError, NewGameRefused, SessionEnded
from ludoteca.web.round.log import log_names, told
from ludoteca.web.round.move_news import news_text, read_news
from ludoteca.web.round.seats import BotJob

log = logging.getLogger("ludoteca.web")
MAX_MOVE_TEXT = 200
MAX_CACHED_GAMES = 512
"""Live states kept in memory; older ones are rebuilt by replay when next needed."""
SEAT_KINDS = ("me", "open", "user", "bot")


@dataclass(frozen=True)
class GameSettings:
    """How a game is played, beside its seats: rated or casual, private or watchable, and
    its time control (see :attr:`ludoteca.web.infra.store.GameRow.clock`)."""

    rated: bool = False
    private: bool = False
    clock: dict[str, Any] | None = None
    rematch_of: int | None = None
    """The finished game this one is a rematch of: a finished game has one rematch, so a
    second game asked for it is not made (:meth:`GameService.create` returns the first)."""


FinishHook = Callable[[Any, GameRow, State], None]
"""Called as ``hook(db, row, state)`` inside the transaction that ends a game, after its
result is set and before the commit, so what it writes stands or falls with the end."""
MovesHook = Callable[[Any, GameRow, State, "int | None"], None]
"""``(db, row, state, mover)``: the player who just moved, or None for the table."""


@dataclass
class SeatSpec:
    kind: str
    user: str | None = None
    bot: str | None = None


@dataclass
class Live:
    ply: int
    state: State


def keep_recent(cache: dict, key, value) -> None:
    """Store ``value`` in a per-game ``cache`` as its most recently used entry (last), and
    forget the least recently used ones beyond :data:`MAX_CACHED_GAMES`."""
    cache.pop(key, None)
    cache[key] = value
    while len(cache) > MAX_CACHED_GAMES:
        cache.pop(next(iter(cache)))


class PlayedMove(NamedTuple):
    """A stored move as the views show it. Kept for every game a process serves (see
    :meth:`GameService.snapshot`), so it is a plain tuple of strings and numbers, which the
    garbage collector stops tracking: ORM objects there (five or so per move, for hundreds of
    games) made each full collection pause the server for 100 ms and more."""

    ply: int
    text: str
    player: int
    note: str | None

    @classmethod
    def of(cls, row: MoveRow) -> PlayedMove:
        return cls(row.ply, row.text, row.player, row.note)


_GAMES = GameRow.__table__
_MOVES = MoveRow.__table__
_SESSIONS = StoredSession.__table__
# The statements every move runs, built once: building a statement, and the key SQLAlchemy
# looks its compiled form up by, cost more than running it on SQLite (a statement object
# remembers its key). Their values come as parameters at each call.
MOVED_COLUMNS = ("ply", "to_move", "turn_started", "deadline")
"""What a move writes to an active game without a live clock (:meth:`GameService._commit_moves`
claims it with these; the seats change only with a live clock, and everything else that
changes an active game also ends it)."""
HEAD = select(_GAMES.c.status, *(_GAMES.c[name] for name in MOVED_COLUMNS)).where(
    _GAMES.c.id == bindparam("pk")
)
"""The game's status and the columns a move changes: whether a kept row is still exact, and
what brings it up to date (:meth:`GameService._fresh_row`)."""
CLAIM = update(_GAMES).where(
    _GAMES.c.id == bindparam("claim_id"),
    _GAMES.c.ply == bindparam("claim_ply"),
    _GAMES.c.status != "finished",
)
"""A move's claim on its game: the columns to set come as parameters named after them."""
SESSION_OPEN = (
    select(_SESSIONS.c.token_hash)
    .where(
        _SESSIONS.c.token_hash == bindparam("session_hash"),
        _SESSIONS.c.user_id == bindparam("session_user"),
        _SESSIONS.c.expires >= bindparam("session_now"),
    )
    .exists()
)
CLAIM_IN_SESSION = CLAIM.where(SESSION_OPEN)
"""The claim of a move sent in a session (a game's socket), which must still be open: the
check every such move makes, in the claim's statement instead of a round trip of its own."""
ADD_MOVES = insert(_MOVES)
PLAYED_MOVES = (
    select(_MOVES.c.ply, _MOVES.c.text, _MOVES.c.player, _MOVES.c.note)
    .where(
        _MOVES.c.game_id == bindparam("pk"),
        _MOVES.c.ply >= bindparam("first"),
        _MOVES.c.ply < bindparam("last"),
    )
    .order_by(_MOVES.c.ply)
)
"""A game's moves from ply ``first`` up to ``last`` (excluded), in order."""
MOVE_TEXTS = PLAYED_MOVES.with_only_columns(_MOVES.c.text)
"""The same moves' texts alone: what replaying them into a state needs."""


class GameService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._tells_news = is_postgres(store)
        """Whether a move's notification carries what it changed (other processes hear it)."""
        self._cache: dict[int, Live] = {}
        self.listed = 0
        """Counts changes to which games are open, in progress or finished here, so that the
        lobby's lists kept for a second (``Club.lists``) are made again at once after one."""
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.on_finish: list[FinishHook] = []
        self.on_moves: list[MovesHook] = []
        """Run after each batch of moves is written, in its transaction (notifications of
        a correspondence turn); cheap when they have nothing to do, as they run on every
        move."""
        self._creating = threading.Lock()
        """Held while a game is created: the quotas are counted and the game added as one
        step (:mod:`ludoteca.web.round.quotas`; PostgreSQL also locks the creator's row)."""
        self._moves_read: dict[int, tuple[PlayedMove, ...]] = {}
        """Moves already read, by game: stored moves never change, so a view only fetches
        the newer ones (see :meth:`snapshot`)."""
        self._botless: set[int] = set()
        """Games seen without a computer seat; seats never become one after creation."""
        self._committed: dict[int, GameRow] = {}
        """The game rows this process last committed a move to, or brought up to date after
        another process's moves (:func:`_caught_up`), kept (detached, never changed again)
        so that the views after a move need not read the game again: see
        :meth:`_fresh_row`."""

    def lock(self, pk: int) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(pk, threading.Lock())

    # --- creating and joining -----------------------------------------------------------------
    def make_game(self, game_id: str, options: dict[str, Any]) -> Game:
        if game_id not in available_games():
            raise ClubError("There is no game called {game_id!r}.", game_id=game_id)
        try:
            game = get_game(game_id, **options)
            if not game.min_players <= game.num_players <= game.max_players:
                raise ClubError(
                    "{title} is for {min_players} to {max_players} players.",
                    title=game.title,
                    min_players=game.min_players,
                    max_players=game.max_players,
                )
            return game
        except GameError as exc:
            raise ClubError(
                "Bad options for {game_id}: {why}", game_id=game_id, why=exc.text
            ) from None
        except TypeError as exc:
            raise ClubError("Bad options for {game_id}: {exc}", game_id=game_id, exc=exc) from None

    def create(
        self,
        creator: User,
        game_id: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        settings: GameSettings | None = None,
    ) -> int:
        settings = settings or GameSettings()
        game = self.make_game(game_id, options)
        if len(seats) != game.num_players:
            raise ClubError(
                "{title} with these options needs {num_players} seats.",
                title=game.title,
                num_players=game.num_players,
            )
        seed = secrets.randbits(62)
        try:
            state = game.new_state(seed=seed)
        except GameError as exc:
            raise ClubError("Cannot start {title}: {why}", title=game.title, why=exc.text) from None
        levels = bot_levels()
        rows: list[Seat] = []
        with self._creating, self.store.session() as db:
            quotas.lock_creator(db, creator.id)
            for index, spec in enumerate(seats):
                if spec.kind == "me":
                    rows.append(Seat(index=index, kind="user", user_id=creator.id))
                elif spec.kind == "open":
                    rows.append(Seat(index=index, kind="open"))
                elif spec.kind == "user":
                    name = (spec.user or "").strip()
                    other = db.scalar(select(User).where(User.name_key == name.lower()))
                    if other is None:
                        raise ClubError(
                            "Seat {index}: there is no user called {name!r}.",
                            index=index + 1,
                            name=name,
                        )
                    if other.id == creator.id:
                        rows.append(Seat(index=index, kind="user", user_id=creator.id))
                    else:
                        rows.append(Seat(index=index, kind="user", reserved_for=other.id))
                elif spec.kind == "bot":
                    if spec.bot not in levels:
                        raise ClubError(
                            "Seat {index}: no computer level {bot!r} (levels: {levels}).",
                            index=index + 1,
                            bot=spec.bot,
                            levels=", ".join(levels),
                        )
                    rows.append(Seat(index=index, kind="bot", bot=spec.bot))
                else:
                    raise ClubError(
                        "Seat {index}: unknown seat kind {kind!r}.", index=index + 1, kind=spec.kind
                    )
            if not any(r.user_id == creator.id for r in rows):
                raise ClubError("Take one of the seats yourself (choose 'me' for a seat).")
            if settings.rated:
                rated_refusal(rows)
            try:
                quotas.check_new_game(
                    db,
                    creator.id,
                    waits_for_players=any(
                        r.kind == "open" or (r.kind == "user" and r.user_id is None) for r in rows
                    ),
                )
            except quotas.QuotaExceeded as exc:
                raise NewGameRefused(exc.text, exc.status, retry_after=exc.retry_after) from None
            row = GameRow(
                game=game.id,
                rules_version=game.rules_version,
                options=dict(game.options),
                seed=seed,
                start=state.position(),
                status="open",
                created_by=creator.id,
                to_move=state.to_move,
                ply=0,
                rated=settings.rated,
                private=settings.private,
                clock=settings.clock,
                rematch_of=settings.rematch_of,
            )
            row.seats = rows
            db.add(row)
            try:
                db.flush()
            except IntegrityError:
                if settings.rematch_of is None:
                    raise
                db.rollback()  # made at the same time by another press of Rematch
                existing = db.scalar(
                    select(GameRow.id).where(GameRow.rematch_of == settings.rematch_of)
                )
                if existing is None:
                    raise
                return existing
            pk = row.id
            self._start_or_commit(db, row)
        self.listed += 1
        return pk

    def cancel(self, pk: int, user: User) -> None:
        """Withdraw a game still waiting for players: only its creator may, and only while
        nobody else has joined it. The game is deleted (it has no moves yet), which also
        frees its place under :data:`ludoteca.web.round.quotas.OPEN_GAMES_PER_USER`."""
        with self.lock(pk), self.store.session() as db:
            row = self._row(db, pk)
            if row.created_by != user.id:
                raise ClubError("Only the player who created this game can cancel it.", 403)
            if row.status != "open":
                raise ClubError(
                    "This game has started: it can no longer be cancelled (resign instead).", 409
                )
            if any(s.user_id not in (None, user.id) for s in row.seats):
                raise ClubError("Someone has joined this game: it can no longer be cancelled.", 409)
            gone = db.execute(
                delete(GameRow).where(GameRow.id == pk, GameRow.status == "open"),
                execution_options={"synchronize_session": False},
            )
            if gone.rowcount != 1:
                db.rollback()
                raise ClubError("This game changed at the same time; look again.", 409)
            db.commit()
        with self._locks_guard:
            for kept in (self._cache, self._moves_read, self._committed):
                kept.pop(pk, None)
        self.listed += 1

    def join(self, pk: int, user: User, index: int | None = None) -> None:
        """Seat ``user`` at an open game, starting it if that was the last free seat.

        Joining a game one already sits at changes nothing and is not an error: a join whose
        answer was lost (a server gone mid-request, a double click) is simply sent again.
        """
        with self.lock(pk), self.store.session() as db:
            row = self._row(db, pk)
            if any(s.user_id == user.id for s in row.seats):
                return
            if row.status != "open":
                raise ClubError("This game is not waiting for players.", 409)
            free = [
                s
                for s in row.seats
                if s.user_id is None
                and (s.kind == "open" or (s.kind == "user" and s.reserved_for == user.id))
            ]
            if index is not None:
                free = [s for s in free if s.index == index]
            if not free:
                raise ClubError("There is no free seat for you at this game.", 409)
            # A reserved seat goes to its user first.
            free.sort(key=lambda s: (s.reserved_for != user.id, s.index))
            seat = free[0]
            seat.kind = "user"
            seat.user_id = user.id
            self._start_or_commit(db, row)
        self.listed += 1

    def _start_or_commit(self, db, row: GameRow) -> None:
        """Commit the seats, starting the game in the same transaction once none is free.

        One transaction, so that a process dying between filling the last seat and starting
        cannot leave a full game waiting for players forever.
        """
        if any(s.kind == "open" or (s.kind == "user" and s.user_id is None) for s in row.seats):
            db.commit()
            return
        # Read back as every other path reads a game (seats with their users loaded): the row
        # may be kept as this process's last committed one, and read after its session.
        db.flush()
        db.expire_all()
        row = self._row(db, row.id)
        state = self._state(db, row)
        new = self._resolve_chance(row, state)
        row.status = "active"
        row.started = utcnow()
        clocks.start(row)
        self._commit_moves(db, row, state, new)

    # --- playing --------------------------------------------------------------------------------
    def submit(
        self,
        pk: int,
        user: User | None,
        text: object,
        *,
        bot: bool = False,
        expected_ply: int | None = None,
        session: str | None = None,
    ) -> int:
        """Validate and commit one move (and the chance outcomes after it); return the ply.

        ``user`` must hold the seat to move (``bot=True`` plays for a computer seat instead).
        Nothing is changed if anything is refused. ``session``: the hash of the session the
        move was sent in, which must still be open (else :class:`SessionEnded`), checked
        by the move's claim itself.
        """
        if not isinstance(text, str) or not text.strip():
            raise ClubError("A move is a non-empty text in the game's notation.")
        if len(text) > MAX_MOVE_TEXT:
            raise ClubError(
                "A move is at most {MAX_MOVE_TEXT} characters.", MAX_MOVE_TEXT=MAX_MOVE_TEXT
            )
        text = text.strip()
        for trust_kept in (True, False):
            trusted = False
            try:
                with self.lock(pk), self.store.session() as db:
                    row, trusted = self._row_to_move(db, pk, trust_kept)
                    self._validate_and_commit(db, row, user, text, bot, expected_ply, session)
                    return row.ply
            except ClubError as exc:
                # Refused on the kept row, which may be behind another process's move:
                # only the game as stored may refuse (a refusal that ended the game on
                # time has read it, and changed it).
                if not trusted or exc.changed or isinstance(exc, SessionEnded):
                    raise
        raise AssertionError("unreachable: the second try reads the game as stored")

    def _validate_and_commit(
        self,
        db,
        row: GameRow,
        user: User | None,
        text: str,
        bot: bool,
        expected_ply: int | None,
        session: str | None,
    ) -> None:
        """The body of :meth:`submit` once the game is read: refuse with why, or commit."""
        if row.status == "finished":
            raise ClubError("Move {text!r} refused: the game is over.", 409, text=text)
        if row.status != "active":
            raise ClubError("Move {text!r} refused: the game has not started.", 409, text=text)
        if not bot and (user is None or not any(s.user_id == user.id for s in row.seats)):
            raise ClubError(
                "Move {text!r} refused: you are watching, not playing, this game; only its "
                "players can move.",
                403,
                text=text,
            )
        self._refuse_if_stale(
            db, row, Text("Move {text!r} refused", {"text": text}), expected_ply, Text("look again")
        )
        state = self._state(db, row)
        player = state.to_move
        seat = row.seats[player] if 0 <= player < len(row.seats) else None
        if seat is None:
            raise ClubError("Move {text!r} refused: no player is to move.", 409, text=text)
        if bot:
            if seat.kind != "bot":
                raise ClubError("The computer is not to move.", 409)
        elif user is None or seat.user_id != user.id:
            raise ClubError(
                "Move {text!r} refused: it is not your turn ({side_name} is to move).",
                409,
                text=text,
                side_name=state.side_name(player),
            )
        probe = state.clone()
        try:
            move = probe.str_to_move(text)
            canonical = probe.move_to_str(move)
            probe.play(move)
        except MalformedError as exc:
            reason = Text("it does not parse ({reason})", {"reason": exc.text})
            raise ClubError("Move {text!r} refused: {why}.", text=text, why=reason) from None
        except IllegalMoveError as exc:
            raise ClubError("Move {text!r} refused: {why}.", text=text, why=exc.text) from None
        except GameError as exc:
            raise ClubError("Move {text!r} refused: {why}.", text=text, why=exc.text) from None
        new = [(canonical, player, told(probe, log_names(row, probe)))]
        new += self._resolve_chance(row, probe, first_ply=row.ply + 1)
        in_session = None if session is None or user is None else (session, user.id)
        self._commit_moves(db, row, probe, new, in_session)

    def resign(self, pk: int, user: User, *, expected_ply: int | None = None) -> None:
        """Resign ``user``'s seats. With ``expected_ply`` (the game page sends the ply it
        showed) a resignation decided on a board that has changed since is refused."""
        with self.lock(pk), self.store.session() as db:
            row = self._row(db, pk)
            if row.status != "active":
                raise ClubError("Only a game in progress can be resigned.", 409)
            mine = [s for s in row.seats if s.user_id == user.id and not s.resigned]
            if not mine:
                raise ClubError("You are watching this game; only its players can resign.", 403)
            self._refuse_if_stale(
                db,
                row,
                Text("Resignation refused"),
                expected_ply,
                Text("look at the board again before resigning"),
            )
            state = self._state(db, row)
            for s in mine:
                s.resigned = True
            losers = {s.index for s in row.seats if s.resigned}
            self._finish(db, row, state, Result.by_resignation(state, sorted(losers)))
            db.commit()

    # --- clocks ---------------------------------------------------------------------------------
    def expire_overdue(self) -> list[int]:
        """End every active game whose player to move is out of time; return their numbers.

        Run about once a second by every server process (:func:`clocks.sweep`). Several
        processes may find the same game: each re-checks it under the game's lock, and the
        end itself is claimed by a conditional update, so exactly one ends it."""
        now = utcnow()
        with self.store.session() as db:
            due = db.scalars(
                select(GameRow.id).where(
                    GameRow.status == "active",
                    GameRow.deadline.is_not(None),
                    GameRow.deadline <= now,
                )
            ).all()
        ended = []
        for pk in due:
            try:
                with self.lock(pk), self.store.session() as db:
                    row = db.get(GameRow, pk)
                    if row is not None and self._time_out(db, row):
                        ended.append(pk)
            except ClubError as exc:
                log.warning("game %s: cannot end it on time: %s", pk, exc.message)
        return ended

    def _refuse_if_stale(
        self, db, row: GameRow, what: str, expected_ply: int | None, advice: str
    ) -> None:
        """A move or resignation decided on a position that is no longer the game's (the
        clock ran out, or someone moved since the ply it names) is refused with why."""
        self._refuse_if_out_of_time(db, row, what)
        if expected_ply is not None and expected_ply != row.ply:
            raise ClubError(
                "{what}: the game has moved on (now at move {ply}); {advice}.",
                409,
                what=what,
                ply=row.ply,
                advice=advice,
            )

    def _refuse_if_out_of_time(self, db, row: GameRow, what: str) -> None:
        """A request that comes after the player to move ran out of time ends the game on
        time and is refused (the caller holds the game's lock)."""
        if not clocks.overdue(row, utcnow()):
            return
        side = row.to_move
        self._time_out(db, row)
        db.refresh(row)
        if row.status == "finished" and row.result:
            reason = row.result.get("reason") or "the game is over"
        else:  # pragma: no cover - another process moved in between
            reason = f"player {side + 1} ran out of time"
        raise ClubError(
            "{what}: the game is over ({why}).", 409, changed=True, what=what, why=reason
        )

    def _time_out(self, db, row: GameRow) -> bool:
        """End ``row`` because its player to move ran out of time, if it still has: claimed
        by an update that only matches the game as read (active, at this ply), so of two
        processes ending the same game one changes nothing. True if this call ended it."""
        now = utcnow()
        if not clocks.overdue(row, now):
            return False
        player = row.to_move
        if not 0 <= player < len(row.seats):
            return False
        state = self._state(db, row)
        claimed = db.execute(
            update(GameRow)
            .where(GameRow.id == row.id, GameRow.status == "active", GameRow.ply == row.ply)
            .values(status="finished"),
            execution_options={"synchronize_session": False},
        )
        if claimed.rowcount != 1:
            db.rollback()
            return False
        seat = row.seats[player]
        seat.timed_out = True
        if seat.clock_ms is not None:
            seat.clock_ms = 0
        left = clocks.abandoned(row)
        self._finish(db, row, state, Result.on_time(state, [player], abandoned=left))
        db.commit()
        return True

    # --- computer seats -------------------------------------------------------------------------
    def bot_turn(self, pk: int) -> tuple[BotJob, int] | None:
        """If a computer seat is to move: the job for a bot worker and the ply it answers."""
        with self.lock(pk), self.store.session() as db:
            row = db.get(GameRow, pk)
            if row is None or row.status != "active":
                return None
            state = self._state(db, row)
            player = state.to_move
            if not 0 <= player < len(row.seats) or row.seats[player].kind != "bot":
                return None
            texts = db.scalars(
                select(MoveRow.text).where(MoveRow.game_id == pk).order_by(MoveRow.ply)
            ).all()
            job = BotJob(
                record=record_of(row, self.start_state(row), list(texts)),
                level=row.seats[player].bot or "random",
                bot_seed=ply_rng(row.seed, row.ply, "bot").getrandbits(62),
                owner=row.created_by,
            )
            return job, row.ply

    def games_waiting_for_bots(self, idle_seconds: float | None = None) -> list[int]:
        """Active games whose player to move is a computer seat.

        With ``idle_seconds``, only those where no move has been stored for that long: a
        computer turn whose server process died. Every process looks for these now and then
        (:func:`ludoteca.web.round.socket.take_over_stalled_bots`), so another one takes the
        turn over; should two answer at once, the ply check lets only one move stand."""
        with self.store.session() as db:
            waiting = db.execute(
                select(GameRow.id, GameRow.started, GameRow.created)
                .join(Seat, (Seat.game_id == GameRow.id) & (Seat.index == GameRow.to_move))
                .where(GameRow.status == "active", Seat.kind == "bot")
            ).all()
            if idle_seconds is None or not waiting:
                return [pk for pk, _, _ in waiting]
            last = dict(
                db.execute(
                    select(MoveRow.game_id, func.max(MoveRow.created))
                    .where(MoveRow.game_id.in_([pk for pk, _, _ in waiting]))
                    .group_by(MoveRow.game_id)
                ).all()
            )
        cutoff = utcnow() - timedelta(seconds=idle_seconds)
        return [
            pk for pk, started, created in waiting if (last.get(pk) or started or created) < cutoff
        ]

    # --- reading --------------------------------------------------------------------------------
    def row(self, pk: int) -> GameRow:
        with self.store.session() as db:
            return self._row(db, pk)

    def state(self, pk: int) -> tuple[GameRow, State]:
        """The stored game and its current state (a copy: callers may look, not touch)."""
        with self.lock(pk), self.store.session() as db:
            row = self._row(db, pk)
            return row, self._state(db, row).clone()

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
            row = self._committed.get(pk)
            live = self._cache.get(pk)
            known = self._moves_read.get(pk)
            if row is None or live is None or known is None or clocks.live(row):
                return False
            if not row.ply == live.ply == len(known):
                return False
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
            caught_up = _caught_up(row, news)
            self._remember(pk, Live(news.ply, state))
            with self._locks_guard:
                keep_recent(self._committed, pk, caught_up)
                keep_recent(self._moves_read, pk, (*known, *(PlayedMove(*m) for m in news.moves)))
        return True

    def _as_committed(self, pk: int) -> tuple[GameRow, State, list[PlayedMove]] | None:
        """The game as this process's last commit to it left it, or None if that is not
        kept whole (the game ended, or it was forgotten)."""
        row = self._committed.get(pk)
        live = self._cache.get(pk)
        known = self._moves_read.get(pk)
        if row is None or live is None or known is None:
            return None
        if not row.ply == live.ply == len(known):
            return None
        return row, live.state.clone(), list(known)

    def _read_snapshot(self, pk: int) -> tuple[GameRow, State, list[PlayedMove]]:
        # a plain connection: the kept row and state usually answer, and a read through an ORM
        # session cost more than the statements (see _fresh_row for when it is needed)
        with self.store.read_connection() as db:
            row = self._fresh_row(db, pk)
            state = self._state(db, row).clone()
            known = self._moves_read.get(pk, ())
            if len(known) > row.ply:
                known = ()
            if len(known) < row.ply:
                newer = db.execute(
                    PLAYED_MOVES, {"pk": pk, "first": len(known), "last": row.ply}
                ).all()
                known = (*known, *(PlayedMove(*m) for m in newer))
            with self._locks_guard:
                keep_recent(self._moves_read, pk, known)
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

    # --- internals ------------------------------------------------------------------------------
    def _row(self, db, pk: int) -> GameRow:
        # The seats (and their users) in the same query: every move reads them.
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
        kept = self._committed.get(pk)
        if kept is not None:
            # on the connection itself: the ORM's handling of a statement costs more than
            # SQLite's, and this one needs none of it
            conn = db.connection() if isinstance(db, OrmSession) else db
            head = conn.execute(HEAD, {"pk": pk}).one_or_none()
            if head is not None and head.status == "active":
                if head.ply == kept.ply:
                    return kept
                if head.ply > kept.ply and not clocks.live(kept):
                    # Moved since, by another process (players of one game are often served
                    # by different processes): the head holds all that changed.
                    row = _caught_up(kept, head)
                    with self._locks_guard:
                        keep_recent(self._committed, pk, row)
                    return row
            with self._locks_guard:
                self._committed.pop(pk, None)
        if isinstance(db, Connection):  # a plain connection cannot load ORM rows
            with self.store.reading() as orm:
                return self._row(orm, pk)
        return self._row(db, pk)

    def _session_open(self, session_hash: str, user_id: int) -> bool:
        """Whether a move's refused claim was refused for its session (closed or expired)."""
        with self.store.read_connection() as conn:
            found = conn.execute(
                select(SESSION_OPEN),
                {"session_hash": session_hash, "session_user": user_id, "session_now": utcnow()},
            ).scalar()
        return bool(found)

    def _row_to_move(self, db, pk: int, trust_kept: bool) -> tuple[GameRow, bool]:
        """The game to make a move in, attached to ``db``, and whether it is the kept row
        taken on trust. With ``trust_kept``, the row this process last kept of an active game
        is used without the query that checks it (:meth:`_fresh_row`): the move's claim
        checks it anyway (:data:`CLAIM` matches only the game at that ply, not finished,
        and at one ply an active game is always the same), so a move made on it is right,
        and :meth:`submit` tries again on the stored game before refusing anything. Not for
        a game whose player to move is out of time, which only the stored game may end."""
        kept = self._committed.get(pk) if trust_kept else None
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

    def _state(self, db, row: GameRow) -> State:
        live = self._cache.get(row.id)
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
                    self._cache.pop(row.id, None)
                    return self._state(db, row)
                raise ClubError(
                    "Game {id} cannot be restored: move {number} {text!r} is refused by the "
                    "engine ({why}).",
                    500,
                    id=row.id,
                    number=number,
                    text=text,
                    why=exc.text,
                ) from None
        self._remember(row.id, Live(first + len(texts), state))
        return state

    def _remember(self, pk: int, live: Live) -> None:
        keep_recent(self._cache, pk, live)

    def _finish(self, db, row: GameRow, state: State, result: Result) -> None:
        """End a game with ``result`` (not yet committed) and run the finish hooks (ratings)
        in the same transaction: every way a game ends comes through here. The database
        keeps the result's one JSON form (:meth:`Result.to_json`), as records do."""
        self.listed += 1
        with self._locks_guard:  # the row kept after the last move shows the game active
            self._committed.pop(row.id, None)
        row.status = "finished"
        row.finished = utcnow()
        row.to_move = TERMINAL
        row.result = result.to_json(state)
        row.deadline = None
        for hook in self.on_finish:
            hook(db, row, state)

    def _resolve_chance(
        self, row: GameRow, state: State, first_ply: int | None = None
    ) -> list[tuple[str, int, str | None]]:
        """Draw chance outcomes from the secret seed until a player (or the end) is to move."""
        ply = row.ply if first_ply is None else first_ply
        drawn = []
        names = log_names(row, state)
        while state.to_move == CHANCE:
            move = draw_at(state, row.seed, ply)
            text = state.move_to_str(move)
            state.play(move)
            drawn.append((text, CHANCE, told(state, names)))
            ply += 1
        return drawn

    def _commit_moves(
        self,
        db,
        row: GameRow,
        state: State,
        new: Iterable[tuple[str, int, str | None]],
        in_session: tuple[str, int] | None = None,
    ) -> None:
        """Store ``new`` moves after ``row`` (read at its ply) as one claim on the game; with
        ``in_session`` (a session's hash and its user), only while that session is open."""
        new = list(new)
        first_ply = row.ply
        mover = next((player for _, player, _ in new if player >= 0), None)
        clocks.after_moves(row, mover, state.to_move, utcnow())
        moved = {
            "ply": first_ply + len(new),
            "to_move": state.to_move,
            "turn_started": row.turn_started,
            "deadline": row.deadline,
        }
        # Claim the game at the ply it was read at, before anything else is written: of a move
        # and a time-out (or another move) racing in other processes, one changes nothing.
        # The claim writes the game's new ply, turn and clock too: one statement, not two.
        # Core statements on the tables and the session's connection, not the ORM's bulk
        # update, unit of work or statement handling: they run while this process's write
        # lock (and SQLite's) is held, so every step counts.
        added = [
            {
                "game_id": row.id,
                "ply": ply,
                "text": text,
                "player": player,
                "note": to_stored(note) if isinstance(note, str) else None,  # see from_stored
                "created": utcnow(),
            }
            for ply, (text, player, note) in enumerate(new, start=first_ply)
        ]
        claim, params = CLAIM, {**moved, "claim_id": row.id, "claim_ply": first_ply}
        if in_session is not None:
            claim = CLAIM_IN_SESSION
            params.update(session_hash=in_session[0], session_user=in_session[1])
            params["session_now"] = utcnow()
        # The other processes are told by the claim itself (no flush sees Core statements),
        # with what changed if that is all that did (the game goes on, and no live clock
        # changed a seat).
        news = None
        if self._tells_news and not state.is_over and not clocks.live(row):
            news = news_text(first_ply, moved, added)
        told = notice(self.store, db, row.id, news)
        if told is not None:
            claim = claim.returning(told)
        with db.no_autoflush:  # the clock's new values go in the claim, not in a flush before
            claimed = db.connection().execute(claim, params)
        if claimed.rowcount != 1:
            db.rollback()
            self._cache.pop(row.id, None)
            if in_session is not None and not self._session_open(*in_session):
                raise SessionEnded()
            raise ClubError(
                "The game changed at the same time (another move, or it ended on time); "
                "look again.",
                409,
            )
        for name, value in moved.items():  # written above: nothing left for the flush to do
            set_committed_value(row, name, value)
        ply = first_ply + len(added)
        try:
            if added:
                db.connection().execute(ADD_MOVES, added)
            if state.is_over:
                self._finish(db, row, state, state.result)
            for hook in self.on_moves:
                hook(db, row, state, mover)
            db.commit()
        except (IntegrityError, OperationalError):
            # Another process stored a move at this ply first (primary key), or SQLite refused
            # a write based on a snapshot another writer has just made stale.
            db.rollback()
            self._cache.pop(row.id, None)
            raise ClubError("Another move was made at the same time; look again.", 409) from None
        self._remember(row.id, Live(ply, state))
        with self._locks_guard:
            known = self._moves_read.get(row.id)
            if known is not None and len(known) == first_ply:
                self._moves_read[row.id] = (
                    *known,
                    *(PlayedMove(m["ply"], m["text"], m["player"], m["note"]) for m in added),
                )
            self._committed.pop(row.id, None)
            if row.status == "active":
                keep_recent(self._committed, row.id, row)


def _caught_up(kept: GameRow, head) -> GameRow:
    """A detached copy of ``kept`` (an active game without a live clock) as ``head``, the
    game's stored :data:`HEAD`, shows it after later moves. Loading the game again with its
    seats and their players cost a process more than anything else in a move made through
    another process; the seats are the kept ones, which such moves do not change. Views may
    be reading ``kept`` meanwhile, so it is copied, never changed."""
    values = {column.key: getattr(kept, column.key) for column in _GAMES.columns}
    values.update({name: getattr(head, name) for name in MOVED_COLUMNS})
    row = GameRow(**values)
    make_transient_to_detached(row)  # as if loaded: merge(load=False) takes it as it is
    set_committed_value(row, "seats", list(kept.seats))
    return row


def record_of(row: GameRow, start: State, texts: list[str]) -> Record:
    """The game as a record: what downloads, replays and the bot workers are handed."""
    players = []
    for s in row.seats:
        if s.kind == "bot":
            players.append(f"computer:{s.bot}")
        elif s.user is not None:
            players.append(s.user.name)
        else:
            players.append("")
    start_text: str | None = start.position()
    try:
        start.game.from_position(start_text)
    except GameError:
        start_text = None  # a start the notation cannot hold is rebuilt from the seed
    return Record(
        game=row.game,
        rules_version=row.rules_version,
        options=dict(row.options),
        seed=row.seed,
        start=start_text,
        players=players,
        moves=list(texts),
        result=row.result,
        started=(row.started or row.created).isoformat(timespec="seconds") + "+00:00",
        finished=row.finished.isoformat(timespec="seconds") + "+00:00" if row.finished else None,
    )


def rated_refusal(seats: list[Seat]) -> None:
    """Refuse a rated game that ratings could not count (:mod:`ludoteca.web.ratings.service`)."""
    if any(s.kind == "bot" for s in seats):
        raise ClubError("A game with a computer seat cannot be rated.")
    if len(seats) < 2:
        raise ClubError("A one-player game cannot be rated.")
    people = [s.user_id or s.reserved_for for s in seats if s.user_id or s.reserved_for]
    if len(set(people)) != len(people):
        raise ClubError("A rated game needs a different player in every seat.")
