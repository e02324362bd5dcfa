"""What the computer seats need of the stored games: whose turn is a computer's, and the job
a bot worker is handed for it (:mod:`.seats`, run by :class:`.bots.BotRunner`)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from ludoteca.core.table import ply_rng
from ludoteca.web.infra.store import GameRow, MoveRow, Seat, Store, utcnow
from ludoteca.web.round.reading import GameReader
from ludoteca.web.round.seats import BotJob, turn_seconds
from ludoteca.web.round.storage import record_of


class BotTurns:
    """The computer's turns in one database's games, read through ``reader``."""

    def __init__(self, store: Store, reader: GameReader) -> None:
        self.store = store
        self.reader = reader

    def bot_turn(self, pk: int) -> tuple[BotJob, int, int] | None:
        """If a computer seat is to move: the job for a bot worker, and the ply and count of
        takebacks of the position it answers."""
        with self.reader.lock(pk), self.store.session() as db:
            row = db.get(GameRow, pk)
            if row is None or row.status != "active":
                return None
            state = self.reader.state_in(db, row)
            player = state.to_move
            if not 0 <= player < len(row.seats) or row.seats[player].kind != "bot":
                return None
            texts = db.scalars(
                select(MoveRow.text).where(MoveRow.game_id == pk).order_by(MoveRow.ply)
            ).all()
            level = row.seats[player].bot or "random"
            job = BotJob(
                record=record_of(row, self.reader.start_state(row), list(texts)),
                level=level,
                bot_seed=ply_rng(row.seed, row.ply, "bot").getrandbits(62),
                owner=row.created_by,
                seconds=turn_seconds(state, level),
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
