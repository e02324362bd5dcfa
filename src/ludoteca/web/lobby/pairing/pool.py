"""The quick-pairing pool over the database: seeks made, kept alive, matched and claimed.

Every server process runs the same pool on the same ``seeks`` table. A new seek is matched
at once against those waiting in its cell (game, table size, time control, rated or not);
every :data:`TICK_SECONDS` each process matches again, as the waiting seekers' rating
ranges widen (:mod:`.matching`). A table found is first *claimed*: one ``UPDATE … WHERE
claim IS NULL AND alive > cutoff`` over its seeks, which must change all of them — a seek
another process took meanwhile, or whose page went away, makes it change fewer, and the
table is given up (its other seeks wait on). Only then is the game created, through the
round service's own :meth:`~ludoteca.web.round.setup.SetUp.create` and
:meth:`~ludoteca.web.round.setup.SetUp.join`, and the seeks marked with it. So no seek is
ever paired twice, however many processes match at once.

The seekers' pages hear of their game from the process that made it: directly when their
socket is on it, through the fan-out's ``pair:<game>`` event when it is on another
(:mod:`ludoteca.web.infra.fanout`), and in any case at the next tick, which looks for the
local seeks paired meanwhile.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, select, text, update

from ludoteca.web.infra.fanout import CHANNEL, is_postgres
from ludoteca.web.infra.store import GameRow, Rating, Seat, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.lobby.pairing import matching
from ludoteca.web.lobby.pairing.controls import BY_KEY, cell_refusal
from ludoteca.web.lobby.pairing.models import Seek
from ludoteca.web.moderation.models import Block
from ludoteca.web.ratings.service import START_RATING, pool_for
from ludoteca.web.round.catalog import available_games
from ludoteca.web.round.service import GameService, GameSettings, SeatSpec

log = logging.getLogger("ludoteca.web")

ABSENT_SECONDS = 30.0
"""A seek not refreshed for this long is nobody's: its page or its process is gone."""
REFRESH_SECONDS = 10.0
"""How often a process refreshes the seeks of its open sockets (a third of the above)."""
TICK_SECONDS = 1.0
"""How often each process matches the waiting seeks again, their ranges widened."""
RECENT_GAMES = 20
"""The games of each person that the seats are balanced over."""


@dataclass(frozen=True)
class Cell:
    game: str
    players: int
    control: str
    rated: bool


class Pool:
    """The pool as one server process sees it."""

    def __init__(self, store: Store, games: GameService, origin: str) -> None:
        self.store = store
        self.games = games
        self.origin = origin
        self.told: Callable[[int], None] = lambda pk: None
        """Called (from any thread) with each game this process paired, after its commit."""
        self._matching = threading.Lock()

    # --- seeks ------------------------------------------------------------------------------
    def seek(self, user: User, cell: Cell) -> int:
        """Put ``user`` in the pool for ``cell``: their seek replaces any other of theirs
        still waiting (one seek a person). Returns the seek's id."""
        why = cell_refusal(cell.game, cell.players, cell.control)
        if why is not None:
            raise ClubError(
                why, game_id=cell.game[:40], players=cell.players, control=cell.control[:20]
            )
        pool = pool_for(cell.game, cell.players)
        if cell.rated and pool is None:
            raise ClubError("A one-player game cannot be rated.")
        with self.store.session() as db:
            rating = None
            if pool is not None:
                rating = db.scalar(
                    select(Rating.rating).where(Rating.user_id == user.id, Rating.pool == pool)
                )
            db.execute(delete(Seek).where(Seek.user_id == user.id, Seek.claim.is_(None)))
            row = Seek(
                user_id=user.id,
                game=cell.game,
                players=cell.players,
                control=cell.control,
                rated=cell.rated,
                rating=START_RATING if rating is None else rating,
            )
            db.add(row)
            db.commit()
            return row.id

    def cancel(self, seek_id: int) -> None:
        """The seeker left or changed their mind: their seek goes, unless already paired
        (then its game stands, and the row goes when the game is told or it grows old)."""
        with self.store.session() as db:
            db.execute(delete(Seek).where(Seek.id == seek_id, Seek.claim.is_(None)))
            db.commit()

    def forget(self, seek_id: int) -> None:
        """A seek whose page has gone, paired or not."""
        with self.store.session() as db:
            db.execute(
                delete(Seek).where(
                    Seek.id == seek_id, Seek.claim.is_(None) | Seek.game_id.is_not(None)
                )
            )
            db.commit()

    def refresh(self, seek_ids: list[int]) -> None:
        """The pages of these seeks are still open."""
        if not seek_ids:
            return
        with self.store.session() as db:
            db.execute(update(Seek).where(Seek.id.in_(seek_ids)).values(alive=utcnow()))
            db.commit()

    def sweep_absent(self) -> int:
        """Delete the seeks nobody refreshed for :data:`ABSENT_SECONDS` (paired or not)."""
        cutoff = utcnow() - timedelta(seconds=ABSENT_SECONDS)
        with self.store.session() as db:
            gone = db.execute(delete(Seek).where(Seek.alive < cutoff)).rowcount
            db.commit()
        return gone

    def paired(self, seek_ids: list[int]) -> dict[int, int]:
        """Of these seeks, those paired: seek id -> game id."""
        if not seek_ids:
            return {}
        with self.store.reading() as db:
            rows = db.execute(
                select(Seek.id, Seek.game_id).where(
                    Seek.id.in_(seek_ids), Seek.game_id.is_not(None)
                )
            ).all()
        return {sid: pk for sid, pk in rows}

    def seeks_of_game(self, pk: int) -> list[int]:
        with self.store.reading() as db:
            return list(db.scalars(select(Seek.id).where(Seek.game_id == pk)))

    # --- matching ---------------------------------------------------------------------------
    def match(self, cell: Cell | None = None) -> list[int]:
        """Pair what can be paired, in ``cell`` or in every cell with a table's worth of
        seeks; returns the games made."""
        made: list[int] = []
        with self._matching:
            for each in [cell] if cell is not None else self._busy_cells():
                made.extend(self._match_cell(each))
        return made

    def _busy_cells(self) -> list[Cell]:
        cutoff = utcnow() - timedelta(seconds=ABSENT_SECONDS)
        with self.store.reading() as db:
            rows = db.execute(
                select(Seek.game, Seek.players, Seek.control, Seek.rated)
                .where(Seek.claim.is_(None), Seek.alive >= cutoff)
                .group_by(Seek.game, Seek.players, Seek.control, Seek.rated)
                .having(func.count() >= 2)
            ).all()
        return [Cell(*row) for row in rows]

    def _match_cell(self, cell: Cell) -> list[int]:
        now = utcnow()
        cutoff = now - timedelta(seconds=ABSENT_SECONDS)
        with self.store.reading() as db:
            rows = db.execute(
                select(Seek.id, Seek.user_id, Seek.rating, Seek.created)
                .where(
                    Seek.game == cell.game,
                    Seek.players == cell.players,
                    Seek.control == cell.control,
                    Seek.rated.is_(cell.rated),
                    Seek.claim.is_(None),
                    Seek.alive >= cutoff,
                )
                .order_by(Seek.created, Seek.id)
            ).all()
            if len(rows) < cell.players:
                return []
            people = {r.user_id for r in rows}
            blocks = matching.blocks_between(
                db.execute(
                    select(Block.user_id, Block.blocked_id).where(
                        Block.user_id.in_(people), Block.blocked_id.in_(people)
                    )
                ).all()
            )
        seekers = [
            matching.Seeker(r.id, r.user_id, r.rating, (now - r.created).total_seconds())
            for r in rows
        ]
        made = []
        for table in matching.tables(seekers, cell.players, blocks):
            pk = self._pair(cell, table)
            if pk is not None:
                made.append(pk)
        return made

    def _claim(self, ids: list[int]) -> str | None:
        token = secrets.token_hex(8)
        cutoff = utcnow() - timedelta(seconds=ABSENT_SECONDS)
        with self.store.session() as db:
            taken = db.execute(
                update(Seek)
                .where(Seek.id.in_(ids), Seek.claim.is_(None), Seek.alive >= cutoff)
                .values(claim=token)
            ).rowcount
            if taken != len(ids):
                db.rollback()
                return None
            db.commit()
        return token

    def _release(self, token: str) -> None:
        with self.store.session() as db:
            db.execute(update(Seek).where(Seek.claim == token).values(claim=None))
            db.commit()

    def _pair(self, cell: Cell, table: list[matching.Seeker]) -> int | None:
        token = self._claim([s.seek_id for s in table])
        if token is None:
            return None
        with self.store.reading() as db:
            order = matching.seat_order(
                [s.user_id for s in table], self._mean_seats(db, cell.game, table)
            )
        try:
            pk = self._create(cell, order)
        except ClubError as exc:
            # A quota refused the game to the first seat's person, who creates it: the others
            # wait on, and that person's seek is dropped (so that the same refusal is not met
            # at every round).
            log.info("quick pairing refused: %s", exc.message)
            self._release(token)
            creator = next(s.seek_id for s in table if s.user_id == order[0])
            with self.store.session() as db:
                db.execute(delete(Seek).where(Seek.id == creator))
                db.commit()
            return None
        except Exception:
            self._release(token)
            raise
        with self.store.session() as db:
            db.execute(update(Seek).where(Seek.claim == token).values(game_id=pk))
            if is_postgres(self.store):
                db.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": f"pair:{pk} {self.origin}"},
                )
            db.commit()
        self.told(pk)
        return pk

    def _create(self, cell: Cell, order: list[int]) -> int:
        """The game of ``order`` (the people, seat by seat), made and started by the round
        service as any other: the first seat's person creates it, the others join."""
        with self.store.session() as db:
            users = {u.id: u for u in db.scalars(select(User).where(User.id.in_(order)))}
        if len(users) != len(order):
            raise ClubError("A seeker's account is gone.")
        cls = available_games()[cell.game]
        options = {"players": cell.players} if cls.max_players != cls.min_players else {}
        creator = users[order[0]]
        seats = [SeatSpec("me")] + [SeatSpec("user", user=users[p].name) for p in order[1:]]
        clock = BY_KEY[cell.control].clock
        settings = GameSettings(rated=cell.rated, clock=dict(clock) if clock else None)
        pk = self.games.create(creator, cell.game, options, seats, settings)
        for person in order[1:]:
            self.games.join(pk, users[person])
        return pk

    @staticmethod
    def _mean_seats(db, game: str, table: list[matching.Seeker]) -> dict[int, float]:
        """Each person's mean seat (0 first, 1 last) over their recent games of ``game``."""
        means: dict[int, float] = {}
        for person in (s.user_id for s in table):
            recent = db.execute(
                select(Seat.index, GameRow.id)
                .join(GameRow, GameRow.id == Seat.game_id)
                .where(Seat.user_id == person, GameRow.game == game)
                .order_by(GameRow.id.desc())
                .limit(RECENT_GAMES)
            ).all()
            if not recent:
                continue
            sizes = dict(
                db.execute(
                    select(Seat.game_id, func.count())
                    .where(Seat.game_id.in_([pk for _, pk in recent]))
                    .group_by(Seat.game_id)
                ).all()
            )
            spots = [index / max(1, sizes.get(pk, 2) - 1) for index, pk in recent]
            means[person] = sum(spots) / len(spots)
        return means
