"""Setting a game up: creating it with its seats, joining it, and cancelling it while it
waits for players. Who may join or cancel is :mod:`ludoteca.web.round.access`'s to say."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError, OperationalError

from ludoteca.core.errors import GameError
from ludoteca.web.infra.store import GameRow, Seat, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round import clocks, quotas
from ludoteca.web.round.access import cancel_refusal, free_seats, seated
from ludoteca.web.round.cached import GameCache, ListChanges
from ludoteca.web.round.catalog import bot_levels
from ludoteca.web.round.errors import NewGameRefused
from ludoteca.web.round.playing import Playing
from ludoteca.web.round.reading import GameReader

SEAT_KINDS = ("me", "open", "user", "bot")
DEADLOCK_RETRIES = 3
"""How many times a new game's transaction is made when the database ends it as a deadlock."""


def is_deadlock(exc: OperationalError) -> bool:
    """Whether the database ended the transaction to break a deadlock (or a serialization
    conflict): the transaction can simply be made again."""
    return getattr(exc.orig, "sqlstate", None) in ("40P01", "40001")


@dataclass(frozen=True)
class GameSettings:
    """How a game is played, beside its seats: rated or casual, private or watchable, and
    its time control (see :attr:`ludoteca.web.infra.store.GameRow.clock`)."""

    rated: bool = False
    private: bool = False
    clock: dict[str, Any] | None = None
    rematch_of: int | None = None
    """The finished game this one is a rematch of: a finished game has one rematch, so a
    second game asked for it is not made (:meth:`SetUp.create` returns the first)."""


@dataclass
class SeatSpec:
    kind: str
    user: str | None = None
    bot: str | None = None


class SetUp:
    """Creating, joining and cancelling games; a game whose last seat is filled starts
    with the chance moves before its first turn, committed through ``playing``."""

    def __init__(
        self,
        store: Store,
        cache: GameCache,
        reader: GameReader,
        playing: Playing,
        listed: ListChanges,
    ) -> None:
        self.store = store
        self.cache = cache
        self.reader = reader
        self.playing = playing
        self.listed = listed
        self._creating = threading.Lock()
        """Held while a game is created: the quotas are counted and the game added as one
        step (:mod:`ludoteca.web.round.quotas`; PostgreSQL also locks the creator's row)."""

    def create(
        self,
        creator: User,
        game_id: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        settings: GameSettings | None = None,
    ) -> int:
        settings = settings or GameSettings()
        game = self.reader.make_game(game_id, options)
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
        # PostgreSQL may end one of several presses made at once in different processes as a
        # deadlock (the creator's row lock and another press's new game behind the same
        # one-rematch index): that press is made again, as PostgreSQL advises, and then finds
        # the game the other made.
        for attempt in range(DEADLOCK_RETRIES):
            try:
                return self._create_in_one_step(creator, game, state, seed, seats, settings)
            except OperationalError as exc:
                if attempt + 1 == DEADLOCK_RETRIES or not is_deadlock(exc):
                    raise
        raise AssertionError("unreachable")

    def _create_in_one_step(
        self,
        creator: User,
        game: Any,
        state: Any,
        seed: int,
        seats: list[SeatSpec],
        settings: GameSettings,
    ) -> int:
        """The new game's rows in one transaction (see :meth:`create`)."""
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
        self.listed.note()
        return pk

    def cancel(self, pk: int, user: User) -> None:
        """Withdraw a game still waiting for players: only its creator may, and only while
        nobody else has joined it. The game is deleted (it has no moves yet), which also
        frees its place under :data:`ludoteca.web.round.quotas.OPEN_GAMES_PER_USER`."""
        with self.reader.lock(pk), self.store.session() as db:
            row = self.reader.row_in(db, pk)
            refusal = cancel_refusal(row, user)
            if refusal is not None:
                raise refusal
            gone = db.execute(
                delete(GameRow).where(GameRow.id == pk, GameRow.status == "open"),
                execution_options={"synchronize_session": False},
            )
            if gone.rowcount != 1:
                db.rollback()
                raise ClubError("This game changed at the same time; look again.", 409)
            db.commit()
        self.cache.forget(pk)
        self.listed.note()

    def join(self, pk: int, user: User, index: int | None = None) -> None:
        """Seat ``user`` at an open game, starting it if that was the last free seat.

        Joining a game one already sits at changes nothing and is not an error: a join whose
        answer was lost (a server gone mid-request, a double click) is simply sent again.
        """
        with self.reader.lock(pk), self.store.session() as db:
            row = self.reader.row_in(db, pk)
            if seated(row.seats, user):
                return
            if row.status != "open":
                raise ClubError("This game is not waiting for players.", 409)
            free = free_seats(row.seats, user)
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
        self.listed.note()

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
        row = self.reader.row_in(db, row.id)
        state = self.reader.state_in(db, row)
        new = self.playing.resolve_chance(row, state)
        row.status = "active"
        row.started = utcnow()
        clocks.start(row)
        self.playing.commit_moves(db, row, state, new)


def rated_refusal(seats: list[Seat]) -> None:
    """Refuse a rated game that ratings could not count (:mod:`ludoteca.web.ratings.service`)."""
    if any(s.kind == "bot" for s in seats):
        raise ClubError("A game with a computer seat cannot be rated.")
    if len(seats) < 2:
        raise ClubError("A one-player game cannot be rated.")
    people = [s.user_id or s.reserved_for for s in seats if s.user_id or s.reserved_for]
    if len(set(people)) != len(people):
        raise ClubError("A rated game needs a different player in every seat.")
