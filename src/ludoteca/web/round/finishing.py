"""How games end on the server: resigning, running out of time, and the one place every end
goes through (:meth:`Finishing.finish`, which runs the finish hooks such as ratings)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from ludoteca.core.messages import Text
from ludoteca.core.protocol import TERMINAL, Result, State
from ludoteca.web.infra.store import GameRow, Store, User, utcnow
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.round import clocks
from ludoteca.web.round.cached import GameCache, ListChanges
from ludoteca.web.round.reading import GameReader
from ludoteca.web.round.storage import claim_as_read

log = logging.getLogger("ludoteca.web")

FinishHook = Callable[[Any, GameRow, State], None]
"""Called as ``hook(db, row, state)`` inside the transaction that ends a game, after its
result is set and before the commit, so what it writes stands or falls with the end."""


class Finishing:
    """Ending games: by resignation, on time, or by the rules (called by :mod:`.playing`)."""

    def __init__(
        self, store: Store, cache: GameCache, reader: GameReader, listed: ListChanges
    ) -> None:
        self.store = store
        self.cache = cache
        self.reader = reader
        self.listed = listed
        self.on_finish: list[FinishHook] = []
        """Run by :meth:`finish` in the transaction that ends a game (ratings, tallies)."""

    def resign(self, pk: int, user: User, *, expected_ply: int | None = None) -> None:
        """Resign ``user``'s seats. With ``expected_ply`` (the game page sends the ply it
        showed) a resignation decided on a board that has changed since is refused."""
        with self.reader.lock(pk), self.store.session() as db:
            row = self.reader.row_in(db, pk)
            if row.status != "active":
                raise ClubError("Only a game in progress can be resigned.", 409)
            mine = [s for s in row.seats if s.user_id == user.id and not s.resigned]
            if not mine:
                raise ClubError("You are watching this game; only its players can resign.", 403)
            self.refuse_if_stale(
                db,
                row,
                Text("Resignation refused"),
                expected_ply,
                Text("look at the board again before resigning"),
            )
            state = self.reader.state_in(db, row)
            for s in mine:
                s.resigned = True
            losers = {s.index for s in row.seats if s.resigned}
            self.finish(db, row, state, Result.by_resignation(state, sorted(losers)))
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
                with self.reader.lock(pk), self.store.session() as db:
                    row = db.get(GameRow, pk)
                    if row is not None and self._time_out(db, row):
                        ended.append(pk)
            except ClubError as exc:
                log.warning("game %s: cannot end it on time: %s", pk, exc.message)
        return ended

    def refuse_if_stale(
        self,
        db,
        row: GameRow,
        what: str,
        expected_ply: int | None,
        advice: str,
        expected_takebacks: int | None = None,
    ) -> None:
        """A move or resignation decided on a position that is no longer the game's (the
        clock ran out, or someone moved since the ply it names, or took moves back since
        the count of takebacks it names: the same ply is then another position) is refused
        with why."""
        self.refuse_if_out_of_time(db, row, what)
        if (expected_ply is not None and expected_ply != row.ply) or (
            expected_takebacks is not None and expected_takebacks != row.takebacks
        ):
            raise ClubError(
                "{what}: the game has moved on (now at move {ply}); {advice}.",
                409,
                what=what,
                ply=row.ply,
                advice=advice,
            )

    def refuse_if_out_of_time(self, db, row: GameRow, what: str) -> None:
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
        state = self.reader.state_in(db, row)
        # the deadline as stored: a vacation taken in another process may have pushed it back
        if not claim_as_read(db, row, GameRow.deadline <= now, status="finished"):
            return False
        seat = row.seats[player]
        seat.timed_out = True
        if seat.clock_ms is not None:
            seat.clock_ms = 0
        left = clocks.abandoned(row)
        self.finish(db, row, state, Result.on_time(state, [player], abandoned=left))
        db.commit()
        return True

    def finish(self, db, row: GameRow, state: State, result: Result) -> None:
        """End a game with ``result`` (not yet committed) and run the finish hooks (ratings)
        in the same transaction: every way a game ends comes through here. The database
        keeps the result's one JSON form (:meth:`Result.to_json`), as records do."""
        self.listed.note()
        self.cache.drop_row(row.id)  # the row kept after the last move shows the game active
        row.status = "finished"
        row.finished = utcnow()
        row.to_move = TERMINAL
        row.result = result.to_json(state)
        row.deadline = None
        for hook in self.on_finish:
            hook(db, row, state)
