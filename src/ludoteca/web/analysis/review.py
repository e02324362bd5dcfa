"""Computer review of a finished game: every position evaluated, a curve of expected results,
and the moves that threw away most marked.

Requested from the replay page by one of the game's players (anyone who may watch the game
sees a review once made; reviewing strangers' games would only fill the queue), a review
waits in ``reviews`` (one per game) and any server process takes it (an ``UPDATE`` from
``queued`` that only one process wins) and evaluates the game's positions one at a time in
the analysis worker, never in the computer players' pool.

**Fair between people.** A process runs up to :data:`REVIEWS_AT_ONCE` reviews at once, at
most one per person, taking next the waiting review of the person served longest ago (round
robin, as the computer players' turns); each position then waits in its person's review line
of the analysis worker (:attr:`Club.analysis_queue`, which serves first whoever used it least
lately), so a 20-ply review goes on beside two people's 400-ply ones instead of after them
(it waited 224 s first come, first served). A person may
have :data:`PER_USER` reviews waiting or running and ask for :data:`PER_DAY` a day: the
requester's row is locked while they are counted, so requests sent at once cannot pass the
limit together, and two requests for the same game at once are the same review. A review
whose process died is taken again after :data:`STALE_MINUTES`.

**Thresholds.** Each position is evaluated by a search of :data:`ITERATIONS` simulations (the
strongest level's settings): each player's expected result, a win counting 1 and a draw ½.
A move's *drop* is its player's expected result before the move minus after it. A drop of
at least 0.10 is an **inaccuracy**, 0.20 a **mistake**, 0.30 a **blunder** (as lichess marks
drops in win probability). The table's draws are never marked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from datetime import timedelta
from functools import partial
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError

from ludoteca.bots import position_analysis as analysis
from ludoteca.core.messages import N_
from ludoteca.core.protocol import CHANCE
from ludoteca.web.analysis.live import worker_result
from ludoteca.web.analysis.models import Review
from ludoteca.web.forum.limits import lock_author
from ludoteca.web.infra.store import User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round.access import check_may_watch

log = logging.getLogger("ludoteca.web")
THRESHOLDS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
ITERATIONS = int(os.environ.get("LUDOTECA_REVIEW_ITERATIONS", "400"))
"""Simulations per position (``$LUDOTECA_REVIEW_ITERATIONS`` changes it, for tests)."""
PER_USER = 2
PER_DAY = 20
REVIEWS_AT_ONCE = int(os.environ.get("LUDOTECA_REVIEWS_AT_ONCE", "8"))
"""Reviews one process runs at once (each one person's): their positions share the analysis
worker in turn, so this bounds only the bookkeeping, not the work. ``$LUDOTECA_REVIEWS_AT_ONCE``
changes it; 0 makes a process that takes no reviews, leaving them to the others."""
STALE_MINUTES = 15
POLL_SECONDS = 1.0


def kind_of(drop: float) -> str | None:
    for kind, least in THRESHOLDS:
        if drop >= least - 1e-9:
            return kind
    return None


def marks_for(values: list[list[float]], movers: list[int], texts: list[str]) -> list[dict]:
    """The marks of a game whose positions (ply 0 to the end) have ``values``; ``movers[i]``
    played ``texts[i]`` from position ``i``."""
    out = []
    for i, (player, text) in enumerate(zip(movers, texts, strict=True)):
        if player < 0:
            continue
        drop = values[i][player] - values[i + 1][player]
        kind = kind_of(drop)
        if kind is not None:
            out.append(
                {"ply": i + 1, "player": player, "move": text, "kind": kind, "drop": round(drop, 3)}
            )
    return out


class Reviews:
    def __init__(self, club) -> None:
        self.club = club

    def request(self, pk: int, user: User) -> Review:
        games = self.club.games
        row = games.row(pk)
        check_may_watch(row, user)
        if row.status != "finished":
            raise ClubError("A game is reviewed once it is over.", 409)
        if len(row.seats) != 2:
            raise ClubError("Reviews are for two-player games.", 409)
        if not any(s.user_id == user.id for s in row.seats):
            raise ClubError(N_("Only the game's players may ask for its review."), 403)
        try:
            return self._queue(pk, user)
        except IntegrityError:  # someone asked for the same game in the same instant
            existing = self.get(pk)
            if existing is None:
                raise
            return existing

    def _queue(self, pk: int, user: User) -> Review:
        with self.club.store.session() as db:
            lock_author(db, user.id)  # the count and the new review: one step per person
            existing = db.get(Review, pk)
            if existing is not None and existing.status != "failed":
                return existing
            mine = db.scalar(
                select(func.count())
                .select_from(Review)
                .where(Review.requested_by == user.id, Review.status.in_(["queued", "running"]))
            )
            if (mine or 0) >= PER_USER:
                raise ClubError(
                    "You have {PER_USER} reviews waiting already; they run one after another.",
                    429,
                    PER_USER=PER_USER,
                )
            today = db.scalar(
                select(func.count())
                .select_from(Review)
                .where(
                    Review.requested_by == user.id, Review.created > utcnow() - timedelta(days=1)
                )
            )
            if (today or 0) >= PER_DAY:
                raise ClubError(
                    "At most {PER_DAY} reviews a day; try again tomorrow.", 429, PER_DAY=PER_DAY
                )
            if existing is not None:
                db.delete(existing)
                db.flush()
            review = Review(game_id=pk, status="queued", requested_by=user.id, created=utcnow())
            db.add(review)
            db.commit()
            return review

    def get(self, pk: int) -> Review | None:
        with self.club.store.reading() as db:
            return db.get(Review, pk)

    # --- the worker side ------------------------------------------------------------------------
    def claim(self) -> int | None:
        """Take the next waiting review (or one abandoned by a dead process): that of the
        person whose last review started longest ago (never, first), among people with no
        review running; their oldest."""
        stale = utcnow() - timedelta(minutes=STALE_MINUTES)
        takeable = or_(
            Review.status == "queued",
            (Review.status == "running") & (Review.started < stale),
        )
        with self.club.store.session() as db:
            waiting = db.execute(
                select(Review.game_id, Review.requested_by)
                .where(takeable)
                .order_by(Review.created)
                .limit(200)
            ).all()
            if not waiting:
                return None
            people = {who for _, who in waiting if who is not None}
            running = set(
                db.scalars(
                    select(Review.requested_by).where(
                        Review.status == "running",
                        Review.started >= stale,
                        Review.requested_by.in_(people),
                    )
                )
            )
            served = dict(
                db.execute(
                    select(Review.requested_by, func.max(Review.started))
                    .where(Review.requested_by.in_(people))
                    .group_by(Review.requested_by)
                ).all()
            )
            order: list[int] = []
            seen: set[int | None] = set()
            never = utcnow() - timedelta(days=3650)
            # stable: among people served as long ago, the oldest request first
            for pk, who in sorted(waiting, key=lambda w: served.get(w[1]) or never):
                if who in running or (who is not None and who in seen):
                    continue
                seen.add(who)
                order.append(pk)
            for pk in order[:5]:
                won = db.execute(
                    update(Review)
                    .where(Review.game_id == pk, takeable)
                    .values(status="running", started=utcnow(), done=0),
                    execution_options={"synchronize_session": False},
                ).rowcount
                if won:
                    db.commit()
                    return pk
        return None

    def _save(self, pk: int, **values: Any) -> None:
        with self.club.store.session() as db:
            db.execute(update(Review).where(Review.game_id == pk).values(**values))
            db.commit()

    async def run(self, pk: int) -> None:
        """Evaluate every position of game ``pk`` in the analysis worker and store the curve
        and the marks."""
        loop = asyncio.get_running_loop()
        games = self.club.games
        row, moves, state = await asyncio.to_thread(games.states_along, pk)
        positions, movers, texts = [state.position()], [], []
        for m in moves:
            movers.append(state.to_move)
            texts.append(m.text)
            state.play(m.text)
            positions.append(state.position())
        self._save(pk, total=len(positions))
        game_id, options = row.game, dict(row.options or {})
        review = await asyncio.to_thread(self.get, pk)
        owner = ("review", review.requested_by if review and review.requested_by else pk)
        values: list[list[float]] = []
        for i, position in enumerate(positions):
            if i + 1 < len(positions) and movers[i] == CHANCE and values:
                # the table's draw: no one chose it; the position is judged after it
                values.append([])
                continue
            job = partial(analysis.evaluate, game_id, options, position, ITERATIONS, 1 + i)
            async with self.club.analysis_queue.turn(owner):
                values.append(
                    await worker_result(loop.run_in_executor(self.club.analysis_pool, job))
                )
            if i % 5 == 0:
                self._save(pk, done=i + 1)
        for i in range(len(values) - 2, -1, -1):  # a chance position takes the next one's value
            if not values[i]:
                values[i] = values[i + 1]
        if not values[0]:
            values[0] = values[1]
        self._save(
            pk,
            status="done",
            done=len(positions),
            values=[[round(v, 4) for v in vs] for vs in values],
            marks=marks_for(values, movers, texts),
            finished=utcnow(),
        )

    async def serve(self) -> None:
        """Forever: take waiting reviews and run them, up to :data:`REVIEWS_AT_ONCE` at once
        in this process (their positions share the analysis worker person by person)."""
        running: set[asyncio.Task] = set()
        if REVIEWS_AT_ONCE < 1:
            return
        try:
            while True:
                try:
                    pk = None
                    if len(running) < REVIEWS_AT_ONCE:
                        pk = await asyncio.to_thread(self.claim)
                    if pk is None:
                        await asyncio.sleep(POLL_SECONDS)
                        continue
                    task = asyncio.create_task(self._run_one(pk))
                    running.add(task)
                    task.add_done_callback(running.discard)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("the review queue failed; trying again")
                    await asyncio.sleep(5)
        finally:
            for task in list(running):
                task.cancel()

    async def _run_one(self, pk: int) -> None:
        try:
            await self.run(pk)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("review of game %s failed", pk)
            with contextlib.suppress(Exception):
                self._save(pk, status="failed", error=str(exc)[:500], finished=utcnow())
