"""The game service: one database's games as a server process plays them.

Built from its roles, each a module small enough to read at once: reading and the kept
games (:mod:`.reading`, :mod:`.cached`, :mod:`.storage`), ending games (:mod:`.finishing`),
playing moves (:mod:`.playing`) and setting games up (:mod:`.setup`). This module adds what
the computer seats need, and names what the rest of the club imports.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from ludoteca.core.table import ply_rng
from ludoteca.web.infra.store import GameRow, MoveRow, Seat, utcnow
from ludoteca.web.round.cached import MAX_CACHED_GAMES, Live
from ludoteca.web.round.playing import MAX_MOVE_TEXT, probe
from ludoteca.web.round.reading import FinishHook, MovesHook
from ludoteca.web.round.seats import BotJob
from ludoteca.web.round.setup import SEAT_KINDS, GameSettings, SeatSpec, SetUp, rated_refusal
from ludoteca.web.round.storage import PlayedMove, record_of

__all__ = [
    "MAX_CACHED_GAMES",
    "MAX_MOVE_TEXT",
    "SEAT_KINDS",
    "FinishHook",
    "GameService",
    "GameSettings",
    "Live",
    "MovesHook",
    "PlayedMove",
    "SeatSpec",
    "probe",
    "rated_refusal",
    "record_of",
]


class GameService(SetUp):
    """Every role of the round over one store; what the routes and the hub are handed."""

    # --- computer seats -------------------------------------------------------------------------
    def bot_turn(self, pk: int) -> tuple[BotJob, int, int] | None:
        """If a computer seat is to move: the job for a bot worker, and the ply and count of
        takebacks of the position it answers."""
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
            return job, row.ply, row.takebacks

    def games_waiting_for_bots(self, idle_seconds: float | None = None) -> list[int]:
        """Active games whose player to move is a computer seat.

        With ``idle_seconds``, only those where no move has been stored for that long: a
        computer turn whose server process died. Every process looks for these now and then
        (:func:`ludoteca.web.round.bots.take_over_stalled_bots`), so another one takes the
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
